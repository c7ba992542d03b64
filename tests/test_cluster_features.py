"""A standard cluster game's features as data (spec/cluster_features.py, engine/cluster_features.py):
a scatter counted after the tumbles paying free spins, grid multipliers that last the round.

The reference below plays a round from the game file's data alone, in plain Python, on the
same draws (every bounded draw is `draw_below(n)` on the same Generator, in the order the
rules give: the drawn grid column by column and top to bottom, the refills of each tumble
column by column, top to bottom); the kernel's outcome must match it event for event.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from reelforge.engine import cluster_features as cf
from reelforge.engine.clusters import new_buffers
from reelforge.engine.families import compile_game
from reelforge.engine.outcome import Bet
from reelforge.engine.rng import draw_below
from reelforge.errors import SpecError
from reelforge.games import make
from reelforge.spec import load_spec

GAME_ID = "cluster-mult-example-v1"
GAME_FILE = Path(__file__).parents[1] / "src/reelforge/games/cluster_mult_example/cluster-mult-example-v1.toml"
TEXT = GAME_FILE.read_text(encoding="utf-8")


def variant(tmp_path, *edits, name="g.toml") -> Path:
    text = TEXT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# A variant where free spins come often and the cap bites, so few rounds cover every path.
HOT = (("SCATTER = [8, 8, 7, 8, 7, 8, 8]", "SCATTER = [60, 60, 60, 60, 60, 60, 60]"),
       ("SCATTER = [4, 4, 4, 4, 4, 4, 4]", "SCATTER = [30, 30, 30, 30, 30, 30, 30]"),
       ("max_spins = 100", "max_spins = 25"),
       ("max_win_x = 5000", "max_win_x = 300"))


# -- the reference ----------------------------------------------------------------------------
def weighted(weights, rng) -> int:
    t = int(draw_below(rng.bit_generator, sum(weights)))
    for i, w in enumerate(weights):
        if t < w:
            return i
        t -= w
    raise AssertionError("draw outside the weights")


class Ref:
    def __init__(self, spec):
        self.spec = spec
        self.ids = list(spec.symbol_ids)
        self.rows, self.cols = spec.rows, spec.cols
        self.weights = {rs.name: [[dict(rs.weights).get(s, [0] * spec.cols)[c] for s in self.ids]
                                  for c in range(spec.cols)] for rs in spec.reel_sets}
        self.pays = dict(spec.pays)
        self.subs = dict(spec.substitutes)
        self.f = spec.features
        self.cap = spec.max_win_x * spec.bet.max_lines

    def pay(self, sym, size):
        paid = [p for n, p in self.pays.get(sym, ()) if n <= size]
        return paid[-1] if size >= self.spec.min_size and paid else 0

    def clusters(self, grid, marks):
        """[(symbol, size, win, grid multiplier)], winning cells, by symbol then first cell."""
        out, won = [], set()
        for sym in self.ids:
            if sym not in self.pays:
                continue
            done = set()
            for r0 in range(self.rows):
                for c0 in range(self.cols):
                    if grid[r0][c0] != sym or (r0, c0) in done:
                        continue
                    comp, todo = {(r0, c0)}, deque([(r0, c0)])
                    while todo:
                        r, c = todo.popleft()
                        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                            if 0 <= n[0] < self.rows and 0 <= n[1] < self.cols and n not in comp:
                                g = grid[n[0]][n[1]]
                                if g == sym or sym in self.subs.get(g, ()):
                                    comp.add(n)
                                    todo.append(n)
                    done |= comp
                    base = self.pay(sym, len(comp))
                    if base > 0:
                        on = sum(marks[r][c] for r, c in comp if marks[r][c] >= 2) or 1
                        out.append((sym, len(comp), base * on, on))
                        won |= comp
        return out, won

    def spin(self, rs, rng, marks):
        w = self.weights[rs]
        cols = [[self.ids[weighted(w[c], rng)] for _ in range(self.rows)] for c in range(self.cols)]
        grid = [[cols[c][r] for c in range(self.cols)] for r in range(self.rows)]
        gm = self.f.grid_multipliers
        events, win = [], 0
        while True:
            found, won = self.clusters(grid, marks)
            if not found:
                break
            win += sum(x[2] for x in found)
            for r, c in won:
                m = marks[r][c]
                marks[r][c] = 1 if m == 0 else gm.start if m == 1 else min(m * gm.growth, gm.max)
            events.append((found, [row[:] for row in marks]))
            for c in range(self.cols):
                kept = [grid[r][c] for r in range(self.rows) if (r, c) not in won]
                new = [self.ids[weighted(w[c], rng)] for _ in range(self.rows - len(kept))]
                for r, s in enumerate(new + kept):
                    grid[r][c] = s
        scatters = sum(row.count(self.f.free_spins.scatter) for row in grid)
        return win, events, scatters

    def round(self, rng):
        """[(kind, win, [(clusters, marks)], award or None)] and the total."""
        fs = self.f.free_spins
        marks = [[0] * self.cols for _ in range(self.rows)]
        win, events, n = self.spin(self.spec.reel_sets[0].name, rng, marks)
        total = min(win, self.cap)
        capped = win >= self.cap
        award = dict_award(fs.awards, n)
        awarded = min(award, fs.max_spins) if not capped else 0
        spins = [("base", total, events, (n, awarded) if awarded else None)]
        played = 0
        while played < awarded and not capped:
            played += 1
            win, events, n = self.spin(fs.reel_set, rng, marks)
            if total + win >= self.cap:
                win, capped = self.cap - total, True
            total += win
            extra = None
            if not capped and dict_award(fs.retrigger, n):
                added = min(dict_award(fs.retrigger, n), fs.max_spins - awarded)
                awarded += added
                extra = (n, added)
            spins.append(("free", win, events, extra))
        return spins, total


def dict_award(pairs, n):
    got = [spins for count, spins in pairs if count <= n]
    return got[-1] if got else 0


def kernel_view(outcome):
    """The outcome in the reference's shape (wins in coins at a coin value of 1)."""
    spins = []
    for s in outcome.spins:
        events, clusters = [], []
        for e in s.events:
            if e.type == "cluster_win":
                clusters.append((e.symbol, e.size, e.win))
            elif e.type == "grid_multipliers":
                marks = [[e.cells[c][r] for c in range(len(e.cells))] for r in range(len(e.cells[0]))]
                events.append(([(*x, m) for x, m in zip(clusters, e.applied, strict=True)], marks))
                clusters = []
        award = next(((e.trigger_count, e.spins_awarded) for e in s.events
                      if e.type == "free_spins_award"), None)
        spins.append((s.kind, s.win, events, award))
    return spins


