from apps.devtools.differential.compare import (
    Answer,
    canonical_digest,
    differences,
    json_differences,
)

JSON = {"content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=1"}


def answer(status=200, body=b"{}", **headers):
    return Answer(status, body, {**JSON, **{name.replace("_", "-"): value for name, value in headers.items()}})


def test_equal_answers_have_no_difference():
    assert differences(answer(body=b'{"a": 1, "b": [1.0]}'), answer(body=b'{"b": [1], "a": 1}')) == []


def test_a_status_difference_is_its_own_class_and_the_only_one():
    assert differences(answer(400, body=b'{"a": 1}'), answer(404)) == [("status 400 where upstream 404", "")]


def test_an_upstream_server_error_is_its_own_class():
    assert differences(answer(200), answer(503)) == [("upstream 503, ours 200", "")]
    assert differences(answer(503), answer(503)) == []


def test_array_indexes_fold_into_one_class():
    ours = b'{"items": [{"a": 1}, {"a": 2}]}'
    theirs = b'{"items": [{"a": 1}, {"a": 3}]}'

    assert differences(answer(body=ours), answer(body=theirs)) == [("body $.items[*].a value", "$.items[1].a")]


def test_missing_and_extra_keys_and_lengths_are_told_apart():
    assert json_differences({"a": 1}, {"b": 1}) == [("$.a", "extra"), ("$.b", "missing")]
    assert json_differences([1], [1, 2]) == [("$", "length 1 where upstream 2")]
    assert json_differences({"a": None}, {"a": 0}) == [("$.a", "value")]
    assert json_differences({"a": "1"}, {"a": 1}) == [("$.a", "value")]


def test_the_headers_a_client_reads_are_compared():
    (found,) = differences(answer(link="<x>"), answer())
    assert found[0] == "header link"


def test_a_body_that_is_not_json_is_compared_as_bytes():
    assert differences(answer(body=b"<html>"), answer(body=b"<html>")) == []
    assert differences(answer(body=b"<html>"), answer(body=b"<p>")) == [("body not JSON", "")]


def test_the_canonical_digest_ignores_key_order_and_number_spelling():
    assert canonical_digest({"a": 1.0, "b": [2]}) == canonical_digest({"b": [2.0], "a": 1})
    assert canonical_digest({"a": 1}) != canonical_digest({"a": "1"})
