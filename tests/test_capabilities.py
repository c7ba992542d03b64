"""Capabilities are declared, not probed: every shipped game declares known capabilities with
exactly one analysis; rules modules sign their family's contract, refused at load otherwise;
and no module outside the registries asks `hasattr`, probes with a defaulted `getattr`, or
compares against a game id, a rules name or a family name; the server too, but for its few
JSON-shaping probes, each allowed in its one function."""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path

import pytest

from reelforge.analysis import capabilities as dispatch
from reelforge.analysis.trail import TRAIL_FIELDS
from reelforge.engine import capabilities as cap
from reelforge.engine.check import GameCheckFailed, check_capabilities
from reelforge.engine.families import FAMILIES
from reelforge.engine.protocol import Game
from reelforge.engine.rules_protocol import CONTRACTS, PARTS, check_rules
from reelforge.errors import SpecError
from reelforge.games import make, shipped_games
from reelforge.spec.rules import RULES_PACKAGES, rules_module

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "reelforge"
# The registries: the only modules that may map a name to a family, a rules package or an
# implementation. spec/load.py picks the spec builder by the file's family.
REGISTRIES = {"engine/families.py", "engine/capabilities.py", "engine/rules_protocol.py",
              "spec/rules.py", "spec/load.py", "analysis/capabilities.py"}
# The server's few attribute probes ask nothing of a game: they shape any value as JSON, cache
# a request's parsed body and read an exception's or a wallet answer's optional field. Each is
# allowed in its one function; a name compared anywhere in the server is not.
SERVER_PROBES = {("server/services/round_views.py", "state_dict"),
                 ("server/services/round_views.py", "plain_json"),
                 ("server/api/app.py", "json"), ("server/api/app.py", "database_down"),
                 ("server/wallets/client.py", "_read")}


def scanned() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py"))
            if str(p.relative_to(PACKAGE)) not in REGISTRIES]


def _functions_by_line(tree: ast.AST) -> dict[int, str]:
    """The innermost function around each line (ast.walk visits outer functions first)."""
    where: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            where.update({line: node.name for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)})
    return where


def allowed(path: Path, tree: ast.AST, line: int, what: str) -> bool:
    if what.startswith("compares"):
        return False
    return (str(path.relative_to(PACKAGE)), _functions_by_line(tree).get(line, "")) in SERVER_PROBES


def names_that_select_a_game() -> set[str]:
    """Game ids and rules names anywhere in a comparison."""
    return set(shipped_games()) | set(RULES_PACKAGES)


def _names_family(node: ast.AST) -> bool:
    """A side that reads a family (`spec.family`, `family`, `module.FAMILY`): a family name is
    also a plain word ("lines" is a bet's key), so only a comparison with one of these counts."""
    return (isinstance(node, ast.Attribute) and node.attr.lower() == "family"
            or isinstance(node, ast.Name) and node.id.lower() == "family")


def probes(tree: ast.AST, forbidden: set[str]) -> list[tuple[int, str]]:
    families = set(FAMILIES)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "hasattr":
                found.append((node.lineno, "hasattr"))
            elif (node.func.id == "getattr" and len(node.args) == 3
                  and isinstance(node.args[1], ast.Constant)):
                found.append((node.lineno, f"getattr(..., {node.args[1].value!r}, default)"))
        elif isinstance(node, ast.Compare):
            sides = (node.left, *node.comparators)
            words = forbidden | (families if any(_names_family(s) for s in sides) else set())
            for side in sides:
                if isinstance(side, ast.Constant) and side.value in words:
                    found.append((node.lineno, f"compares with {side.value!r}"))
                elif isinstance(side, (ast.Tuple, ast.List, ast.Set)):
                    found += [(node.lineno, f"compares with {e.value!r}") for e in side.elts
                              if isinstance(e, ast.Constant) and e.value in words]
    return found


def test_no_module_outside_the_registries_probes_a_game_or_tests_its_name():
    forbidden = names_that_select_a_game()
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in scanned()}
    bad = [f"{path.relative_to(PACKAGE)}:{line}: {what}" for path, tree in trees.items()
           for line, what in probes(tree, forbidden) if not allowed(path, tree, line, what)]
    assert not bad, "\n".join(bad)


def test_the_scan_finds_what_it_forbids():
    code = ("if hasattr(rules, 'bonus_starts'): pass\n"
            "x = getattr(game, 'strata', None)\n"
            "if game.id == 'cluedo-v1' or spec.rules in ('candy_jar',): pass\n"
            "if family != 'clusters' or spec.family in ('ways',): pass\n"
            "if {'lines', 'bet_per_line'} <= set(bet): pass\n")
    found = [what for _, what in sorted(probes(ast.parse(code), names_that_select_a_game()))]
    assert found == ["hasattr", "getattr(..., 'strata', default)", "compares with 'candy_jar'",
                     "compares with 'cluedo-v1'", "compares with 'clusters'", "compares with 'ways'"]


