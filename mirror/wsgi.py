import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mirror.settings")
# The server reads the embedded database as the role `migrate` creates for it, which cannot
# write a mirror table (apps/common/roles.py); ignored with DATABASE_URL.
os.environ.setdefault("MIRROR_DATABASE_ROLE", "mirror_api")

django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (needs the apps loaded)

from apps.common.handlers import MirrorWSGIHandler  # noqa: E402

application = MirrorWSGIHandler()

if settings.STREAM_BIND:
    # Each worker process serves the streams too, from an event loop of its own (apps/streams).
    from apps.streams.server import start_stream_server

    stream_server = start_stream_server(settings.STREAM_BIND)
