"""docs/game-format.md against the loader, both ways, so that the reference cannot drift.

The loader is the truth. Every game file is loaded with the loader's `Table` instrumented:
each table records the keys the loader read (present or not: `Table.get` notes a key before
looking it up), and `finish` the names it lists as known. A key that sits in a file that loads
is accepted too (that covers what the loader reads from raw dicts, like a cluster symbol's
`multiplier` or the `{symbol, count}` items of `exempt`). The files: every shipped game, every
conformance game, the doc's own examples and two synthetic files below that reach the optional
branches no shipped file uses. A static pass over the loader's source adds the key names it
reads in branches none of these files reach.

The doc's convention: between `<!-- keys: lines -->` (or `clusters`, `ways`) and `<!-- keys: end -->`,
every table row whose first cell is one backticked dotted key documents that key for that
family; `<name>` is a placeholder for a name the file chooses (a symbol id, a reel set, a
count) and `name[]` an item of an array of tables. A TOML block right after
`<!-- example: lines -->` (or `clusters`) is a complete example file and must load.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from reelforge.spec import load as load_module
from reelforge.spec import parse_spec

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "game-format.md"
GAME_FILES = sorted((ROOT / "src" / "reelforge" / "games").glob("*/*.toml")) + sorted(
    (ROOT / "conformance").glob("*/*.toml"))
# Every module that reads a game file's keys: the line loader, each family's builder, the parts they
# share (spec/parts.py) and the
# spec part of every registered rules module (each reads its own [features] tables).
LOADER_SOURCES = [ROOT / "src" / "reelforge" / "spec" / "load.py",
                  ROOT / "src" / "reelforge" / "spec" / "clusters.py",
                  ROOT / "src" / "reelforge" / "spec" / "cluster_features.py",
                  ROOT / "src" / "reelforge" / "spec" / "ways.py",
                  ROOT / "src" / "reelforge" / "spec" / "anywhere.py",
                  ROOT / "src" / "reelforge" / "spec" / "holdwin.py",
                  ROOT / "src" / "reelforge" / "spec" / "parts.py",
                  ROOT / "src" / "reelforge" / "games" / "candy_jar_clusters" / "spec.py",
                  ROOT / "src" / "reelforge" / "games" / "cops_n_robbers" / "spec.py"]
FAMILIES = ("lines", "clusters", "ways", "anywhere", "holdwin")

# Optional branches that no shipped or conformance file takes: a wild with a list of
# substitutes, several wilds multiplying, a separate retrigger award, bet limits, a scatter
# that pays by cells, weighted stops.
SYNTHETIC_LINES = """
[game]
id = "doc-every-branch-v1"
name = "Every branch"
description = "synthetic: the loader's optional keys"
family = "lines"
reels = 3
rows = 3

[symbols]
A = { role = "regular", name = "Ace" }
B = { role = "regular" }
W = { role = "wild" }
S = { role = "scatter" }

[paytable]
A = { 3 = 20 }
B = { 3 = 5 }

[lines]
paylines = [[1, 1, 1], [0, 0, 0]]
wild_multiplier_combine = "product"
pure_wild_vs_substituted = "substituted"

[lines.wild.W]
substitutes = ["A", "B"]
except = ["B"]
multiplier = 2

[scatter.S]
counting = "cells"
pays = { 3 = 2 }

[reels.base]
strips = ["A B W S A B", "A B S W A B", "B A W B S B"]
weights = [[1, 2, 3, 1, 2, 3], [1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2]]

[reels.free]
strips = [["A", "B", "W", "A", "B"], ["A", "B", "S", "B", "A"], ["B", "A", "W", "A", "B"]]

[bet]
min_lines = 1
max_lines = 2
max_bet_per_line = 3
denominations = [1, 5]
max_win_minor = 100000

[features.free_games]
trigger = "S"
award = { 3 = 5 }
retrigger = "capped"
retrigger_award = { 3 = 2 }
max_total_spins = 20
multiplier = 2
reel_set = "free"
"""

# A standard cluster game (no rules module) with strip refills and a second, weighted set.
SYNTHETIC_CLUSTERS = """
[game]
id = "doc-plain-clusters-v1"
name = "Plain clusters"
description = "synthetic: the cluster loader's optional keys"
family = "clusters"
rows = 3
cols = 3

