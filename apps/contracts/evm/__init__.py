"""Contract execution over the mirror tables (`POST /contracts/call`, opcode traces).

py-evm's Prague VM runs the code; nothing it writes persists.
- `request.py` reads and validates the call body; `errors.py` the web3 error bodies.
- `mirror.py` reads state lazily, one account or slot at a time, as of a block;
  `state.py` is py-evm's account database and state over it (journal, wall-time check).
- `system.py` answers the Hedera system contracts at 0x167-0x169 and token addresses.
- `executor.py` runs a call or an estimate; `replay.py` and `tracer.py` the opcode traces.
- `throttle.py` the per-process rate limits; `schema.py` the OpenAPI components.
"""
