"""Contracts: a page of `/contracts` and one contract, now or at a past time.

A page is one ordered, limited read of the `entity (type, id)` index, compiled per shape;
one contract at a past time is the newest `entity` / `entity_history` version overlapping
every requested range.
"""

from collections.abc import Sequence

from django.db.models import OuterRef, QuerySet, Subquery

from apps.accounts.models import Entity
from apps.common.database.connections import statement_cursor
from apps.common.ledger.codecs import EntityId, decode_entity_id
from apps.common.query.comparisons import Comparison
from apps.common.query.pages import CompiledPages, PageCriteria, narrow
from apps.contracts import sql
from apps.contracts.models import Contract

# Files up to 0.0.1000 are system files: a contract naming one keeps its bytecode in `initcode`.
LAST_SYSTEM_FILE_NUM = 1000


def contract_list(criteria: PageCriteria) -> list[dict]:
    """A page of `/contracts` ordered by id: `CONTRACT_COLUMNS` plus `file_id`. The
    `contract.id` values are encoded ids; an `eq` value may be None (an EVM address no live
    entity holds), which matches nothing."""
    return _CONTRACT_PAGES.rows(criteria)


def _contracts() -> QuerySet:
    return (
        Entity.objects.filter(type="CONTRACT")
        .annotate(file_id=Subquery(Contract.objects.filter(id=OuterRef("id")).values("file_id")[:1]))
        .values(*sql.CONTRACT_COLUMNS, "file_id")
    )


_CONTRACT_PAGES = CompiledPages(lambda criteria: narrow(_contracts(), criteria))


def contract_get(*, contract: EntityId, timestamps: Sequence[Comparison] = ()) -> dict | None:
    """The contract an id or EVM address names, as it was within every `timestamps`
    range (its newest such version) or now: `CONTRACT_COLUMNS` plus `file_id`,
    `runtime_bytecode` and `bytecode` (see `contract_bytecode`); None if it is
    no contract (then)."""
    versions = sql.rows(*sql.contract_version(contract, timestamps))
    if not versions:
        return None
    found = versions[0]
    found["bytecode"] = contract_bytecode(found)
    return found


def contract_bytecode(contract: dict) -> str:
    """The init code of a contract as hex text: the content of its file as it was
    when the contract was created (a file holds the code as hex text), else its
    `initcode`; empty when there is none."""
    file_id = contract["file_id"]
    if file_id is None or decode_entity_id(file_id).num <= LAST_SYSTEM_FILE_NUM:
        return bytes(contract["initcode"] or b"").hex()
    with statement_cursor() as cursor:
        cursor.execute(sql.FILE_CONTENT_AT, {"file": file_id, "at": contract["created_timestamp"]})
        content = cursor.fetchone()[0]
    return bytes(content or b"").decode("utf-8", errors="replace")
