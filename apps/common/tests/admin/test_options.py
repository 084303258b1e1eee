import re

import pytest
from django.contrib import admin
from django.db import models
from django.test import RequestFactory

from apps.common.admin import display_hex, options
from apps.common.admin.options import (
    CappedCountPaginator,
    MirrorModelAdmin,
    column,
    detail_display,
)
from apps.transactions.models import Transaction
from apps.transactions.tests.factories import create_transaction

MIRROR_ADMINS = sorted(
    ((model, model_admin) for model, model_admin in admin.site._registry.items() if isinstance(model_admin, MirrorModelAdmin)),
    key=lambda registered: registered[0]._meta.label_lower,
)
# Integer columns that hold an entity id, a timestamp or an amount, by the mirror schema's names.
ENCODED = re.compile(r"(^id$|_id$|^owner$|^spender$|^consensus_|timestamp|_ns$|_time$|balance|amount|fee|_period$)")
# A registered node's id is a plain number, as the API prints it.
PLAIN = {"registered_node_id"}


@pytest.mark.parametrize(("model", "model_admin"), MIRROR_ADMINS, ids=lambda value: getattr(value, "__name__", ""))
def test_every_id_timestamp_and_amount_column_has_a_display(model, model_admin):
    undisplayed = [
        field.name
        for field in model._meta.concrete_fields
        if isinstance(field, models.IntegerField) and ENCODED.search(field.name) and field.name not in PLAIN
        and field.name not in model_admin.column_displays
    ]
    assert undisplayed == []


@pytest.mark.parametrize(("model", "model_admin"), MIRROR_ADMINS, ids=lambda value: getattr(value, "__name__", ""))
def test_every_mirror_admin_only_looks(model, model_admin):
    request = RequestFactory().get("/")

    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert model_admin.get_readonly_fields(request) == model_admin.get_fields(request)
    assert len(model_admin.get_fields(request)) >= len(model._meta.concrete_fields)


def test_a_detail_page_starts_with_the_rows_key():
    fields = admin.site.get_model_admin(Transaction).detail_fields

    assert fields[0] == "transaction_id"
    assert fields[1].__name__ == "consensus_timestamp"


def test_null_shows_as_the_empty_value():
    class Row:
        value = None

    class RowAdmin:
        @detail_display("nothing")
        def nothing(self, row):
            return None

    assert column("value", display_hex)(Row()) == admin.site.empty_value_display
    assert RowAdmin().nothing(Row()) == admin.site.empty_value_display
    assert RowAdmin.nothing.short_description == "nothing"


@pytest.mark.django_db
def test_the_paginator_counts_no_further_than_its_cap(monkeypatch):
    monkeypatch.setattr(options, "COUNT_CAP", 2)
    for timestamp in range(1, 6):
        create_transaction(timestamp, fee=0, hashed=False)

    paginator = CappedCountPaginator(Transaction.objects.order_by("consensus_timestamp"), 50)

    assert paginator.count == 3
