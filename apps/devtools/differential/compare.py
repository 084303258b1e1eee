"""How two answers to one query differ, as classes of difference: the same class from many
queries is one behaviour to fix (or to explain), whose smallest query is its example."""

import hashlib
import json
import re
from dataclasses import dataclass

# The headers a client reads.
COMPARED_HEADERS = ("cache-control", "content-type", "link")
_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True)
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]  # names in lower case

    def json(self):
        """The parsed body (an empty body reads as `{}`); raises ValueError when it is not JSON."""
        return json.loads(self.body) if self.body.strip() else {}


def differences(ours: Answer, theirs: Answer) -> list[tuple[str, str]]:
    """(class, detail) for each way `ours` differs from `theirs`; [] when they agree."""
    if theirs.status >= 500:
        return [] if ours.status == theirs.status else [(f"upstream {theirs.status}, ours {ours.status}", "")]
    if ours.status != theirs.status:
        # The bodies of different statuses differ as a matter of course.
        return [(f"status {ours.status} where upstream {theirs.status}", "")]
    found = []
    for name in COMPARED_HEADERS:
        if ours.headers.get(name) != theirs.headers.get(name):
            found.append((f"header {name}", f"ours {ours.headers.get(name)!r}, upstream {theirs.headers.get(name)!r}"))
    try:
        mine, upstream = ours.json(), theirs.json()
    except ValueError:
        if ours.body != theirs.body:
            found.append(("body not JSON", ""))
        return found
    for path, what in json_differences(mine, upstream):
        found.append((f"body {_INDEX.sub('[*]', path)} {what}", f"{path}"))
    return found


def json_differences(ours, theirs, path: str = "$") -> list[tuple[str, str]]:
    """(path, what) of each difference: keys free of order, numbers compared by value."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        found = []
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours:
                found.append((f"{path}.{key}", "missing"))
            elif key not in theirs:
                found.append((f"{path}.{key}", "extra"))
            else:
                found += json_differences(ours[key], theirs[key], f"{path}.{key}")
        return found
    if isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            return [(path, f"length {len(ours)} where upstream {len(theirs)}")]
        found = []
        for index, (mine, upstream) in enumerate(zip(ours, theirs)):
            found += json_differences(mine, upstream, f"{path}[{index}]")
        return found
    if _kind(ours) != _kind(theirs) or ours != theirs:
        return [(path, "value")]
    return []


def _kind(value) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def canonical_digest(document) -> str:
    """A digest of a JSON document equal for equal documents (key order free, numbers by value)."""
    return hashlib.sha256(json.dumps(_canonical(document), sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _canonical(value):
    if isinstance(value, dict):
        return {key: _canonical(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
