"""`POST /contracts/call` and the opcode traces: served upstream by the Java web3 service,
so errors carry `message`, `detail` and `data` (apps/contracts/evm/errors.py)."""

from rest_framework.response import Response
from rest_framework.views import APIView

from apps.contracts.evm.errors import Web3Error

JSON_MEDIA_TYPES = frozenset({"application/json"})


def _json_body(request) -> bytes:
    content_type = request.META.get("CONTENT_TYPE", "") or "application/octet-stream"
    if content_type.split(";", 1)[0].strip().lower() not in JSON_MEDIA_TYPES:
        raise Web3Error(415, f"Content-Type '{content_type}' is not supported")
    return request.body


class ContractCallView(APIView):
    """POST runs the call; GET of the same path is the contract route for the id `call`."""

    def post(self, request):
        # The EVM's imports are heavy and no other route needs them.
        from apps.contracts.evm import executor
        from apps.contracts.evm.request import parse_call_request
        from apps.contracts.evm.throttle import throttle

        call = parse_call_request(_json_body(request))
        limits = throttle()
        limits.admit_call(call.gas)
        gas_used = None
        try:
            if call.estimate:
                gas_used = executor.estimate(call)
                result = "0x" + gas_used.to_bytes(8, "big").hex()
            else:
                outcome = executor.call(call)
                gas_used = outcome.gas_used
                result = "0x" + outcome.output.hex()
        finally:
            limits.restore_gas(call.gas, gas_used)
        return Response({"result": result})

    def get(self, request):
        from apps.contracts.api.views import ContractViewSet

        return ContractViewSet.as_view({"get": "retrieve"})(request._request, contract_id_or_address="call")
