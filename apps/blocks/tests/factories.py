import hashlib

from apps.blocks.models import RecordFile


def block_hash(seed: int) -> str:
    return hashlib.sha384(str(seed).encode()).hexdigest()


def record_file(index: int, consensus_end: int, **overrides) -> RecordFile:
    """An unsaved record file: block `index` whose transactions end at `consensus_end`."""
    fields = {
        "name": f"2022-04-27T12_00_{index:02d}.000000000Z.rcd",
        "load_start": 1,
        "load_end": 2,
        "hash": block_hash(index),
        "prev_hash": block_hash(index - 1),
        "consensus_start": consensus_end - 10,
        "consensus_end": consensus_end,
        "count": 3,
        "digest_algorithm": 0,
        "hapi_version_major": 0,
        "hapi_version_minor": 22,
        "hapi_version_patch": 3,
        "version": 6,
        "file_hash": "00" * 48,
        "bytes": None,
        "index": index,
        "gas_used": 0,
        "logs_bloom": b"",
        "size": 1000,
        "sidecar_count": 0,
    }
    return RecordFile(**{**fields, **overrides})


def create_record_files(*files: RecordFile) -> list[RecordFile]:
    return RecordFile.objects.bulk_create(files)
