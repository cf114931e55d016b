"""The house's rules, read from the imports (issue #15): the layers, the floors of
``kiosk/core``, and no circle anywhere in ``kiosk``.

Every import counts, the ones inside functions (loaded on first use) and under
``TYPE_CHECKING`` too: a module that names another, even lazily, stands on it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "kiosk"

# kiosk/core, low to high: a module imports only from its own floor or lower ones.
CORE_FLOORS: tuple[tuple[str, ...], ...] = (
    (
        "kiosk.core.db",
        "kiosk.core.events",
        "kiosk.core.lazy",
        "kiosk.core.logs",
        "kiosk.core.supervise",
        "kiosk.core.storage",
        "kiosk.core.amounts",
        "kiosk.core.journal",
        "kiosk.core.setup_errors",
    ),
    ("kiosk.core.settings",),
    ("kiosk.core.security",),
    ("kiosk.core.outbox", "kiosk.core.retention"),
    ("kiosk.core.session",),
    ("kiosk.core.counter", "kiosk.core.fleet"),
    ("kiosk.core.admin",),
    ("kiosk.core.selfcheck",),
)

# Which top-level parts each part may import (besides itself).
LAYERS = {
    "kiosk.api": set(),
    "kiosk.sim": set(),
    "kiosk.core": {"kiosk.api"},
    "kiosk.ui": {"kiosk.core", "kiosk.api"},
    # The console companion stands beside the app: it may compose the kiosk as the app
    # does (wiring) and shares its entry point.
    "kiosk.cli": {"kiosk.core", "kiosk.api", "kiosk.sim", "kiosk.wiring", "kiosk.__main__"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The kiosk modules ``path`` imports (a package's ``__init__`` counts as that
    package; ``from package import module`` as the module)."""
    name = module_name(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("kiosk"):
                    yield _known(alias.name, known)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:  # relative: from the module's package up
                package = name.split(".")
                if path.name != "__init__.py":
                    package.pop()
                base = ".".join([*package[: len(package) - node.level + 1], node.module])
            if not base.startswith("kiosk"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                yield candidate if candidate in known else _known(base, known)


def _known(dotted: str, known: dict[str, Path]) -> str:
    while dotted not in known and "." in dotted:
        dotted = dotted.rpartition(".")[0]
    return dotted


def graph() -> dict[str, set[str]]:
    known = modules()
    return {
        name: {dep for dep in imports_of(path, known) if dep != name}
        for name, path in known.items()
    }


def floor(module: str) -> int | None:
    for index, members in enumerate(CORE_FLOORS):
        if any(module == m or module.startswith(m + ".") for m in members):
            return index
    return None


def part(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_core_floors_cover_every_core_module() -> None:
    loose = [m for m in modules() if m.startswith("kiosk.core.") and floor(m) is None]
    assert loose == [], "give these a floor in CORE_FLOORS"


def test_core_imports_only_go_down() -> None:
    up = [
        f"{module} -> {dep}"
        for module, deps in graph().items()
        for dep in deps
        if (here := floor(module)) is not None
        and (there := floor(dep)) is not None
        and there > here
    ]
    assert up == []


def test_layers() -> None:
    wrong = [
        f"{module} -> {dep}"
        for module, deps in graph().items()
        if part(module) in LAYERS
        for dep in deps
        if part(dep) != part(module) and dep != "kiosk" and part(dep) not in LAYERS[part(module)]
    ]
    assert wrong == []


def test_no_circles() -> None:
    deps = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(deps.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(deps):
        if node not in index:
            visit(node)
    assert circles == []


@pytest.mark.parametrize("rule", [test_core_imports_only_go_down, test_no_circles])
def test_rules_can_fail(rule: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks see an arrow up and a circle when one is there."""
    real = graph()
    fake = {k: set(v) for k, v in real.items()}
    fake["kiosk.core.db"].add("kiosk.core.counter.credit")
    monkeypatch.setitem(globals(), "graph", lambda: fake)
    with pytest.raises(AssertionError):
        rule()  # type: ignore[operator]
