import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mirror.settings")
# The server connects to the embedded database as the roles `migrate` creates for it: the
# API's reads and writes nothing, the admin's writes only Django's own tables
# (apps/common/database/roles.py); ignored with DATABASE_URL.
os.environ.setdefault("MIRROR_DATABASE_ROLE", "mirror_api")
os.environ.setdefault("MIRROR_ADMIN_DATABASE_ROLE", "mirror_admin")

django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (needs the apps loaded)

from apps.common.database import watch as database_watch  # noqa: E402
from apps.common.database.connections import check_held_connections_after_requests  # noqa: E402
from apps.common.server import list_cache  # noqa: E402
from apps.common.server.granian_protocol import expose_granian_protocol  # noqa: E402
from apps.common.server.handlers import MirrorWSGIHandler  # noqa: E402
from apps.common.server.lanes import ThreadLanes  # noqa: E402
from apps.common.server.request_body import bodies_read_in_time  # noqa: E402

handler = application = MirrorWSGIHandler()

# A database that stops answering is noticed within a fraction of a second, and requests
# answer 503 rather than wait on it (apps/common/database/watch.py).
database_watch.start()
check_held_connections_after_requests()

if settings.WORKER_BOARD:
    # Only under scripts/run-server with several workers (apps/common/server/balancing.py).
    from apps.common.server.balancing import balanced

    application = balanced(application, settings.WORKER_BOARD)

# Reads take turns at their threads; calls and bodies wait on side lanes (apps/common/server/lanes.py).
application = ThreadLanes(handler, application, reads=settings.READ_THREADS, answer_at_once=list_cache.cached_answer)

# A request's body is read whole, or answered 408 past MIRROR_REQUEST_BODY_TIMEOUT, before it
# takes a thread's turn at anything else (apps/common/server/request_body.py).
expose_granian_protocol()
application = bodies_read_in_time(application)

# What is loaded by now lives as long as the process: out of the collector's sight, a full
# collection no longer walks it (a full pass over Django, DRF and the EVM's objects took tens
# of milliseconds). Requests leave no reference cycles (apps/common/api/views.py), so the
# collector seldom runs at all.
gc.freeze()

if settings.STREAM_BIND:
    # Each worker process serves the streams too, from an event loop of its own (apps/streams).
    from apps.streams.server import start_stream_server

    stream_server = start_stream_server(settings.STREAM_BIND)
