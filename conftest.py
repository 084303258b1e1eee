pytest_plugins = ["apps.common.tests.production_server"]
