"""Reads of accounts, one module per sub-resource: `balances` (`/balances`, and the
balance reads accounts share), `accounts` (`/accounts` and one account), `rewards`,
`allowances` (crypto) and `account_paths` (the account a path names, and whether it exists).
"""
