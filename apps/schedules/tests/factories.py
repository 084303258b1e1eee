from apps.accounts.tests.factories import create_entity
from apps.schedules.models import Schedule
from apps.transactions.models import TransactionSignature

SECOND = 1_000_000_000
CREATOR = 1024
ADMIN_KEY = bytes.fromhex("1220" + "ab" * 32)


def create_schedule(schedule_id: int, consensus_timestamp: int, *, entity: dict | None = None, **overrides):
    """A schedule created by `CREATOR`, with its entity row unless `entity` is None."""
    fields = {
        "consensus_timestamp": consensus_timestamp,
        "creator_account_id": CREATOR,
        "executed_timestamp": None,
        "payer_account_id": CREATOR,
        "schedule_id": schedule_id,
        "transaction_body": b"\x01\x02\x03",
        "expiration_time": None,
        "wait_for_expiry": False,
    }
    schedule = Schedule.objects.create(**{**fields, **overrides})
    if entity is not None:
        create_entity(schedule_id, type="SCHEDULE", **{"key": ADMIN_KEY, "memo": "scheduled", **entity})
    return schedule


def create_signature(schedule_id: int, consensus_timestamp: int, prefix: bytes, *, type: int | None = 3):
    TransactionSignature.objects.create(
        consensus_timestamp=consensus_timestamp,
        public_key_prefix=prefix,
        entity_id=schedule_id,
        signature=prefix * 2,
        type=type,
    )
