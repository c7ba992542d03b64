"""The server's modules, read from the source with every import counted (inside functions too,
where a circle hides best): none imports another module's private names, and together they
form no import circle (issue 23: rounds, round_batch, steps and wallets/rounds imported each
other in a circle, through functions, and round_batch used rounds' private checks)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "reelforge" / "server"
PACKAGE = "reelforge.server"


def _modules() -> dict[str, Path]:
    found = {}
    for path in SERVER.rglob("*.py"):
        if "migrations" in path.parts:  # Alembic's scripts: loaded by Alembic, not imported
            continue
        parts = path.relative_to(SERVER).with_suffix("").parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> tuple[set[str], list[str]]:
    """(the server modules `path` imports, each private name it takes from one of them:
    `from m import _x`, or `_x` read as an attribute of a module bound by an import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    deps: set[str] = set()
    private: list[str] = []
    bound: dict[str, str] = {}  # local name -> server module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in MODULES:  # `from package import module`
                    deps.add(full)
                    bound[alias.asname or alias.name] = full
                elif node.module in MODULES:
                    deps.add(node.module)
                    if alias.name.startswith("_"):
                        private.append(f"from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    deps.add(alias.name)
                    if alias.asname:
                        bound[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            private.append(f"{bound[node.value.id]}.{node.attr}")
    return deps, private


GRAPH = {name: _imports(path) for name, path in MODULES.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_reader_sees_the_modules_and_their_imports() -> None:
    """The checks below read what they must: the money services and their imports."""
    deps, _ = GRAPH["reelforge.server.services.rounds"]
    assert "reelforge.server.services.bet_writer" in deps
    assert "reelforge.server.services.steps" in GRAPH
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_server_module_imports_anothers_private_names() -> None:
    taken = {name: private for name, (_, private) in GRAPH.items() if private}
    assert taken == {}


def test_the_server_modules_form_no_import_circle() -> None:
    graph = {name: {d for d in deps if d != name} for name, (deps, _) in GRAPH.items()}
    assert _circles(graph) == []


def test_the_server_knows_no_kind_of_choice() -> None:
    """Choices are settled as data (`ChoiceStep.settle`): no server module compares a choice's
    kind with one of the shipped games' kinds, names one of them, or reads a field of one
    kind's state (issue 23: GAMBLE_KINDS, the Spin Chance fields, the gamble history)."""
    from reelforge.engine.choices import RedBlackGamble
    from reelforge.games.cops_n_robbers.choices import SpinChance, WheelGamble

    kinds = {RedBlackGamble.kind, WheelGamble.kind, SpinChance.kind}
    # the fields of the shipped choices' states (engine/gamble.py, cops_n_robbers/gamble.py
    # and spin_chance.py) that a server reading a kind's state would name
    # (those whose names no other server object uses: `credit`, `paid` and `history` are
    # also a wallet call, a column and a service)
    fields = {"bonus_won", "collected", "spins_won", "half_taken", "last_card", "played"}
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                names = [c.value for c in (node.left, *node.comparators)
                         if isinstance(c, ast.Constant)]
                found += [f"{name}: compares with {v!r}" for v in names if v in kinds]
            elif isinstance(node, ast.Constant) and node.value in kinds - {"gamble"}:
                found.append(f"{name}: names {node.value!r}")
            elif isinstance(node, ast.Attribute) and node.attr in fields:
                found.append(f"{name}: reads .{node.attr}")
            elif isinstance(node, ast.Name) and node.id == "GAMBLE_KINDS":
                found.append(f"{name}: GAMBLE_KINDS")
    assert found == []
