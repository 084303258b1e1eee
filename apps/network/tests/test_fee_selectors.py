"""The reads of fee estimation, without HTTP."""

import pytest
from django.db import connection
from hiero_sdk_python.hapi.services import basic_types_pb2

from apps.network import selectors
from apps.network.models import FileData
from apps.tokens.models import CustomFee
from apps.tokens.tests.factories import create_token
from apps.topics.tests.factories import create_topic

pytestmark = pytest.mark.django_db

T = 1_700_000_000_000_000_000
FILE_APPEND, FILE_CREATE, FILE_UPDATE = 16, 17, 19


def store(timestamp: int, transaction_type: int, data: bytes | None, entity_id: int = 113) -> None:
    FileData.objects.create(
        entity_id=entity_id, consensus_timestamp=timestamp, transaction_type=transaction_type, file_data=data
    )


def test_versions_read_by_index():
    with connection.cursor() as cursor:
        cursor.execute(
            "insert into file_data (entity_id, consensus_timestamp, transaction_type, file_data)"
            " select 112 + n % 3, n, 19, 'x' from generate_series(1, 30000) n"
        )
        cursor.execute("analyze file_data")
        cursor.execute(
            "explain select consensus_timestamp from file_data where entity_id = 113"
            " and (transaction_type = 17 or (transaction_type = 19 and octet_length(file_data) > 0))"
            " order by consensus_timestamp desc limit 10"
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "file_data__id_timestamp" in plan
    assert "Seq Scan" not in plan


def test_topic_custom_fees():
    create_topic(7001, fixed_fees=[{"amount": 1, "collector_account_id": 1001}])
    create_topic(7002, fixed_fees=[])
    create_topic(7003, with_fees=False)
    CustomFee.objects.create(entity_id=7004, fixed_fees=[{"amount": 1}], timestamp_range="[1,)")
    assert [selectors.topic_has_custom_fees(topic_id=topic) for topic in (7001, 7002, 7003, 7004)] == [
        True, False, False, False
    ]


def test_token_fee_state():
    create_token(5001, type="FUNGIBLE_COMMON", fees={"fractional_fees": [{"numerator": 1}]})
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    assert selectors.token_fee_state(token_id=5001) == selectors.TokenFeeState(is_nft=False, has_custom_fees=True)
    assert selectors.token_fee_state(token_id=5002) == selectors.TokenFeeState(is_nft=True, has_custom_fees=False)
    assert selectors.token_fee_state(token_id=5003) is None


def test_ledger_of_protobuf_ids():
    create_token(5002, type="NON_FUNGIBLE_UNIQUE")
    create_topic(7001, fixed_fees=[{"amount": 1}])
    ledger = selectors.MirrorFeeState()
    assert ledger.token(basic_types_pb2.TokenID(tokenNum=5002)) == (True, False)
    assert ledger.token(basic_types_pb2.TokenID(shardNum=-1, tokenNum=5002)) is None
    assert ledger.topic_has_custom_fees(basic_types_pb2.TopicID(topicNum=7001))
    assert not ledger.topic_has_custom_fees(basic_types_pb2.TopicID(realmNum=1 << 40, topicNum=7001))
