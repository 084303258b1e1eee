"""The network selectors' SQL statements: values are always bound parameters; the
constants written into the text (transaction types, the unreleased accounts' ranges,
an order's direction) are the statements' own, never a request's."""

from django.conf import settings

from apps.common.ledger.codecs import encode_entity_id

FILE_CREATE, FILE_UPDATE = 17, 19

# A version starts at its file's latest create or non-empty update in the bounds and runs
# through every later row up to the upper bound (appends; empty updates change nothing).
FILE_AT_TIMESTAMP = f"""
    select max(consensus_timestamp), string_agg(file_data, '' order by consensus_timestamp)
    from file_data
    where entity_id = %(entity_id)s
      and consensus_timestamp >= (
        select consensus_timestamp
        from file_data
        where entity_id = %(entity_id)s
          and consensus_timestamp between %(lower)s and %(upper)s
          and (transaction_type = {FILE_CREATE} or (transaction_type = {FILE_UPDATE} and length(file_data) <> 0))
        order by consensus_timestamp desc
        limit 1
      )
      and consensus_timestamp <= %(upper)s
      and (transaction_type <> {FILE_UPDATE} or length(file_data) <> 0)
"""


# Account numbers whose hbars are not released (the upstream's unreleasedSupplyAccounts), inclusive ranges.
UNRELEASED_SUPPLY_ACCOUNTS = ((2, 2), (42, 42), (44, 71), (73, 87), (99, 100), (200, 349), (400, 750))


def unreleased_balance_now() -> str:
    """The unreleased accounts' current balance, and the latest balance timestamp among them."""
    return f"""
        select coalesce(sum(balance), 0), coalesce(max(balance_timestamp), 0)
        from entity where {_unreleased_accounts("id")}
    """


def unreleased_balance_between() -> str:
    """The unreleased accounts' latest snapshot balances between two bound timestamps,
    summed, and the latest of their timestamps."""
    return f"""
        select coalesce(sum(balance), 0), coalesce(max(consensus_timestamp), 0)
        from (
          select distinct on (account_id) balance, consensus_timestamp
          from account_balance
          where ({_unreleased_accounts("account_id")}) and consensus_timestamp between %s and %s
          order by account_id, consensus_timestamp desc
        ) latest
    """


def _unreleased_accounts(column: str) -> str:
    """The unreleased accounts' ranges (in the configured shard and realm), written into the
    SQL: they are constants, and passed as parameters they made PostgreSQL plan the
    statement anew on every request."""
    shard, realm = settings.MIRROR["SHARD"], settings.MIRROR["REALM"]
    return " or ".join(
        f"{column} between {encode_entity_id(shard, realm, first):d} and {encode_entity_id(shard, realm, last):d}"
        for first, last in UNRELEASED_SUPPLY_ACCOUNTS
    )


def nodes(node_ids: str, order: str) -> str:
    """A page of the latest address book of a file (the first parameter), its entries
    narrowed by `node_ids` (a condition on `entry.node_id` with its own parameters, which
    come next) in `order` of node id, the page's size the last parameter: each node with
    its service endpoints, its latest stake and its `node` row."""
    direction = "desc" if order == "desc" else "asc"
    return f"""
        with book as (
          select start_consensus_timestamp, end_consensus_timestamp, file_id
          from address_book
          where file_id = %s
          order by start_consensus_timestamp desc
          limit 1
        ), stake as (
          select * from node_stake where consensus_timestamp = (select max(consensus_timestamp) from node_stake)
        )
        select
          entry.node_id, entry.memo, entry.description, entry.public_key, entry.node_cert_hash,
          coalesce(node.account_id, entry.node_account_id) as node_account_id,
          book.file_id, book.start_consensus_timestamp, book.end_consensus_timestamp,
          node.admin_key, node.associated_registered_nodes, node.decline_reward, node.grpc_proxy_endpoint::text,
          stake.max_stake, stake.min_stake, stake.reward_rate, stake.stake, stake.stake_not_rewarded,
          stake.stake_rewarded, stake.staking_period,
          (
            select coalesce(
              json_agg(
                json_build_object('domain_name', domain_name, 'ip_address_v4', ip_address_v4, 'port', port)
                order by ip_address_v4, port
              ),
              '[]'
            )::text
            from address_book_service_endpoint endpoint
            where endpoint.consensus_timestamp = entry.consensus_timestamp and endpoint.node_id = entry.node_id
          ) as service_endpoints
        from book
        join address_book_entry entry on entry.consensus_timestamp = book.start_consensus_timestamp
        left join stake on stake.node_id = entry.node_id
        left join node on node.node_id = entry.node_id
        where {node_ids}
        order by entry.node_id {direction}
        limit %s
    """
