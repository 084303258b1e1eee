__all__ = [
    "Schedule",
]

from django.db import models

from apps.common.ledger.codecs import format_entity_id


class Schedule(models.Model):
    consensus_timestamp = models.BigIntegerField()
    creator_account_id = models.BigIntegerField()
    executed_timestamp = models.BigIntegerField(null=True)
    payer_account_id = models.BigIntegerField()
    schedule_id = models.BigIntegerField(primary_key=True)
    transaction_body = models.BinaryField()
    expiration_time = models.BigIntegerField(null=True)
    wait_for_expiry = models.BooleanField()

    class Meta:
        managed = False
        db_table = "schedule"

    def __str__(self):
        return f"Schedule {format_entity_id(self.schedule_id)}"