@pytest.mark.parametrize(("hot", "bitboard"), [(False, True), (True, True), (True, False)])
def test_kernel_round_equals_the_reference(tmp_path, hot, bitboard):
    """On 7 x 7 the clusters are searched on bitboards; bitboard=False takes the flood fill
    that larger grids use."""
    game = compile_game(load_spec(variant(tmp_path, *(HOT if hot else ()))))
    assert game.model.bitboard
    if not bitboard:
        game = dataclasses.replace(game, model=game.model._replace(bitboard=False))
    ref = Ref(game.spec)
    bet = Bet(20, 1)
    free_rounds = capped = marked = 0
    for seed in range(60 if hot else 150):
        out = game.play(bet, np.random.Generator(np.random.PCG64(seed)))
        spins, total = ref.round(np.random.Generator(np.random.PCG64(seed)))
        assert kernel_view(out) == spins, f"seed {seed}"
        assert out.total_win == total
        free_rounds += len(spins) > 1
        capped += out.win_capped
        marked += any(m >= 2 for s in spins for _c, marks in s[2] for row in marks for m in row)
    assert free_rounds and marked  # the paths under test were taken
    assert capped or not hot


def rounds_leave_marks(game, seed):
    """A FeatureBuffers after one round from `seed`, and the bit generator where it stopped."""
    rng = np.random.PCG64(seed)
    fb = cf.new_feature_buffers(game.model)
    cf.play_feature_round(game.model, game.features, rng, new_buffers(game.model), fb, False)
    return fb, rng


