"""`manage.py demo_tick [--every SECONDS]`: the demo mirror's newest block follows the clock.

Each tick closes an empty block ending now after the newest one (`services.append_block`).
With `--every` it keeps ticking until stopped; a database failure is reported and retried on
the next tick. Never run it against a mirror the importer writes.
"""

import time

from django.core.management.base import BaseCommand
from django.db import DatabaseError, connection

from apps.blocks.services import append_block
from apps.common.clock import now_ns

__all__ = ("Command",)


class Command(BaseCommand):
    help = "Append an empty block ending now to the demo mirror; with --every, keep doing so."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, help="seconds between blocks; without it, one block")

    def handle(self, *args, every, verbosity, **options):
        if every is None:
            self.tick(verbosity)
            return
        try:
            while True:
                try:
                    self.tick(verbosity)
                except DatabaseError as error:
                    connection.close()
                    self.stderr.write(f"demo_tick: no block this time: {error}")
                time.sleep(every)
        except KeyboardInterrupt:
            pass

    def tick(self, verbosity: int) -> None:
        block = append_block(consensus_end=now_ns())
        if block is None:
            self.stderr.write("demo_tick: no block to follow (the mirror has none, or a newer one)")
        elif verbosity > 1:
            self.stdout.write(f"block {block.index} ends at {block.consensus_end}")
