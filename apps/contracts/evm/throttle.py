"""Per-process token buckets, as the upstream's per-instance throttles.

Requests cost one token of the requests bucket; gas costs gas / 10,000 tokens of the
gas bucket, and what a call did not use is given back after it ran.
"""

import threading
import time

from django.conf import settings

from apps.contracts.evm.errors import TooManyRequests

GAS_PER_TOKEN = 10_000


class TokenBucket:
    """`rate` tokens a second, holding at most `capacity` (default a second's worth)."""

    def __init__(self, rate: int, capacity: int | None = None):
        self.rate = rate
        self.capacity = rate if capacity is None else capacity
        self._tokens = float(self.capacity)
        self._updated = time.monotonic()
        self._lock = threading.Lock()

    def try_consume(self, tokens: int) -> bool:
        if self.rate <= 0 or tokens <= 0:
            return True
        with self._lock:
            now = time.monotonic()
            self._tokens = min(self.capacity, self._tokens + (now - self._updated) * self.rate)
            self._updated = now
            if self._tokens < tokens:
                return False
            self._tokens -= tokens
            return True

    def give_back(self, tokens: int) -> None:
        if self.rate <= 0 or tokens <= 0:
            return
        with self._lock:
            self._tokens = min(self.capacity, self._tokens + tokens)


class Throttle:
    def __init__(self):
        web3 = settings.WEB3
        self.requests = TokenBucket(web3["REQUESTS_PER_SECOND"])
        gas_rate = web3["GAS_PER_SECOND"] // GAS_PER_TOKEN
        # A second's worth may be less than one call may take (a call is charged its gas limit
        # until it ran): the bucket holds a call at the cap beyond it.
        self.gas = TokenBucket(gas_rate, gas_rate + web3["MAX_GAS_LIMIT"] // GAS_PER_TOKEN)
        self.opcodes = TokenBucket(web3["OPCODE_REQUESTS_PER_SECOND"])

    def admit_call(self, gas: int) -> None:
        if not self.requests.try_consume(1):
            raise TooManyRequests("Requests per second rate limit exceeded")
        if not self.gas.try_consume(gas // GAS_PER_TOKEN):
            raise TooManyRequests("Gas per second rate limit exceeded.")

    def restore_gas(self, gas_limit: int, gas_used: int | None) -> None:
        """Gives back the gas a call did not use (all of it when it failed without using it all)."""
        unused = gas_limit if gas_used is None or gas_used >= gas_limit else gas_limit - gas_used
        self.gas.give_back(unused // GAS_PER_TOKEN)

    def admit_opcodes(self) -> None:
        if not self.opcodes.try_consume(1):
            raise TooManyRequests("Requests per second rate limit exceeded")


_throttle: Throttle | None = None


def throttle() -> Throttle:
    """The process's throttle, built from the settings on first use (`reset()` rebuilds it)."""
    global _throttle
    if _throttle is None:
        _throttle = Throttle()
    return _throttle


def reset() -> None:
    global _throttle
    _throttle = None
