"""Reading error answers in the account route tests."""


def messages(response) -> list[str]:
    """The texts of a Node-style error envelope."""
    return [message["message"] for message in response.json()["_status"]["messages"]]


def java_error(response) -> dict:
    """The one `{"message", "detail"}` entry of a Java-style error envelope."""
    (message,) = response.json()["_status"]["messages"]
    return message