def test_a_server_probe_is_allowed_only_in_its_own_function():
    path = PACKAGE / "server" / "services" / "round_views.py"
    tree = ast.parse("def state_dict(s):\n    return hasattr(s, 'to_dict')\n"
                     "def choice_odds(step):\n    return hasattr(step, 'odds')\n"
                     "def plain_json(v):\n    return v == 'cluedo-v1'\n")
    found = probes(tree, names_that_select_a_game())
    assert [(line, allowed(path, tree, line, what)) for line, what in found] == [
        (2, True), (4, False), (6, False)]


@pytest.mark.parametrize("game_id", sorted(shipped_games()))
def test_every_shipped_game_declares_known_capabilities_with_one_analysis(game_id):
    game = make(game_id)
    check_capabilities(game.id, game.capabilities)
    build, write = dispatch.par_sheet(game)
    assert callable(build) and callable(write)
    assert dispatch.exact_available(game) == (dispatch.analysis_of(game) in dispatch.EXACT)
    assert dispatch.exact_available(game) != bool(dispatch.no_exact_reason(game))


def test_every_dispatch_table_covers_every_analysis_and_names_importable_functions():
    assert set(dispatch.PAR_SHEETS) == set(cap.PAR_SHEETS)
    assert set(dispatch.EXACT) | set(dispatch.NO_EXACT) == set(cap.ANALYSES)
    assert not set(dispatch.EXACT) & set(dispatch.NO_EXACT)
    for ref in [*dispatch.EXACT.values(), *(r for pair in dispatch.PAR_SHEETS.values() for r in pair)]:
        assert callable(dispatch._named(ref)), ref


@pytest.mark.parametrize(("declared", "words"), [
    (frozenset({cap.EXACT_LINES, cap.PAR_LINES, "telepathy"}), "unknown capabilities ['telepathy']"),
    (frozenset({cap.PAR_LINES, cap.LINE_DRAWS}), "declares the analyses []"),
    (frozenset({cap.EXACT_LINES, cap.STRATIFIED, cap.PAR_LINES}),
     "declares the analyses ['exact_lines', 'stratified_estimate']"),
    (frozenset({cap.EXACT_LINES}), "declares the PAR sheets []"),
    (frozenset({cap.EXACT_WAYS, cap.PAR_WAYS, cap.PAR_LINES}),
     "declares the PAR sheets ['par_lines', 'par_ways']")])
def test_check_game_refuses_unknown_capabilities_and_other_than_one_analysis_or_sheet(declared, words):
    with pytest.raises(GameCheckFailed, match=words.replace("[", r"\[").replace("]", r"\]")):
        check_capabilities("x-v1", declared)


@pytest.mark.parametrize("name", sorted(RULES_PACKAGES))
def test_every_rules_module_signs_its_family_contract_and_its_declared_parts(name):
    module = rules_module(name, "game")
    family = rules_module(name, "spec").FAMILY
    assert check_rules(name, family, module) is module
    owed = set(CONTRACTS[family]) | {m for part in module.CAPABILITIES & PARTS.keys()
                                     for m in PARTS[part]}
    assert owed <= set(vars(module))
    assert module.CAPABILITIES <= cap.CAPABILITIES.keys()


def test_a_rules_module_missing_a_member_is_refused_naming_it():
    fake = types.ModuleType("fake_rules")
    real = rules_module("cops_trail", "game")
    for member in CONTRACTS["lines"]:
        setattr(fake, member, getattr(real, member))
    fake.CAPABILITIES = frozenset()
    check_rules("fake", "lines", fake)  # the whole contract: accepted
    fake.CAPABILITIES = frozenset({cap.BONUS})  # declares the bonus, lacks one of its functions
    fake.play_bonus = real.play_bonus
    with pytest.raises(SpecError, match="contract asks for bonus_starts"):
        check_rules("fake", "lines", fake)
    fake.bonus_starts = real.bonus_starts
    del fake.max_round_win
    with pytest.raises(SpecError, match="contract asks for max_round_win"):
        check_rules("fake", "lines", fake)


def test_a_game_declaring_the_trail_carries_it():
    for game_id in shipped_games():
        game = make(game_id)
        if cap.TRAIL in game.capabilities:
            assert set(TRAIL_FIELDS) <= set(game.rules_model._fields), game_id


def test_the_core_protocol_fits_on_one_screen():
    """Gymnasium's `Env` is the model: what every game does, nothing the analysis asks."""
    lines = inspect.getsource(Game).splitlines()
    assert len(lines) <= 50, len(lines)
    members = {n for n in vars(Game) if not n.startswith("_")} | set(Game.__annotations__)
    assert not members & {"capabilities", "labels", "simulate", "max_round_win", "check"}
