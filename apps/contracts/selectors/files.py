"""The contents of a file through its history (a fee schedule, an exchange rate set, the call
data of a large Ethereum transaction)."""

from apps.contracts import sql


def file_versions(*, file_id: int, at: int | None = None, count: int | None = None) -> list[bytes]:
    """The latest `count` contents (every one when None) a file had up to `at` (the end of
    time when None), newest first: each create or non-empty update starts a version, the
    appends after it complete it.

    Only the rows of those versions are read: from the `count`-th latest start on, found
    backwards along `file_data__id_timestamp`. A system file changes for the life of the
    network (the exchange rates every hour), so reading its whole history would cost more
    with every version."""
    versions: list[bytes] = []
    for row in sql.rows(*sql.file_versions(file_id, at, count)):
        data = bytes(row["file_data"] or b"")
        if row["transaction_type"] == sql.FILE_CREATE or (row["transaction_type"] == sql.FILE_UPDATE and data):
            versions.append(data)
        elif versions and row["transaction_type"] in (sql.FILE_APPEND, sql.FILE_UPDATE):
            versions[-1] += data
    return versions[::-1][:count]
