"""Contract logs: the pages of `/contracts/{contractIdOrAddress}/results/logs` and
`/contracts/results/logs`, in (timestamp, index) order.

The keyset bounds split into up to three parts, each a single range of the
(contract_id, consensus_timestamp, index) or (consensus_timestamp, index) index: the
rest of the first timestamp past the index bound, the timestamps strictly inside, and
the start of the last one. Each part reads at most a page; their union is sorted and
cut to the page (`sql.log_page`).
"""

from dataclasses import dataclass, fields

from apps.common.errors import InvalidArgument
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import PageCriteria
from apps.contracts import sql


@dataclass
class KeyBound:
    """The conditions on one column of the (timestamp, index) keyset: at most one
    equality, one lower and one upper bound."""

    param: str
    equal: Comparison | None = None
    lower: Comparison | None = None
    upper: Comparison | None = None

    def add(self, comparison: Comparison) -> None:
        operator = comparison.operator
        if operator == "ne":
            raise InvalidArgument(f"Not equal (ne) operator is not supported for {self.param}")
        if operator == "eq":
            if self.equal:
                raise InvalidArgument(f"Only one equal (eq) operator is allowed for {self.param}")
            self.equal = comparison
        elif operator in ("gt", "gte"):
            if self.lower:
                raise InvalidArgument(f"Only one gt/gte operator is allowed for {self.param}")
            self.lower = comparison
        else:
            if self.upper:
                raise InvalidArgument(f"Only one lt/lte operator is allowed for {self.param}")
            self.upper = comparison

    @property
    def comparisons(self) -> list[Comparison]:
        return [c for c in (self.equal, self.lower, self.upper) if c is not None]

    @property
    def has_range(self) -> bool:
        return bool(self.lower or self.upper)

    @property
    def is_empty(self) -> bool:
        return not (self.equal or self.has_range)


@dataclass(frozen=True, kw_only=True)
class LogCriteria(PageCriteria):
    """What a page of logs selects: its query's `PageCriteria` with the (timestamp, index)
    keyset bounds and the topics the route's FilterSet checked. `scope` holds the contract
    of `/contracts/{contractIdOrAddress}/results/logs` (its id, None for an address naming
    none); `transaction_hash` the transaction `/contracts/results/logs` is limited to."""

    timestamp: KeyBound
    index: KeyBound
    topics: dict[str, list[bytes]]
    transaction_hash: bytes | None = None

    @classmethod
    def of(cls, page: PageCriteria, **bounds) -> "LogCriteria":
        return cls(**{field.name: getattr(page, field.name) for field in fields(PageCriteria)}, **bounds)


def contract_log_list(criteria: LogCriteria) -> list[dict]:
    """A page of the logs one contract (or an account with a code delegation) emitted."""
    (contract_id,) = criteria.scope
    if contract_id is None:
        return []
    return log_page(criteria, contract_id)


def all_contract_log_list(criteria: LogCriteria) -> list[dict]:
    """A page of the logs of every contract, or of the transaction `transaction_hash` names
    (none when it names none)."""
    if criteria.transaction_hash is not None:
        timestamp = transaction_timestamp_by_hash(
            transaction_hash=criteria.transaction_hash, timestamps=criteria.timestamp
        )
        if timestamp is None:
            return []
        criteria = criteria.replaced(timestamp=KeyBound("timestamp", equal=Comparison("eq", timestamp)))
    return log_page(criteria)


def log_page(criteria: LogCriteria, contract_id: int | None = None) -> list[dict]:
    """A page of logs, of one contract (or account) or, with `contract_id` None, of all."""
    return sql.rows(*log_page_statement(criteria, contract_id))


def log_page_statement(criteria: LogCriteria, contract_id: int | None = None) -> tuple[str, list]:
    """The statement of `log_page` and its parameters."""
    return sql.log_page(
        _keyset_parts(criteria.timestamp, criteria.index),
        criteria.topics,
        contract_id=contract_id,
        order=criteria.order,
        limit=criteria.limit,
    )


def _keyset_parts(timestamp: KeyBound, index: KeyBound) -> list[list[tuple[str, str, int]]]:
    """The (column, operator, value) conditions of each non-empty part."""

    def condition(column: str, comparison: Comparison | None, operator: str | None = None):
        return [] if comparison is None else [(column, operator or comparison.operator, comparison.value)]

    ts, idx = "consensus_timestamp", "index"
    if not index.has_range:
        lower = [
            *condition(ts, timestamp.equal),
            *condition(ts, timestamp.lower),
            *condition(ts, timestamp.upper),
            *condition(idx, index.equal),
        ]
    elif timestamp.lower and index.lower:
        lower = [*condition(ts, timestamp.lower, "eq"), *condition(idx, index.lower)]
    elif timestamp.equal:
        lower = [*condition(ts, timestamp.equal), *condition(idx, index.lower), *condition(idx, index.upper)]
    else:
        lower = []
    inner = []
    if timestamp.has_range and index.has_range:
        inner = [
            *condition(ts, timestamp.lower, "gt" if index.lower else None),
            *condition(ts, timestamp.upper, "lt" if index.upper else None),
        ]
    upper = []
    if timestamp.upper and index.upper:
        upper = [*condition(ts, timestamp.upper, "eq"), *condition(idx, index.upper)]
    return [part for part in (lower, inner, upper) if part]


def transaction_timestamp_by_hash(*, transaction_hash: bytes, timestamps: KeyBound) -> int | None:
    """The consensus timestamp of the transaction with this 48-byte hash or 32-byte
    hash prefix, within the timestamp bounds; None when there is none."""
    found = sql.rows(*sql.transaction_timestamp(transaction_hash, timestamps.comparisons))
    return found[0]["consensus_timestamp"] if found else None
