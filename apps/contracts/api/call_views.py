"""`POST /contracts/call` and the opcode traces: served upstream by the Java web3 service,
so errors carry `message`, `detail` and `data` (apps/contracts/evm/errors.py).

The EVM's modules are imported on first use: they are heavy and no other route needs them.
"""

from django.views.decorators.gzip import gzip_page
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import viewsets
from rest_framework.response import Response

from apps.common.api.views import AcyclicViewMixin
from apps.common.errors import DetailedError
from apps.common.query.strict import read_booleans
from apps.contracts.evm import schema  # noqa: F401  (registers the components documented below)
from apps.contracts.evm.errors import BadRequest, Web3Error

JSON_MEDIA_TYPES = frozenset({"application/json"})


def _json_body(request) -> bytes:
    content_type = request.META.get("CONTENT_TYPE", "") or "application/octet-stream"
    if content_type.split(";", 1)[0].strip().lower() not in JSON_MEDIA_TYPES:
        raise Web3Error(415, f"Content-Type '{content_type}' is not supported")
    return request.body


class ContractCallViewSet(AcyclicViewMixin, viewsets.ViewSet):
    """POST runs the call; GET of the same path is the contract route for the id `call`."""

    request_schemas = {"call": ("application/json", "ContractCallRequest")}
    schema_item = "ContractCallResponse"
    error_statuses = {"call": (404, 415, 429, 501, 503)}

    @extend_schema(
        summary="Invoke a smart contract",
        description="Executes a call (or, with `estimate`, estimates its gas) on the EVM over the ledger's state "
        "at `block`, changing nothing.",
    )
    def call(self, request):
        from apps.contracts.evm import pool
        from apps.contracts.evm.request import parse_call_request
        from apps.contracts.evm.throttle import throttle

        call = parse_call_request(_json_body(request))
        limits = throttle()
        admitted, gas_used = False, None

        def admit():
            nonlocal admitted
            limits.admit_call(call.gas)
            admitted = True

        try:
            result, gas_used = pool.execute("apps.contracts.evm.executor.answer", call, admit=admit)
        finally:
            if admitted:
                limits.restore_gas(call.gas, gas_used)
        return Response({"result": result})

    @extend_schema(exclude=True)
    def contract(self, request):
        from apps.contracts.api.views import ContractViewSet

        return ContractViewSet.as_view({"get": "retrieve"})(request._request, contract_id_or_address="call")


class OpcodesViewSet(AcyclicViewMixin, viewsets.ViewSet):
    """The opcode trace of a stored transaction, re-executed on the state just before it.

    The upstream answers only clients that take gzip (traces are large), and compresses."""

    detail_actions = ("opcodes",)
    schema_item = "OpcodesResponse"
    error_statuses = {"opcodes": (406, 429)}

    @extend_schema(
        summary="Trace a transaction's opcodes",
        description="Runs a stored contract transaction again on the ledger's state just before it and answers "
        "each EVM opcode it executed, with its gas and depth, the stack and, on request, the memory and the "
        "storage at that step. Traces are large: only a client accepting gzip is answered (406 otherwise). "
        "Each parameter takes one value.",
        parameters=[
            OpenApiParameter("stack", bool, default=True, description="Whether each step shows the stack."),
            OpenApiParameter("memory", bool, default=False, description="Whether each step shows the memory."),
            OpenApiParameter(
                "storage", bool, default=False, description="Whether each step shows the storage it read or wrote."
            ),
        ],
    )
    def opcodes(self, request, transaction_id_or_hash):
        from apps.contracts.evm import pool
        from apps.contracts.evm.throttle import throttle
        from apps.contracts.evm.tracer import Tracer

        if "gzip" not in request.META.get("HTTP_ACCEPT_ENCODING", "").lower():
            raise Web3Error(406, "Accept-Encoding: gzip header is required")
        try:
            tracer = Tracer(**read_booleans(request.META.get("QUERY_STRING", ""), stack=True, memory=False, storage=False))
        except DetailedError as error:
            raise BadRequest(*(message["detail"] for message in error.messages)) from None
        return Response(
            pool.execute(
                "apps.contracts.evm.replay.trace", transaction_id_or_hash, tracer=tracer, admit=throttle().admit_opcodes
            )
        )


contract_call_view = ContractCallViewSet.as_view({"post": "call", "get": "contract"})
opcodes_view = gzip_page(OpcodesViewSet.as_view({"get": "opcodes"}))
