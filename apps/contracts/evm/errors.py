"""The web3 error body: every message has `message`, `detail` and `data` (empty strings when unused)."""

from http import HTTPStatus

from apps.common.errors import MirrorApiError


def web3_message(message: str, detail: str = "", data: str = "") -> dict:
    return {"message": message, "detail": detail, "data": data}


class Web3Error(MirrorApiError):
    """`message` defaults to the HTTP reason phrase, as the upstream's Java service words it."""

    def __init__(self, status_code: int, detail: str = "", *, message: str | None = None, data: str = ""):
        super().__init__(web3_message(message or HTTPStatus(status_code).phrase, detail, data))
        self.status_code = status_code


class BadRequest(Web3Error):
    def __init__(self, *details: str):
        super().__init__(400)
        self.messages = [web3_message("Bad Request", detail) for detail in details]


class ExecutionFailed(Web3Error):
    """The EVM (or a system contract) failed: 400 with the Hedera status as `message`."""

    def __init__(self, status: str, detail: str = "", data: str = ""):
        super().__init__(400, detail, message=status, data=data)
        self.status = status


class NotSupported(Web3Error):
    """A system contract function we do not serve: 501 naming it."""

    def __init__(self, detail: str):
        super().__init__(501, detail)


class TooManyRequests(Web3Error):
    def __init__(self, detail: str):
        super().__init__(429, detail)


class TimedOut(Web3Error):
    def __init__(self, seconds: float):
        super().__init__(503, f"Execution exceeded the time limit of {seconds:g} s")
