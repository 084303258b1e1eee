import pytest
from django.db.backends.postgresql.psycopg_any import NumericRange as Range

from apps.accounts.tests.factories import create_entity
from apps.common.admin.displays import (
    admin_url,
    display_boolean,
    display_bytes,
    display_each,
    display_entity_id,
    display_epoch_seconds,
    display_hbar,
    display_hex,
    display_json,
    display_key,
    display_result,
    display_seconds,
    display_table,
    display_timestamp,
    display_timestamp_range,
    display_transaction_type,
    entity_link,
    enum_names,
    timestamp_link,
)

T = 1_700_000_000_000_000_001
ED25519 = "ab" * 32
ECDSA = "02" + "cd" * 32


@pytest.mark.parametrize(
    ("display", "value", "shown"),
    [
        (display_timestamp, T, "1700000000.000000001 (2023-11-14 22:13:20 UTC)"),
        (display_timestamp, 0, "0.000000000 (1970-01-01 00:00:00 UTC)"),
        (display_timestamp_range, Range(T, None), "from 1700000000.000000001 (2023-11-14 22:13:20 UTC)"),
        (
            display_timestamp_range,
            Range(0, T),
            "from 0.000000000 (1970-01-01 00:00:00 UTC) to 1700000000.000000001 (2023-11-14 22:13:20 UTC)",
        ),
        (display_epoch_seconds, 1_700_000_000, "1700000000 (2023-11-14 22:13:20 UTC)"),
        (display_seconds, 7_776_000, "7776000 seconds (90 days, 0:00:00)"),
        (display_hbar, 1_250_000_000, "12.50000000 ℏ (1250000000 tinybars)"),
        (display_hbar, -3, "-0.00000003 ℏ (-3 tinybars)"),
        (display_hbar, 0, "0.00000000 ℏ (0 tinybars)"),
        (display_key, bytes.fromhex("1220" + ED25519), f"ED25519 {ED25519}"),
        (display_key, bytes.fromhex("3a21" + ECDSA), f"ECDSA_SECP256K1 {ECDSA}"),
        (display_key, bytes.fromhex("2a0408011200"), "ProtobufEncoded 2a0408011200"),
        (display_hex, b"\x01\xff", "0x01ff"),
        (display_hex, b"", "0x"),
        (display_hex, "abcd", "0xabcd"),
        (display_bytes, "paid in ✓\nthanks".encode(), "paid in ✓\nthanks"),
        (display_bytes, b"\xff\xfe", "0xfffe"),
        (display_bytes, b"a\x00b", "0x610062"),
        (display_bytes, b"", ""),
        (display_entity_id, (1 << 38) + 5, "0.1.5"),
        (display_transaction_type, 14, "CRYPTOTRANSFER"),
        (display_result, 22, "SUCCESS"),
        (enum_names(("NOT_APPLICABLE", "FROZEN", "UNFROZEN")), 1, "FROZEN"),
        (enum_names({3: "MIRROR_NODE"}), 3, "MIRROR_NODE"),
        (enum_names({3: "MIRROR_NODE"}), 9, "9"),
        (display_each(display_hex), [b"\x01", b"\x02"], "0x01, 0x02"),
    ],
)
def test_a_stored_value_shows_as_the_api_prints_it(display, value, shown):
    assert display(value) == shown


@pytest.mark.parametrize(
    "display",
    [
        display_timestamp,
        display_timestamp_range,
        display_epoch_seconds,
        display_seconds,
        display_hbar,
        display_key,
        display_hex,
        display_bytes,
        display_json,
        display_boolean,
        enum_names(("A",)),
        display_each(display_hex),
    ],
)
def test_null_shows_as_none(display):
    assert display(None) is None


def test_an_immutable_key_shows_as_none_as_in_the_api():
    assert display_key(bytes.fromhex("3200")) is None


def test_json_keeps_within_the_page():
    assert display_json({"b": [1], "a": "<x>"}) == (
        '<pre class="mirror-json">{\n &quot;a&quot;: &quot;&lt;x&gt;&quot;,\n &quot;b&quot;: [\n  1\n ]\n}</pre>'
    )


def test_booleans_show_as_the_admins_icons():
    assert 'alt="True"' in display_boolean(True)
    assert 'alt="False"' in display_boolean(False)


def test_a_table_shows_its_rows_and_dashes_for_null():
    table = display_table(("a", "b"), [("<1>", None)])

    assert table == (
        '<table class="mirror-rows"><thead><tr><th>a</th><th>b</th></tr></thead>'
        "<tbody><tr><td>&lt;1&gt;</td><td>-</td></tr></tbody></table>"
    )
    assert display_table(("a",), []) is None


def test_a_table_marks_the_cells_of_a_hash_to_break_anywhere():
    table = display_table(("hash", "name"), [("0x" + "ab" * 32, "CONSENSUSSUBMITMESSAGE")])

    assert f'<td class="mirror-long">0x{"ab" * 32}</td><td>CONSENSUSSUBMITMESSAGE</td>' in table


def test_pages_are_found_by_the_kind_their_admin_declares():
    assert admin_url("TOKEN", 1001) == "/admin/tokens/token/1001/change/"
    assert admin_url("TRANSACTION", T) == f"/admin/transactions/transaction/{T}/change/"
    assert admin_url("FILE", 101) is None
    assert admin_url(None, 101) is None


def test_links_of_a_known_kind():
    assert entity_link("ACCOUNT")(1001) == '<a href="/admin/accounts/entity/1001/change/">0.0.1001</a>'
    assert timestamp_link("TRANSACTION")(T) == (
        f'<a href="/admin/transactions/transaction/{T}/change/">1700000000.000000001 (2023-11-14 22:13:20 UTC)</a>'
    )
    assert entity_link("ACCOUNT")(None) is None


@pytest.mark.django_db
def test_an_id_of_any_kind_links_by_its_entitys_type():
    create_entity(1009, type="TOPIC")
    create_entity(101, type="FILE")
    display = entity_link()

    assert display(1009) == '<a href="/admin/topics/topic/1009/change/">0.0.1009</a>'
    assert display(101) == "0.0.101"
    assert display(4242) == "0.0.4242"
