import pytest

from apps.topics import selectors
from apps.topics.tests.factories import (
    create_message,
    create_submitted_message,
    create_topic,
)
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db


def test_topic_message_get_by_sequence_number_or_timestamp():
    create_message(7, 1, 100)
    create_message(7, 2, 200)
    create_message(8, 1, 300)

    assert selectors.topic_message_get(topic_id=7, sequence_number=2)["consensus_timestamp"] == 200
    assert selectors.topic_message_get(topic_id=7, consensus_timestamp=100)["sequence_number"] == 1
    assert selectors.topic_message_get(topic_id=7, consensus_timestamp=300) is None
    assert selectors.topic_message_get(topic_id=8, sequence_number=2) is None


def test_topic_message_at_follows_the_submit_transaction_to_its_topic():
    create_submitted_message(8, 1, 300)

    assert selectors.topic_message_at(consensus_timestamp=300)["topic_id"] == 8


@pytest.mark.parametrize(("transaction_type", "result"), [(27, 11), (14, 22)])
def test_topic_message_at_ignores_other_transactions(transaction_type, result):
    create_transaction(300, 3, type=transaction_type, result=result, entity_id=8)
    create_message(8, 1, 300)

    assert selectors.topic_message_at(consensus_timestamp=300) is None


def test_topic_message_at_without_message():
    create_transaction(300, 3, type=27, entity_id=8)

    assert selectors.topic_message_at(consensus_timestamp=300) is None


def test_topic_details_reads_each_row_present():
    create_topic(7, entity={"memo": "memo"}, fixed_fees=[{"amount": 1}])
    create_topic(8, with_fees=False)

    complete = selectors.topic_details(topic_id=7)
    assert complete.topic["id"] == 7
    assert complete.entity["memo"] == "memo"
    assert complete.custom_fee["fixed_fees"] == [{"amount": 1}]

    partial = selectors.topic_details(topic_id=8)
    assert (partial.entity, partial.custom_fee) == (None, None)

    assert selectors.topic_details(topic_id=9) == selectors.TopicDetails(None, None, None)


def test_topic_details_are_one_read(django_assert_num_queries):
    create_topic(7, entity={"memo": "memo"}, with_fees=False)
    create_topic(8, fixed_fees=[{"amount": 2}])

    with django_assert_num_queries(1):
        without_fees = selectors.topic_details(topic_id=7)
    without_entity = selectors.topic_details(topic_id=8)

    assert (without_fees.entity["memo"], without_fees.custom_fee) == ("memo", None)
    assert (without_entity.entity, without_entity.custom_fee["fixed_fees"]) == (None, [{"amount": 2}])