[symbols]
A = { role = "regular" }
B = { role = "regular" }
W = { role = "wild", multiplier = 2 }

[clusters]
min_size = 3

[clusters.pays]
A = { 3 = 10, 5 = 30 }
B = { 3 = 5 }

[clusters.wilds.W]
except = ["B"]

[bet]
coins = 10
max_coin_value = 5
denominations = [1]
max_win_x = 500

[reels.base]
strips = [["A", "B", "W", "A"], ["B", "A", "B", "B"], ["A", "A", "B", "W"]]

[reels.other.weights]
A = [1, 2, 3]
B = [3, 2, 1]
W = [0, 1, 0]

[random_multiplier.base]
values = [1, 2]
weights = [9, 1]
"""


# ---------------------------------------------------------------- the doc


def documented_keys(text: str) -> dict[str, list[str]]:
    """Family -> documented key patterns, in the doc's order (see the module docstring)."""
    out: dict[str, list[str]] = {f: [] for f in FAMILIES}
    family = None
    for line in text.splitlines():
        marker = re.fullmatch(r"\s*<!-- keys: (\w+) -->\s*", line)
        if marker:
            family = None if marker.group(1) == "end" else marker.group(1)
            assert family is None or family in FAMILIES, f"{DOC.name}: unknown family {family!r}"
            continue
        row = re.match(r"\|\s*`([^`]+)`\s*\|", line)
        if family is not None and row:
            out[family].append(row.group(1))
    return out


def doc_examples(text: str) -> list[tuple[str, str]]:
    """(family, TOML text) of every example marked as a complete game file."""
    found = re.findall(r"<!-- example: (\w+) -->\s*```toml\n(.*?)```", text, flags=re.DOTALL)
    return [(family, body) for family, body in found]


def matches(pattern: str, key: str) -> bool:
    want, got = pattern.split("."), key.split(".")
    return len(want) == len(got) and all(
        w == g or (w.startswith("<") and w.endswith(">") and not g.endswith("[]"))
        for w, g in zip(want, got))


# ---------------------------------------------------------------- the loader


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _file_keys(data: Any, path: str = "") -> Iterable[str]:
    """Every dotted key of a parsed TOML document; items of arrays of tables as `name[]`."""
    if isinstance(data, dict):
        for name, value in data.items():
            key = _join(path, name)
            yield key
            yield from _file_keys(value, key)
    elif isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        for item in data:
            yield from _file_keys(item, path + "[]")


def accepted_keys(sources: Iterable[tuple[str, str]]) -> dict[str, dict[str, str]]:
    """Family -> {accepted concrete key: first file it came from}, loading each (name, text)."""
    out: dict[str, dict[str, str]] = {f: {} for f in FAMILIES}
    tables: list[Any] = []
    known: list[tuple[str, tuple[str, ...]]] = []
    table = load_module.Table
    original_init, original_finish = table.__init__, table.finish

    def init(self, source, path, data):
        original_init(self, source, path, data)
        tables.append(self)

    def finish(self, names=None, what="key"):
        known.append((self.path, tuple(names or ())))
        return original_finish(self, names, what)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(table, "__init__", init)
        mp.setattr(table, "finish", finish)
        for name, text in sources:
            tables.clear()
            known.clear()
            spec = parse_spec(text, name)
            keys = set(_file_keys(tomllib.loads(text)))
            for t in tables:
                keys.update(_join(t.path, k) for k in t.read | set(t.data))
            keys.update(_join(path, k) for path, names in known for k in names)
            for key in keys:
                out[spec.family].setdefault(key, name)
    return out


