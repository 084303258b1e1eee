__all__ = [
    "Schedule",
]

from django.db import models


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
