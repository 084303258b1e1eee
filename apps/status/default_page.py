"""The page `migrate` creates when there is none, so the status routes answer with no authoring.

Named and linked by the `STATUS_PAGE_NAME` and `STATUS_PAGE_URL` settings, it holds one
component per live check of this service, "Mirror node freshness" and "Database"; authors
edit it in the admin like any page, and `migrate` leaves an existing page alone. Its ids
derive from the page URL, so the same page built from settings while the database has never
been reachable (`default_content`) carries the ids its rows have.
"""

import hashlib
from datetime import datetime

from django.apps import apps as global_apps
from django.db import transaction

from apps.status import conf
from apps.status.models import ID_ALPHABET, ID_LENGTH, Component, LiveCheck, Page
from apps.status.selectors import PageContent
from apps.status.timestamps import current_time

__all__ = ("DEFAULT_COMPONENTS", "create_default_page", "default_content")

# (name, live check, description), in position order.
DEFAULT_COMPONENTS = (
    (
        "Mirror node freshness",
        LiveCheck.MIRROR_FRESHNESS,
        "How recent the newest block this mirror holds is.",
    ),
    ("Database", LiveCheck.DATABASE, "Whether this mirror node's database can be read."),
)


def create_default_page(*, using: str, apps=global_apps, **kwargs) -> None:
    """`post_migrate` receiver: creates the default page unless a page exists. `flush` sends
    the signal too (without `apps`), so a flushed test database gets the page back."""
    try:
        page_model = apps.get_model("status", "Page")
        component_model = apps.get_model("status", "Component")
    except LookupError:  # the status app is migrated to zero
        return
    if page_model.objects.using(using).exists():
        return
    page, components = _default_rows(page_model, component_model, at=current_time())
    with transaction.atomic(using=using):
        page_model.objects.using(using).bulk_create([page])
        component_model.objects.using(using).bulk_create(components)


def default_content(*, at: datetime) -> PageContent:
    """The default page as settings define it, for when the database has never been read."""
    page, components = _default_rows(Page, Component, at=at)
    return PageContent(
        page=page,
        components=components,
        recent_incidents=[],
        unresolved_incidents=[],
        recent_maintenances=[],
        open_maintenances=[],
        updated_at=at,
    )


def _default_rows(page_model, component_model, *, at: datetime) -> tuple:
    url = conf.page_url()
    page = page_model(
        id=_stable_id(url), name=conf.page_name(), url=url, time_zone="Etc/UTC", created_at=at, updated_at=at
    )
    components = [
        component_model(
            id=_stable_id(url, name),
            name=name,
            description=description,
            live_check=live_check,
            position=position,
            created_at=at,
            updated_at=at,
        )
        for position, (name, live_check, description) in enumerate(DEFAULT_COMPONENTS, start=1)
    ]
    return page, components


def _stable_id(*parts: str) -> str:
    number = int.from_bytes(hashlib.sha256("\n".join(parts).encode()).digest())
    characters = []
    for _ in range(ID_LENGTH):
        number, index = divmod(number, len(ID_ALPHABET))
        characters.append(ID_ALPHABET[index])
    return "".join(characters)