def test_marks_reset_at_the_start_of_every_round():
    game = make(GAME_ID)
    seed = next(s for s in range(500) if (rounds_leave_marks(game, s)[0].marks >= 2).any())
    fb, rng = rounds_leave_marks(game, seed)
    assert (fb.marks >= 2).any()  # the first round leaves multipliers on the grid
    state = rng.state
    again = new_buffers(game.model, 2048)
    second = cf.play_feature_round(game.model, game.features, rng, again, fb, True)
    rng.state = state
    clean = new_buffers(game.model, 2048)
    fresh = cf.play_feature_round(game.model, game.features, rng, clean,
                                  cf.new_feature_buffers(game.model), True)
    assert second == fresh
    assert np.array_equal(again.tape[:second.tape_rows], clean.tape[:fresh.tape_rows])
    # and the second round's first marks are its own first wins: no multiplier yet
    first_marks = next((row for row in clean.tape[:fresh.tape_rows] if row[0] == 27), None)
    if first_marks is not None:
        assert first_marks[7:].max() <= 1


def test_simulation_equals_the_rounds_played_one_by_one():
    """simulate reuses one set of buffers for every round; play makes new ones: equal totals
    say no round sees another's marks."""
    game = make(GAME_ID)
    bet = Bet(20, 1)
    n = 300
    rng = np.random.Generator(np.random.PCG64(7))
    played = [game.play(bet, rng) for _ in range(n)]
    values, _bands, _sq = game.simulate(bet, np.random.Generator(np.random.PCG64(7)), n, [1])
    assert values["total_win"] == sum(o.total_win for o in played)
    assert values["feature_spins"] == sum(o.counters.free_spins_played for o in played)


def test_same_seed_same_outcome():
    game = make(GAME_ID)
    bet = Bet(20, 3)
    for seed in (1, 2, 3):
        a = game.play(bet, np.random.Generator(np.random.PCG64(seed)), seed)
        b = game.play(bet, np.random.Generator(np.random.PCG64(seed)), seed)
        assert a.model_dump_json() == b.model_dump_json()


def test_check_game_passes():
    make(GAME_ID).check(rounds=300)


@pytest.mark.parametrize(("edits", "key"), [
    ((("[features.free_spins]", "[features.free_spinz]"),), "features.free_spinz"),
    ((("scatter = \"SCATTER\"", "scatter = \"RUBY\""),), "features.free_spins.scatter"),
    ((("reel_set = \"free\"", "reel_set = \"bonus\""),), "features.free_spins.reel_set"),
    ((("max_spins = 100", "max_spins = 0"),), "features.free_spins.max_spins"),
    ((("max_spins = 100", "max_spins = 1000000"),), "features.free_spins.max_spins"),
    ((("awards = { 3 = 10,", "awards = { x = 10,"),), "features.free_spins.awards.x"),
    ((("start = 2", "start = 1"),), "features.grid_multipliers.start"),
    ((("max = 128", "max = 1"),), "features.grid_multipliers.max"),
    ((("growth = 2", "growth = 2\nshape = 1"),), "features.grid_multipliers.shape"),
    ((("PEARL = { 5 =", "SCATTER = { 5 = 1 }\nPEARL = { 5 ="),), "clusters.pays.SCATTER"),
    ((("[features.free_spins]", "[features.unused]"), ("scatter = \"SCATTER\"\n", ""),
      ("awards = { 3", "x = { 3"), ("retrigger", "y"), ("reel_set", "z"), ("max_spins", "w")),
     "features"),
])
def test_bad_files_are_refused_naming_the_key(tmp_path, edits, key):
    with pytest.raises(SpecError) as info:
        load_spec(variant(tmp_path, *edits))
    assert key in str(info.value)


def test_a_scatter_needs_free_spins(tmp_path):
    text = re.sub(r"\[features\.free_spins\].*?(?=\[features\.grid)", "", TEXT, flags=re.DOTALL)
    path = tmp_path / "g.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match="features.free_spins"):
        load_spec(path)


def test_check_warns_of_a_scatter_count_above_the_grid(tmp_path):
    path = variant(tmp_path, ("7 = 30 }", "7 = 30, 99 = 50 }"))
    result = subprocess.run([sys.executable, "-m", "reelforge.cli", "check", str(path), "--rounds", "200"],
                            capture_output=True, text=True, timeout=600, check=False)
    assert "warning:" in result.stderr and "features.free_spins.awards.99" in result.stderr
    assert "49 scatters" in result.stderr
    plain = subprocess.run([sys.executable, "-m", "reelforge.cli", "check", str(GAME_FILE), "--rounds",
                            "200"], capture_output=True, text=True, timeout=600, check=False)
    assert "warning:" not in plain.stderr