def loader_literal_names() -> set[str]:
    """Key names the loader's source reads by literal: `t.get("x")`, `.int`, `.choice`, `.sub`,
    `.pop`, `"x" in t.data`, a helper called as `helper(table, "x", ...)` or `reel_set("x")`."""
    names: set[str] = set()
    for path in LOADER_SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            args: list[ast.expr] = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("get", "int", "choice", "sub", "pop"):
                args = node.args[:1]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    not node.func.id[:1].isupper():  # a helper, not a class built from strings
                first = node.args[:1]
                args = node.args[1:2] if first and isinstance(first[0], ast.Name) else first
            elif isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In) and \
                    isinstance(node.comparators[0], ast.Attribute) and \
                    node.comparators[0].attr == "data":
                args = [node.left]
            names.update(a.value for a in args if isinstance(a, ast.Constant)
                         and isinstance(a.value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", a.value))
    return names


# ---------------------------------------------------------------- the checks


def undocumented(accepted: dict[str, dict[str, str]], doc: dict[str, list[str]]) -> list[str]:
    return sorted(f"[{family}] {key}   (accepted in {source})"
                  for family in FAMILIES for key, source in accepted[family].items()
                  if not any(matches(p, key) for p in doc[family]))


def invented(accepted: dict[str, dict[str, str]], doc: dict[str, list[str]]) -> list[str]:
    return [f"[{family}] {p}" for family in FAMILIES for p in doc[family]
            if not any(matches(p, key) for key in accepted[family])]


@pytest.fixture(scope="module")
def doc_text() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def accepted(doc_text) -> dict[str, dict[str, str]]:
    sources = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in GAME_FILES]
    sources += [("synthetic-lines.toml", SYNTHETIC_LINES),
                ("synthetic-clusters.toml", SYNTHETIC_CLUSTERS)]
    sources += [(f"{DOC.name} example {i}", body)
                for i, (_f, body) in enumerate(doc_examples(doc_text), 1)]
    return accepted_keys(sources)


def test_the_examples_in_the_doc_are_complete_game_files(doc_text):
    examples = doc_examples(doc_text)
    assert sorted({family for family, _ in examples}) == sorted(FAMILIES)
    for i, (family, body) in enumerate(examples, 1):
        spec = parse_spec(body, f"{DOC.name} example {i}")
        assert spec.family == family, f"example {i} is marked {family} but loads as {spec.family}"


def test_every_key_the_loader_accepts_is_documented(accepted, doc_text):
    missing = undocumented(accepted, documented_keys(doc_text))
    assert not missing, (
        f"{len(missing)} key(s) the loader accepts are not in {DOC.relative_to(ROOT)}; add a "
        "table row for each (type, default, meaning, example):\n  " + "\n  ".join(missing))


def test_every_documented_key_is_accepted_by_the_loader(accepted, doc_text):
    extra = invented(accepted, documented_keys(doc_text))
    assert not extra, (
        f"{DOC.relative_to(ROOT)} documents key(s) that no game file, example or synthetic file "
        "loaded here uses and the loader does not read:\n  " + "\n  ".join(extra))


def test_every_key_named_in_the_loader_source_is_documented(doc_text):
    """Also the keys of branches that no file above reaches."""
    doc = documented_keys(doc_text)
    last = {p.split(".")[-1].removesuffix("[]") for f in FAMILIES for p in doc[f]}
    missing = sorted(loader_literal_names() - last)
    assert not missing, (f"the loader reads these key names, which no key row of "
                         f"{DOC.relative_to(ROOT)} ends with: {', '.join(missing)}")


def test_each_key_is_documented_once(doc_text):
    for family, patterns in documented_keys(doc_text).items():
        twice = sorted({p for p in patterns if patterns.count(p) > 1})
        assert not twice, f"[{family}] documented more than once: {twice}"


def test_the_check_catches_a_missing_row_and_an_invented_one(accepted, doc_text):
    """The comparison itself can fail: drop one row, invent one, and exactly those are named."""
    doc = documented_keys(doc_text)
    dropped = re.sub(r"^\| `features\.free_games\.retrigger_award` \|.*\n", "", doc_text,
                     flags=re.MULTILINE)
    assert dropped != doc_text
    new = set(undocumented(accepted, documented_keys(dropped))) - set(undocumented(accepted, doc))
    assert [m.split()[1] for m in new] == ["features.free_games.retrigger_award"]
    with_row = doc_text.replace("<!-- keys: end -->",
                                "| `game.colour` | string | \"\" | made up |\n<!-- keys: end -->", 1)
    new = set(invented(accepted, documented_keys(with_row))) - set(invented(accepted, doc))
    assert new == {"[lines] game.colour"}


def test_the_files_the_doc_points_to_exist(doc_text):
    paths = set(re.findall(r"`((?:src|conformance|tests|docs|tools)/[^`\s]+)`", doc_text))
    assert paths, "the doc points to no real file"
    missing = sorted(p for p in paths if not any(ROOT.glob(p)))
    assert not missing, f"{DOC.name} points to files that do not exist: {missing}"
