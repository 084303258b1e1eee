import pytest

from apps.blocks.tests.factories import create_record_files, record_file
from apps.common.tests.admin_pages import detail_page, log_in
from apps.transactions.tests.factories import create_transaction

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/blocks/recordfile/"
HASHES = {10: "a" * 96, 11: "b" * 96, 12: "c" * 96}


@pytest.fixture
def blocks():
    create_record_files(*(record_file(number, number * 100, hash=HASHES[number]) for number in (10, 11, 12)))


def listed_numbers(response) -> list[int]:
    assert response.status_code == 200
    return [block.index for block in response.context["cl"].result_list]


def test_anonymous_user_is_redirected_to_login(client, blocks):
    response = client.get(CHANGELIST)

    assert response.status_code == 302
    assert response["Location"] == f"/admin/login/?next={CHANGELIST}"


def test_staff_user_without_permission_is_refused(client, django_user_model, blocks):
    user = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(user)

    assert client.get(CHANGELIST).status_code == 403


def test_superuser_sees_newest_blocks_first(admin_client, blocks):
    response = admin_client.get(CHANGELIST)

    assert listed_numbers(response) == [12, 11, 10]
    assert HASHES[11].encode() in response.content


def test_search_by_number(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "11"})) == [11]


def test_search_by_hash(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": HASHES[12]})) == [12]


def test_search_by_hash_prefix(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": HASHES[10][:20]})) == [10]


def test_search_without_match(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "zzz"})) == []


def test_detail_page_is_read_only(admin_client, blocks):
    response = admin_client.get(f"{CHANGELIST}1100/change/")

    assert response.status_code == 200
    assert HASHES[11].encode() in response.content
    assert b'name="_save"' not in response.content


def test_detail_page_refuses_changes(admin_client, blocks):
    response = admin_client.post(f"{CHANGELIST}1100/change/", {"name": "renamed.rcd"})

    assert response.status_code == 403


def test_add_is_forbidden(admin_client):
    assert admin_client.get(f"{CHANGELIST}add/").status_code == 403


def test_delete_is_forbidden(admin_client, blocks):
    assert admin_client.get(f"{CHANGELIST}1100/delete/").status_code == 403
    assert admin_client.post(f"{CHANGELIST}1100/delete/", {"post": "yes"}).status_code == 403


def test_bulk_delete_action_is_not_offered(admin_client, blocks):
    response = admin_client.get(CHANGELIST)

    assert b"delete_selected" not in response.content


def test_list_shows_hashes_and_timestamps_as_the_api_prints_them(admin_client, blocks):
    content = admin_client.get(CHANGELIST).content.decode()

    assert f"0x{HASHES[11]}" in content
    assert "0.000001100 (1970-01-01 00:00:00 UTC)" in content


def test_search_by_hash_as_the_api_prints_it(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": f"0x{HASHES[11]}"})) == [11]


def test_search_by_uppercase_hash_prefix(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "0x" + "C" * 12})) == [12]


def test_search_by_short_hash_prefix_finds_nothing(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "0xccc"})) == []


@pytest.mark.parametrize(
    ("term", "expected"),
    [("0.000001095", [11]), ("0.0000011", [11]), ("0.000001090", [11]), ("0.000001200", [12]), ("0.000001085", [])],
)
def test_search_by_timestamp_finds_the_block_containing_it(admin_client, blocks, term, expected):
    # Block N spans (N * 100 - 10) to N * 100 ns; 1085 falls between blocks 10 and 11.
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": term})) == expected


def test_search_by_too_large_number_finds_nothing(admin_client, blocks):
    assert listed_numbers(admin_client.get(CHANGELIST, {"q": "9" * 25})) == []


def test_detail_page_shows_values_as_the_api_prints_them(client, django_user_model):
    reader = log_in(client, django_user_model)
    block = record_file(7, 1_700_000_000_000_000_007, logs_bloom=b"\x01\xff", load_start=1_700_000_001)
    create_record_files(block)

    page = detail_page(reader, f"{CHANGELIST}1700000000000000007/change/")

    assert page.title == "Block 7"
    shown = {label: field.text for label, field in page.fields.items()}
    assert shown["Consensus end"] == "1700000000.000000007 (2023-11-14 22:13:20 UTC)"
    assert shown["Consensus start"] == "1699999999.999999997 (2023-11-14 22:13:19 UTC)"
    assert shown["Hash"] == f"0x{block.hash}"
    assert shown["Prev hash"] == f"0x{block.prev_hash}"
    assert shown["File hash"] == "0x" + "00" * 48
    assert shown["Logs bloom"] == "0x01ff"
    assert shown["Load start"] == "1700000001 (2023-11-14 22:13:21 UTC)"
    assert shown["Digest algorithm"] == "SHA_384"
    assert shown["Index"] == "7"
    assert shown["Transactions (at most 100)"] == "-"


def test_detail_page_lists_the_blocks_transactions_linked(client, django_user_model, blocks):
    reader = log_in(client, django_user_model)
    for timestamp in (1091, 1095, 1100, 1101):
        create_transaction(timestamp, 8, type=27 if timestamp == 1095 else 14)

    page = detail_page(reader, f"{CHANGELIST}1100/change/")

    transactions = page.fields["Transactions (at most 100)"]
    assert transactions.rows == [
        ["consensus timestamp", "transaction id", "nonce", "type", "result"],
        ["0.000001091 (1970-01-01 00:00:00 UTC)", "0.0.8-0-000001090", "0", "CRYPTOTRANSFER", "SUCCESS"],
        ["0.000001095 (1970-01-01 00:00:00 UTC)", "0.0.8-0-000001094", "0", "CONSENSUSSUBMITMESSAGE", "SUCCESS"],
        ["0.000001100 (1970-01-01 00:00:00 UTC)", "0.0.8-0-000001099", "0", "CRYPTOTRANSFER", "SUCCESS"],
    ]
    assert transactions.links == [f"/admin/transactions/transaction/{timestamp}/change/" for timestamp in (1091, 1095, 1100)]
