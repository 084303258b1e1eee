import pytest

from apps.topics.protobuf import key_list_keys, read_fields, transaction_id_fields


def test_transaction_id_with_every_field():
    # validStart {seconds: 1234567890}, accountID {accountNum: 3}, scheduled: true, nonce: 1
    data = bytes.fromhex("0a0608d285d8cc041202180318012001")

    assert transaction_id_fields(data) == {
        "valid_start_seconds": 1234567890,
        "valid_start_nanos": 0,
        "shard": 0,
        "realm": 0,
        "num": 3,
        "scheduled": True,
        "nonce": 1,
    }


def test_transaction_id_fields_absent_are_proto3_defaults():
    # validStart {seconds: 5, nanos: 7}, accountID {shardNum: 1, realmNum: 2, accountNum: 9}
    data = bytes.fromhex("0a04080510071206080110021809")

    fields = transaction_id_fields(data)

    assert (fields["valid_start_seconds"], fields["valid_start_nanos"]) == (5, 7)
    assert (fields["shard"], fields["realm"], fields["num"]) == (1, 2, 9)
    assert (fields["scheduled"], fields["nonce"]) == (False, 0)


def test_negative_nonce_is_read_as_signed():
    data = bytes.fromhex("20" + "ff" * 9 + "01")

    assert transaction_id_fields(data)["nonce"] == -1


def test_key_list_keys_are_the_repeated_field():
    first, second = bytes.fromhex("1220" + "11" * 32), bytes.fromhex("3a21" + "22" * 33)
    data = b"\x0a\x22" + first + b"\x0a\x23" + second

    assert key_list_keys(data) == [first, second]


def test_empty_key_list():
    assert key_list_keys(b"") == []


def test_fixed_width_fields_are_skipped():
    data = bytes.fromhex("0d01020304" + "1101020304050607081803")

    assert list(read_fields(data)) == [(1, 0x04030201), (2, 0x0807060504030201), (3, 3)]


@pytest.mark.parametrize("data", ["0a05aa", "08ff", "0b"])
def test_malformed_data_is_rejected(data):
    with pytest.raises(ValueError):
        list(read_fields(bytes.fromhex(data)))
