"""`python -m apps.contracts.evm`: the execution pool of the server (apps/contracts/evm/pool.py),
started by `scripts/run-server`, serving from `MIRROR_WEB3_EXECUTOR_DIR`."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mirror.settings")
# As the server's workers (mirror/wsgi.py): the role that cannot write a mirror table.
os.environ.setdefault("MIRROR_DATABASE_ROLE", "mirror_api")
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402  (needs the apps loaded)

from apps.contracts.evm.pool import serve  # noqa: E402

serve(settings.WEB3["EXECUTOR_DIR"])
