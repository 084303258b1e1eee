from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.tests.factories import create_entity
from apps.tokens.models import CustomFee
from apps.topics.models import Topic, TopicMessage
from apps.transactions.tests.factories import create_transaction

SECOND = 1_000_000_000
PAYER = 3
CONSENSUS_SUBMIT_MESSAGE = 27
ED25519_KEY = bytes.fromhex("1220" + "ab" * 32)
ECDSA_KEY = bytes.fromhex("3a21" + "02" + "cd" * 32)


def key_list(*keys: bytes) -> bytes:
    """A serialized protobuf `KeyList` of serialized `Key`s."""
    return b"".join(b"\x0a" + bytes([len(key)]) + key for key in keys)


def create_message(topic_id: int, sequence_number: int, consensus_timestamp: int, **overrides) -> TopicMessage:
    fields = {
        "consensus_timestamp": consensus_timestamp,
        "message": f"message {sequence_number}".encode(),
        "running_hash": b"running hash",
        "sequence_number": sequence_number,
        "running_hash_version": 3,
        "payer_account_id": PAYER,
        "valid_start_timestamp": consensus_timestamp - 1,
        "topic_id": topic_id,
    }
    message = TopicMessage(**{**fields, **overrides})
    message.save(force_insert=True)
    return message


def create_submitted_message(topic_id: int, sequence_number: int, consensus_timestamp: int, **overrides):
    """A message with the successful ConsensusSubmitMessage transaction that submitted it."""
    create_transaction(consensus_timestamp, PAYER, type=CONSENSUS_SUBMIT_MESSAGE, entity_id=topic_id)
    return create_message(topic_id, sequence_number, consensus_timestamp, **overrides)


def create_topic(
    topic_id: int,
    *,
    entity: dict | None = None,
    fixed_fees: list | None = None,
    with_fees: bool = True,
    **overrides,
) -> Topic:
    """A topic with its entity row and (unless `with_fees` is false) its custom fee row."""
    fields = {
        "id": topic_id,
        "admin_key": ED25519_KEY,
        "created_timestamp": 100 * SECOND,
        "fee_exempt_key_list": None,
        "fee_schedule_key": None,
        "submit_key": None,
        "timestamp_range": Range(100 * SECOND, None),
    }
    topic = Topic(**{**fields, **overrides})
    topic.save(force_insert=True)
    if entity is not None:
        create_entity(topic_id, type="TOPIC", **entity)
    if with_fees:
        CustomFee.objects.create(
            entity_id=topic_id, fixed_fees=fixed_fees or [], timestamp_range=Range(100 * SECOND, None)
        )
    return topic
