from django.apps import AppConfig


class ContractsConfig(AppConfig):
    name = "apps.contracts"
    label = "contracts"

    def ready(self):
        from apps.common.server.lanes import SideRoute, side_route
        from apps.contracts.evm.pool import (
            BUSY_ANSWER,
            CONTRACTS_PREFIX,
            EXECUTION_PATH,
        )

        # A call waits on an executor, not the database: it takes a side lane, no read turn.
        side_route(SideRoute(CONTRACTS_PREFIX, EXECUTION_PATH, "429 Too Many Requests", BUSY_ANSWER))
