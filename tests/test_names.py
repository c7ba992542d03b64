"""Names, not positions: tape kinds numbered in one enum, every kind a kernel writes decoded by
an outcome builder, counters indexed by IntEnums their field names derive from, and kernel
results read by field name."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import numpy as np

from reelforge.analysis.stratified import BaseStratum, FeatureStratum
from reelforge.engine import cluster_strata, clusters, counters, lines
from reelforge.engine.cluster_round import PlainRoundResult, play_plain_round
from reelforge.engine.game_parts import live_stats
from reelforge.engine.tape import TAPE_WIDTH, TapeKind
from reelforge.games import make
from reelforge.games.candy_jar_clusters import kernel as candy_kernel

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "reelforge"
WRITERS = ("write_row", "write_grid")


def source_files():
    return sorted(PACKAGE.rglob("*.py"))


def kinds_in(node) -> set[str]:
    """Names of the TapeKind members a node mentions (`TapeKind.X`)."""
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "TapeKind"}


def written_and_decoded(path: Path) -> tuple[set[str], set[str]]:
    """(kinds the module writes: TapeKind members in write_row/write_grid calls, kinds it
    decodes: TapeKind members compared with something)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    written: set[str] = set()
    decoded: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in WRITERS:
            written |= kinds_in(node)
        elif isinstance(node, ast.Compare):
            decoded |= kinds_in(node)
    return written, decoded


def family_of(path: Path) -> str | None:
    """The engine whose tape a module writes: the one its write_row comes from."""
    text = path.read_text(encoding="utf-8")
    # the families with a kernel module of their own, decoded by their own game module
    own = {"anywhere.py": "anywhere", "holdwin.py": "holdwin", "ways.py": "ways"}
    if path.parent == PACKAGE / "engine" and path.name in own:
        return own[path.name]
    if path == PACKAGE / "engine" / "lines.py" or re.search(
            r"from reelforge\.engine\.lines import \([^)]*\bwrite_row\b", text):
        return "lines"
    if path.parent == PACKAGE / "engine" and path.name in ("clusters.py", "cluster_round.py") \
            or re.search(r"from reelforge\.engine\.clusters import \([^)]*\bwrite_row\b", text):
        return "clusters"
    return None


def test_tape_kinds_are_numbered_once_in_one_enum():
    values = [m.value for m in TapeKind.__members__.values()]
    assert len(values) == len(set(values)), "two tape kinds share a number"
    assert all(v > 0 for v in values)  # 0 is an unwritten row
    assigned = []
    for path in source_files():
        if path.name == "tape.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*TAPE_\w+\s*=\s*-?\d", line) and "TAPE_ROWS" not in line:
                assigned.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert not assigned, "tape numbers outside engine/tape.py:\n" + "\n".join(assigned)


def test_every_kind_a_kernel_writes_is_decoded_by_an_outcome_builder():
    engine = PACKAGE / "engine"
    # the ways-based rounds (ways, hold and win) open with a spin row that the families' shared
    # glue decodes (game_parts.opening_window)
    shared = written_and_decoded(engine / "game_parts.py")[1]
    builders = {"lines": written_and_decoded(engine / "round.py")[1],
                "clusters": written_and_decoded(engine / "cluster_game.py")[1],
                "ways": written_and_decoded(engine / "ways_game.py")[1] | shared,
                "anywhere": written_and_decoded(engine / "anywhere_game.py")[1],
                # hold and win plays the ways' spin first: its builder decodes both
                "holdwin": (written_and_decoded(engine / "holdwin_game.py")[1]
                            | written_and_decoded(engine / "ways_game.py")[1] | shared)}
    written_anywhere: set[str] = set()
    missing = []
    writers = 0
    for path in source_files():
        written, _ = written_and_decoded(path)
        if not written:
            continue
        writers += 1
        family = family_of(path)
        assert family is not None, f"{path}: writes tape rows of no known engine"
        decoded = set(builders[family])
        own = path.parent / "game.py"  # a rules module decodes its own rows (`decode_row`)
        if path.parent.parent == PACKAGE / "games" and own.is_file():
            decoded |= written_and_decoded(own)[1]
        missing += [f"{path.relative_to(PACKAGE)}: {k}" for k in sorted(written - decoded)]
        written_anywhere |= written
    assert writers >= 5  # lines, clusters, cluster_round and the two rules kernels
    assert not missing, "kinds written but never decoded:\n" + "\n".join(missing)
    assert written_anywhere == set(TapeKind.__members__), "kinds no kernel writes"


