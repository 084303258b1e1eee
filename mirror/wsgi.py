import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mirror.settings")
# The server reads the embedded database as the role `migrate` creates for it, which cannot
# write a mirror table (apps/common/roles.py); ignored with DATABASE_URL.
os.environ.setdefault("MIRROR_DATABASE_ROLE", "mirror_api")

django.setup(set_prefix=False)

from apps.common.handlers import MirrorWSGIHandler  # noqa: E402  (needs the apps loaded)

application = MirrorWSGIHandler()
