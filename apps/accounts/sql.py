"""The accounts app's own SQL: statements and statement builders the selectors run.

Every value is a bound parameter; the text holds only names and constants of the code.
"""

from collections.abc import Sequence

from django.db.models import BooleanField
from django.db.models.expressions import RawSQL

from apps.accounts.models import EntityType
from apps.common.query.comparisons import Where

# The live entity with an alias or EVM address; two rows tell a unique one from an ambiguous one.
ENTITY_BY_ALIAS = "select id from entity where alias = %s and deleted is not true limit 2"
# `deleted = false`: unlike the alias lookup, an entity whose `deleted` is null does not match.
ENTITY_BY_EVM_ADDRESS = "select id from entity where evm_address = %s and deleted = false limit 2"


def current_account(columns: Sequence[str]) -> str:
    """An account now, its stake and its first token balances in one statement.

    Parameters: the token balance limit, the id, the two balance entity types, the
    synthetic treasury's num and memo. As `Entity.objects.exclude` would, the synthetic
    treasury test lets a null `num` or `memo` through."""
    return (
        f"select {', '.join(f'e.{column}' for column in columns)},"
        " s.id, s.end_stake_period, s.pending_reward, tokens.token_ids, tokens.balances"
        " from entity e left join entity_stake s on s.id = e.id"
        " left join lateral (select array_agg(t.token_id) as token_ids, array_agg(t.balance) as balances"
        "  from (select token_id, balance from token_account where account_id = e.id and associated is true"
        "   order by token_id limit %s) t) tokens on true"
        " where e.id = %s and e.type in (%s, %s) and not coalesce(e.num = %s and e.memo = %s, false)"
    )


def newest_version(
    table: str,
    columns: Sequence[str],
    entity_id: int,
    *,
    lower: int | None,
    upper: int | None,
    excluded: Sequence[int],
    not_synthetic_treasury: tuple[int, str] | None = None,
) -> tuple[str, list]:
    """The newest row of `table` or `<table>_history` for `entity_id` whose timestamp range
    overlaps `[lower, upper]` (None: open) and holds none of the `excluded` instants; with
    `not_synthetic_treasury` (num, memo), only an account or contract other than that one."""
    where = Where()
    where.add("id = %s", entity_id)
    where.add("timestamp_range && int8range(%s, %s, '[]')", lower, upper)
    for instant in excluded:
        where.add("not timestamp_range @> %s::bigint", instant)
    if not_synthetic_treasury is not None:
        where.add("type in ('ACCOUNT', 'CONTRACT') and not (num = %s and memo = %s)", *not_synthetic_treasury)
    selected = ", ".join(columns)
    statement = (
        f"(select {selected}, timestamp_range from {table} where {where.sql})"
        f" union all (select {selected}, timestamp_range from {table}_history where {where.sql})"
        " order by timestamp_range desc limit 1"
    )
    return statement, [*where.params, *where.params]


def entity_type_is(entity_type: EntityType) -> RawSQL:
    """`entity.type` is `entity_type`, a constant of the code written into the SQL.

    As a parameter, PostgreSQL's generic plan cannot tell which `(type, id)` range a branch
    reads (many accounts, few contracts), so with an id or balance range as well it planned
    every page anew. A range of one value, not `=`: an equality makes `type` a constant,
    which PostgreSQL then drops from the branch's order, and ordered by id alone the primary
    key serves it too (see `selectors.balances`)."""
    value = EntityType(entity_type).value
    return RawSQL(f"\"entity\".\"type\" BETWEEN '{value}' AND '{value}'", (), output_field=BooleanField())
