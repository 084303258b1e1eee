from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    """Development tooling: the ledger generator, the benchmark, the conformance runner and
    the request profiler. Nothing on the request path imports from here."""

    name = "apps.devtools"
    label = "devtools"
