__all__ = [
    "RecordFile",
    "SidecarFile",
]

from django.contrib.postgres.fields import ArrayField
from django.db import models


class RecordFile(models.Model):
    name = models.CharField(max_length=250)
    load_start = models.BigIntegerField()
    load_end = models.BigIntegerField()
    hash = models.CharField(max_length=96)
    prev_hash = models.CharField(max_length=96)
    consensus_start = models.BigIntegerField()
    consensus_end = models.BigIntegerField(primary_key=True)
    count = models.BigIntegerField()
    digest_algorithm = models.IntegerField()
    hapi_version_major = models.IntegerField(null=True)
    hapi_version_minor = models.IntegerField(null=True)
    hapi_version_patch = models.IntegerField(null=True)
    version = models.IntegerField()
    file_hash = models.CharField(max_length=96)
    bytes = models.BinaryField(null=True)
    index = models.BigIntegerField()
    gas_used = models.BigIntegerField(null=True)
    logs_bloom = models.BinaryField(null=True)
    size = models.IntegerField(null=True)
    sidecar_count = models.IntegerField()
    software_version_major = models.IntegerField(null=True)
    software_version_minor = models.IntegerField(null=True)
    software_version_patch = models.IntegerField(null=True)
    round_start = models.BigIntegerField(null=True)
    round_end = models.BigIntegerField(null=True)
    previous_wrapped_record_block_hash = models.BinaryField(null=True)
    wrapped_record_block_hash = models.BinaryField(null=True)
    receipts_root = models.BinaryField(null=True)

    class Meta:
        managed = False
        db_table = "record_file"
        verbose_name = "block"

    def __str__(self):
        return f"Block {self.index}"


class SidecarFile(models.Model):
    pk = models.CompositePrimaryKey("consensus_end", "id")
    bytes = models.BinaryField(null=True)
    count = models.IntegerField(null=True)
    consensus_end = models.BigIntegerField()
    hash_algorithm = models.IntegerField()
    hash = models.BinaryField()
    id = models.IntegerField()
    name = models.CharField(max_length=250)
    size = models.IntegerField(null=True)
    types = ArrayField(models.IntegerField())

    class Meta:
        managed = False
        db_table = "sidecar_file"
