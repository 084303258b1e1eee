"""Reads of contracts and what they produced, one module per sub-resource; their SQL is in
`apps.contracts.sql`."""
