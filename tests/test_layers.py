"""Dependencies point one way: spec <- engine <- games <- analysis <- cli (and server beside it).

Read from the source, every import counted (inside functions and TYPE_CHECKING blocks too):
a layer imports nothing of a layer above it. Two refinements:
* analysis may import the package `reelforge.games` itself (`make`, `shipped_games`,
  `published_estimate`: the registry of shipped games) but no particular game's package;
  what a game adds reaches analysis through the game object (`game.strata`, `game.rules`);
* spec and analysis import no numba (numba is the engine's and the games' kernels').
And, run: reading any shipped game file (`load_spec`) loads no numba.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reelforge.spec.rules import RULES_PACKAGES

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "reelforge"
GAME_FILES = sorted((PACKAGE / "games").glob("*/*.toml"))

# Layer of each part of the package, lowest first; a module may import its own layer and
# those below. `reelforge` itself and `reelforge.errors` are the floor every layer stands on.
LAYERS = {
    "reelforge": 0, "reelforge.errors": 0,
    "reelforge.spec": 1,
    "reelforge.engine": 2,
    "reelforge.games": 3,
    "reelforge.analysis": 4,
    "reelforge.cli": 5, "reelforge.server": 5, "reelforge.progress": 5,
    # the lab's evidence reads games, analysis and the server's services' source; the server
    # imports its manifest (GET /version)
    "reelforge.evidence": 5,
}
NO_NUMBA = ("reelforge.spec", "reelforge.analysis")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    path = SRC.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(path: Path) -> set[str]:
    """Every module `path` imports, relative imports resolved; `from a import b` is a.b
    when a.b is a module of the package (so `from reelforge import games` is caught)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if is_module(sub) else base)
    return found


def layer(name: str) -> tuple[str, int] | None:
    """(the part of the package `name` is in, its layer), or None outside the package."""
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in LAYERS:
            return key, LAYERS[key]
    return None


def violation(importer: str, imported: str) -> str | None:
    """Why `importer` must not import `imported`, or None."""
    own = layer(importer)
    assert own is not None, f"{importer}: no layer in test_layers.LAYERS"
    if imported.split(".")[0] == "numba" and importer.startswith(NO_NUMBA):
        return "numba"
    theirs = layer(imported)
    if theirs is None:
        return None
    if theirs[1] > own[1]:
        return f"a layer above {own[0]}"
    if own[0] == "reelforge.analysis" and imported.startswith("reelforge.games."):
        return "a particular game's package"
    return None


def test_layers_import_nothing_above_them():
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 30
    found = []
    for path in modules:
        importer = module_name(path)
        for imported in sorted(imports(path)):
            why = violation(importer, imported)
            if why is not None:
                found.append(f"{importer}: imports {imported} ({why})")
    assert not found, "layer violations:\n" + "\n".join(found)


def test_the_checker_sees_what_it_must():
    """The rules above, on imports they must refuse and allow."""
    assert violation("reelforge.spec.clusters", "reelforge.engine.clusters")
    assert violation("reelforge.spec.load", "numba")
    assert violation("reelforge.engine.cluster_game", "reelforge.games.candy_jar_clusters.game")
    assert violation("reelforge.games.cops_n_robbers.gamble", "reelforge.analysis.exact")
    assert violation("reelforge.analysis.par", "reelforge.games.candy_jar_clusters")
    assert violation("reelforge.analysis.par", "reelforge.cli")
    assert violation("reelforge.analysis.montecarlo", "reelforge.games") is None
    assert violation("reelforge.games.candy_jar_clusters.kernel", "numba") is None
    assert violation("reelforge.cli", "reelforge.games.candy_jar_clusters.game") is None
    here = imports(PACKAGE / "games" / "candy_jar_clusters" / "game.py")
    assert "reelforge.games.candy_jar_clusters.kernel" in here  # `from pkg import kernel as k`


# Run in a fresh interpreter: records who first imports numba (the reelforge frames of the
# stack at that moment), then loads what it is given.
PROBE = """
import json, sys, traceback

class Watch:
    chain = None
    def find_spec(self, name, path=None, target=None):
        if name == "numba" and Watch.chain is None:
            Watch.chain = [f"{f.filename.split('/src/')[-1]}:{f.lineno}"
                           for f in traceback.extract_stack() if "/src/reelforge/" in f.filename]
        return None

sys.meta_path.insert(0, Watch())
BODY
print(json.dumps({"numba": "numba" in sys.modules, "chain": Watch.chain}))
"""


def numba_after(body: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PROBE.replace("BODY", body)], check=False,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("path", GAME_FILES, ids=[p.name for p in GAME_FILES])
def test_reading_a_game_file_loads_no_numba(path):
    seen = numba_after(f"from reelforge.spec import load_spec\nload_spec({str(path)!r})")
    assert not seen["numba"], f"load_spec({path.name}) imports numba, through: " + " -> ".join(
        seen["chain"] or ["?"])


@pytest.mark.parametrize("name", sorted(RULES_PACKAGES))
def test_a_rules_spec_part_loads_no_numba(name):
    seen = numba_after(f"from reelforge.spec.rules import rules_module\n"
                       f"rules_module({name!r}, 'spec')")
    assert not seen["numba"], f"rules {name!r} spec part imports numba, through: " + " -> ".join(
        seen["chain"] or ["?"])
