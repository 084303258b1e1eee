"""The component schemas of the account routes, for our OpenAPI document (`apps.common.openapi`)."""

from apps.common.openapi import array, integer, obj, ref, register_schemas

register_schemas(
    TokenBalance=obj(token_id=ref("EntityId"), balance=integer("int64")),
    AccountBalance=obj(account=ref("EntityId"), balance=integer("int64"), tokens=array(ref("TokenBalance"))),
)
