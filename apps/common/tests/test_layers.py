"""The import rules of the layout (docs/architecture.md, "Layout"), read from the source itself.

- No module imports itself through others: the import graph of `apps` has no cycle, counting
  imports inside functions too (a lazy import hides a cycle, it does not remove it).
- No two apps import each other, directly or through others.
- In the shared app, a layer imports only from layers below it: the ledger formats, the
  errors, the clock, observability and the mirror database at the bottom, then the query
  grammar, then the API base, then the server door.
- Nothing outside the development tooling imports it, tests aside.
"""

import ast
from collections import defaultdict
from pathlib import Path

import pytest

APPS = Path(__file__).resolve().parents[2]

LAYERS = {
    "apps.common.errors": 0,
    "apps.common.clock": 0,
    "apps.common.observability": 0,
    "apps.common.ledger": 0,
    "apps.common.database": 1,
    "apps.common.query": 2,
    "apps.common.api": 3,
    "apps.common.server": 4,
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(APPS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_test(name: str) -> bool:
    return ".tests" in name or name.endswith(".conftest") or name == "apps.conftest"


def _imports() -> dict[str, set[str]]:
    """Module -> the `apps` modules it imports (a `from package import module` names the module)."""
    modules = {_module_name(path): path for path in APPS.rglob("*.py") if "migrations" not in path.parts}
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            else:
                continue
            graph[name].update(target for target in targets if target in modules and target != name)
    return graph


GRAPH = _imports()
REQUEST_PATH = {name: targets for name, targets in GRAPH.items() if not _is_test(name)}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    visiting, done = [], set()

    def visit(node):
        if node in visiting:
            return [*visiting[visiting.index(node):], node]
        if node in done:
            return None
        visiting.append(node)
        for target in sorted(graph.get(node, ())):
            if found := visit(target):
                return found
        visiting.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        if found := visit(node):
            return found
    return None


def _app(name: str) -> str:
    return ".".join(name.split(".")[:2])


def _layer(name: str) -> int | None:
    for prefix, rank in LAYERS.items():
        if name == prefix or name.startswith(prefix + "."):
            return rank
    return None


def test_no_module_imports_itself_through_others():
    assert _cycle(REQUEST_PATH) is None


def test_no_two_apps_import_each_other():
    apps = defaultdict(set)
    for name, targets in REQUEST_PATH.items():
        apps[_app(name)].update(_app(target) for target in targets if _app(target) != _app(name))
    assert _cycle(apps) is None


@pytest.mark.parametrize("name", sorted(name for name in REQUEST_PATH if _layer(name) is not None))
def test_a_shared_layer_imports_only_from_below(name):
    above = sorted(
        target for target in REQUEST_PATH[name]
        if _layer(target) is not None and _layer(target) > _layer(name)
    )
    assert above == []


def test_only_the_development_tooling_imports_it():
    importers = sorted(
        name for name, targets in REQUEST_PATH.items()
        if _app(name) != "apps.devtools" and any(_app(target) == "apps.devtools" for target in targets)
    )
    assert importers == []
