"""The SQL of the topic reads (`selectors`); every value is a bound parameter."""

__all__ = ("TOPIC_COLUMNS", "TOPIC_DETAILS", "TOPIC_ENTITY_COLUMNS", "TOPIC_FEE_COLUMNS")

TOPIC_COLUMNS = ("id", "admin_key", "fee_exempt_key_list", "fee_schedule_key", "submit_key")
TOPIC_ENTITY_COLUMNS = (
    "id",
    "auto_renew_account_id",
    "auto_renew_period",
    "created_timestamp",
    "deleted",
    "memo",
    "timestamp_range",
)
TOPIC_FEE_COLUMNS = ("entity_id", "fixed_fees", "timestamp_range")
# A topic's three rows in one: its topic row, then its entity's and its custom fee's
# (left joins: nulls where a row is missing). Parameter: the topic id.
TOPIC_DETAILS = (
    f"select {', '.join(f't.{column}' for column in TOPIC_COLUMNS)},"
    f" {', '.join(f'e.{column}' for column in TOPIC_ENTITY_COLUMNS)},"
    f" {', '.join(f'f.{column}' for column in TOPIC_FEE_COLUMNS)}"
    " from topic t left join entity e on e.id = t.id left join custom_fee f on f.entity_id = t.id"
    " where t.id = %s"
)
