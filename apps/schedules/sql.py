"""The SQL of the schedule reads (`selectors`); every value is a bound parameter."""

__all__ = ("SCHEDULE_COLUMNS", "SCHEDULE_WITH_ENTITY_AND_SIGNATURES", "SIGNATURE_COLUMNS")

# The columns a schedule renders from (its page reads them through the ORM).
SCHEDULE_COLUMNS = (
    "consensus_timestamp",
    "creator_account_id",
    "executed_timestamp",
    "expiration_time",
    "payer_account_id",
    "schedule_id",
    "transaction_body",
    "wait_for_expiry",
)
SIGNATURE_COLUMNS = ("consensus_timestamp", "public_key_prefix", "signature", "type")
# One schedule with its entity's columns and its signatures as parallel arrays (`<column>s`),
# aggregated in the order the page's signature read gives them. Parameter: the schedule id.
SCHEDULE_WITH_ENTITY_AND_SIGNATURES = (
    f"select {', '.join(f's.{column}' for column in SCHEDULE_COLUMNS)}, e.deleted, e.key, e.memo,"
    f" {', '.join(f'signature.{column}s' for column in SIGNATURE_COLUMNS)}"
    " from schedule s left join entity e on e.id = s.schedule_id"
    " left join lateral ("
    f"  select {', '.join(f'array_agg(t.{column}) as {column}s' for column in SIGNATURE_COLUMNS)}"
    f"  from (select {', '.join(SIGNATURE_COLUMNS)} from transaction_signature"
    "   where entity_id = s.schedule_id order by entity_id, consensus_timestamp) t"
    " ) signature on true"
    " where s.schedule_id = %s"
)
