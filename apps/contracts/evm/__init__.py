"""Contract execution over the mirror tables (`POST /contracts/call`, opcode traces).

py-evm's Prague VM runs the code; nothing it writes persists. State is read lazily,
one account or slot at a time, as of a block (`mirror.py`); the Hedera system
contracts at 0x167-0x169 and token addresses are answered natively (`system.py`);
`executor.py` runs a call, an estimate or a replay and turns failures into the
web3 error bodies (`errors.py`); `request.py` reads and validates the call body.
"""
