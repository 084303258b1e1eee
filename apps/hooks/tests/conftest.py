import pytest
from django.test import Client


@pytest.fixture
def client():
    """A client that answers a view's unhandled error with the 500 envelope rather than raising it."""
    return Client(raise_request_exception=False)