def test_counters_are_indexed_by_enums_their_field_names_derive_from():
    for enum, names in ((counters.Sim, counters.SIM_FIELDS), (clusters.ClusterSim, clusters.SIM_FIELDS),
                        (cluster_strata.BaseField, cluster_strata.BASE_FIELDS),
                        (cluster_strata.BaseExtra, cluster_strata.BASE_EXTRA),
                        (cluster_strata.FreeField, cluster_strata.FREE_FIELDS)):
        assert [m.value for m in enum] == list(range(len(enum))), enum
        assert names == tuple(m.name.lower() for m in enum)
    # analysis.stratified reads the strata's counters by these names
    assert {f.name for f in dataclasses.fields(FeatureStratum)} == {*cluster_strata.FREE_FIELDS,
                                                                     "squares"}
    assert set(cluster_strata.BASE_EXTRA) <= {f.name for f in dataclasses.fields(BaseStratum)}
    magic = []
    for path in source_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\b(counters|extra)\[\d+\]", line):
                magic.append(f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}")
    assert not magic, "counters by number:\n" + "\n".join(magic)


def rows_written(tape: np.ndarray) -> int:
    return int(np.count_nonzero(tape[:, 0]))


def test_kernels_return_named_results():
    rng = np.random.PCG64(7)  # kernels take the bit generator (engine/rng.py)
    for game_id in ("cluedo-v1", "cops-n-robbers-v1"):
        game = make(game_id)
        bet = game.max_bet
        model = game.model_for(bet)
        for _ in range(20):
            stops = np.zeros(model.n_reels, dtype=np.int64)
            window = np.zeros((model.n_reels, model.n_rows), dtype=np.int16)
            tape = np.zeros((4096, TAPE_WIDTH + model.n_reels), dtype=np.int64)
            if game.rules is None:
                result = lines.play_rounds(model, bet.lines, bet.bet_per_line, False, rng, 1,
                                           True, *live_stats(), stops, window, tape)
            else:
                result = game.rules.play(game, model, bet, False, rng, stops, window, tape, True)
            assert type(result) is lines.RoundResult
            assert result.tape_rows == rows_written(tape)
            won = (result.line_win + result.scatter_win + result.collect_win + result.free_win
                   + result.bonus_win)
            assert result.total == (min(won, model.cap) if model.cap else won)
            assert result.win_capped == (result.total < won)
    candy = make("candy-jar-clusters-v1")
    cells, meters = candy.rules.buffers(candy)
    for _ in range(20):
        work = clusters.new_buffers(candy.model, 4096)
        round_ = candy_kernel.play_round(candy.model, candy.rules_model, rng, work, cells, meters,
                                         True)
        assert type(round_) is candy_kernel.CandyRoundResult
        assert round_.tape_rows == rows_written(work.tape)
        assert round_.total == round_.base_win + round_.free_win
    # a standard cluster game's round: one spin (a cluster round's first row opens it)
    result = play_plain_round(candy.model, *clusters.NO_MULTIPLIER, 0, rng, work, True)
    assert type(result) is PlainRoundResult
    assert work.tape[0, 0] == TapeKind.CLUSTER_SPIN
    assert work.tape[result.tape_rows - 1, 0] == TapeKind.SPIN_WIN
