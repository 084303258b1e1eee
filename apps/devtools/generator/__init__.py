"""A synthetic mirror ledger for benchmarks and query-plan tests (`manage.py generate`)."""
