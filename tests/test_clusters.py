"""The cluster kernels (reelforge.engine.clusters) against a naive reference written here.

The reference is written from the rules in words, not from the kernels: grids are lists of
lists, clusters are found per symbol by breadth-first search over sets of cells, the tumble
rebuilds each column as a list. Its rules:

* cells (r, c) are adjacent when they share a side (|dr| + |dc| == 1), never diagonally;
* a cluster of a non-wild symbol s is a connected component of the cells showing s or a wild
  w with substitutes[w][s], holding at least one cell that shows s itself; one wild may lie in
  clusters of several symbols and counts in each;
* a cluster of size n wins when n >= min_size and pays[s][min(n, len(pays[s]) - 1)] > 0;
  clusters are listed by symbol, then by their first cell of s in row-major order;
* the tumble removes every winning cell; in each column the rest keep their order at the
  bottom; the k empty cells on top are refilled: from the strip, the new top stop is
  (stop - k) mod len and row h shows strip[(stop + h) mod len]; from weights, one draw per
  cell top to bottom, symbol i when the draw t in [0, total) lies in i's band of the running
  sum;
* the grid is drawn column by column, left to right: a uniform stop, or a draw per cell top
  to bottom; every bounded draw is `draw_below(bits, n)` on the same bit generator;
* a wild may carry a multiplier: a winning cluster holding such wilds pays its table pay
  times the sum of their multipliers;
* a spin repeats find -> pay -> tumble while something wins, at most `guard` tumbles (after
  which a winning grid is paid and the spin stops), and pays the sum of all wins, times the
  random multiplier drawn (by integer weights) right after the first winning find; a table
  of one value draws nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import deque
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reelforge.engine.clusters import (
    NO_MULTIPLIER,
    SIM_FIELDS,
    build_cluster_model,
    find_clusters,
    multiplier_table,
    new_buffers,
    play_cluster_spin,
    simulate_cluster_spins,
    tumble,
)
from reelforge.engine.rng import draw_below
from reelforge.engine.tape import TapeKind
from reelforge.errors import InvalidArgument

HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]

# ---------------------------------------------------------------------------------------------
# The reference


@dataclass(frozen=True)
class Rules:
    rows: int
    cols: int
    min_size: int
    pays: list  # [symbol][size] -> pay in multiples of the bet
    wild: list  # [symbol] -> bool
    substitutes: list  # [wild][symbol] -> bool
    strips: list | None  # [col] -> list of symbols
    weights: list | None  # [col][symbol] -> integer weight
    guard: int
    wild_mult: list | None = None  # [symbol] -> multiplier of a wild (0: none)
    multiplier: tuple = ((1,), (1,))  # random multiplier: (values, weights)

    def model(self, bitboard=None):
        return build_cluster_model(self.rows, self.cols, self.pays, self.wild, self.min_size,
                                   substitutes=self.substitutes, strips=self.strips,
                                   weights=self.weights, tumble_guard=self.guard,
                                   bitboard=bitboard, wild_multipliers=self.wild_mult)

    def multiplier_table(self):
        return multiplier_table(*self.multiplier)


def ref_pay(rules, symbol, size):
    if size < rules.min_size:
        return 0
    table = rules.pays[symbol]
    return table[min(size, len(table) - 1)]


def ref_clusters(rules, grid):
    """[(symbol, size, wilds, pay, multiplier)] of the winning clusters, and the set of
    winning cells."""
    cells = [(r, c) for r in range(rules.rows) for c in range(rules.cols)]
    wins, winning = [], set()
    for s in range(len(rules.pays)):
        if rules.wild[s]:
            continue

        def allowed(cell, s=s):
            g = grid[cell[0]][cell[1]]
            return g == s or (rules.wild[g] and rules.substitutes[g][s])

        done = set()
        for start in cells:
            if grid[start[0]][start[1]] != s or start in done:
                continue
            component, todo = {start}, deque([start])
            while todo:
                r, c = todo.popleft()
                for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if (0 <= n[0] < rules.rows and 0 <= n[1] < rules.cols
                            and n not in component and allowed(n)):
                        component.add(n)
                        todo.append(n)
            done |= component
            wilds = sum(1 for r, c in component if rules.wild[grid[r][c]])
            mult = max(1, sum((rules.wild_mult or [0] * len(rules.wild))[grid[r][c]]
                              for r, c in component))
            pay = ref_pay(rules, s, len(component))
            if pay > 0:
                wins.append((s, len(component), wilds, pay * mult, mult))
                winning |= component
    return wins, winning


def ref_weighted(weights, t):
    running = 0
    for symbol, w in enumerate(weights):
        if running <= t < running + w:
            return symbol
        running += w
    raise AssertionError("draw outside the weights")


def ref_draw(rules, rng):
    """(grid, stops) drawn as the rules say."""
    columns, stops = [], []
    for c in range(rules.cols):
        if rules.weights is not None:
            w = rules.weights[c]
            columns.append([ref_weighted(w, int(draw_below(rng, sum(w))))
                            for _ in range(rules.rows)])
            stops.append(0)
        else:
            strip = rules.strips[c]
            stop = int(draw_below(rng, len(strip)))
            columns.append([strip[(stop + h) % len(strip)] for h in range(rules.rows)])
            stops.append(stop)
    grid = [[columns[c][r] for c in range(rules.cols)] for r in range(rules.rows)]
    return grid, stops


def ref_tumble(rules, grid, winning, rng, stops):
    """(new grid, new stops, cells refilled)."""
    columns, stops, refilled = [], list(stops), 0
    for c in range(rules.cols):
        kept = [grid[r][c] for r in range(rules.rows) if (r, c) not in winning]
        k = rules.rows - len(kept)
        refilled += k
        if rules.weights is not None:
            w = rules.weights[c]
            new = [ref_weighted(w, int(draw_below(rng, sum(w)))) for _ in range(k)]
        else:
            strip = rules.strips[c]
            stops[c] = (stops[c] - k) % len(strip)
            new = [strip[(stops[c] + h) % len(strip)] for h in range(k)]
        columns.append(new + kept)
    grid = [[columns[c][r] for c in range(rules.cols)] for r in range(rules.rows)]
    return grid, stops, refilled


def flat(grid):
    return [cell for row in grid for cell in row]


def ref_spin(rules, rng):
    """(win, tumbles, guard reached, events) with events as the kernel's tape rows."""
    grid, stops = ref_draw(rules, rng)
    events = [(TapeKind.GRID, 0, 0, 0, 0, 0, 0, *flat(grid))]
    win = tumbles = 0
    multiplier = 1
    guard = False
    values, weights = rules.multiplier
    while True:
        wins, winning = ref_clusters(rules, grid)
        if not wins:
            break
        blank = (0,) * (rules.rows * rules.cols)
        events += [(TapeKind.CLUSTER, tumbles, *w, *blank) for w in wins]
        if tumbles == 0 and (len(values) > 1 or values[0] != 1):
            multiplier = values[0]  # one value is certain: no draw
            if len(values) > 1:
                multiplier = values[ref_weighted(weights, int(draw_below(rng, sum(weights))))]
            events.append((TapeKind.MULTIPLIER, 0, multiplier, 0, 0, 0, 0, *blank))
        win += sum(w[3] for w in wins)
        if tumbles >= rules.guard:
            guard = True
            break
        grid, stops, refilled = ref_tumble(rules, grid, winning, rng, stops)
        tumbles += 1
        events.append((TapeKind.GRID, tumbles, refilled, 0, 0, 0, 0, *flat(grid)))
    return win * multiplier, tumbles, guard, events


# ---------------------------------------------------------------------------------------------
# Random small games


@st.composite
def rules_strategy(draw, refill=None):
    rows, cols = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    n_plain, n_wild = draw(st.integers(3, 6)), draw(st.integers(0, 2))
    n = n_plain + n_wild
    min_size = draw(st.integers(3, 6))
    width = draw(st.integers(min_size, rows * cols)) + 1  # sizes above the table pay its top
    pays = [draw(st.lists(st.integers(0, 9), min_size=width, max_size=width)) for _ in range(n)]
    wild = [False] * n_plain + [True] * n_wild
    substitutes = [[False] * n for _ in range(n)]
    for w in range(n_plain, n):
        substitutes[w][:n_plain] = draw(st.lists(st.booleans(), min_size=n_plain,
                                                 max_size=n_plain))
    refill = refill or draw(st.sampled_from(["strips", "weights"]))
    strips = weights = None
    if refill == "strips":
        strips = [draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=12))
                  for _ in range(cols)]
    else:
        weights = [draw(st.lists(st.integers(0, 5), min_size=n, max_size=n).filter(any))
                   for _ in range(cols)]
    wild_mult = [0] * n_plain + draw(st.lists(st.integers(0, 3), min_size=n_wild,
                                              max_size=n_wild))
    values = draw(st.lists(st.integers(1, 100), min_size=1, max_size=4))
    odds = draw(st.lists(st.integers(0, 4), min_size=len(values),
                         max_size=len(values)).filter(any))
    return Rules(rows, cols, min_size, pays, wild, substitutes, strips, weights,
                 guard=draw(st.integers(1, 12)), wild_mult=wild_mult,
                 multiplier=(tuple(values), tuple(odds)))


def grid_strategy(rules):
    n = len(rules.pays)
    cells = rules.rows * rules.cols
    return st.lists(st.integers(0, n - 1), min_size=cells, max_size=cells).map(
        lambda flat: [flat[r * rules.cols:(r + 1) * rules.cols] for r in range(rules.rows)])


def kernel_clusters(model, grid):
    work = new_buffers(model)
    work.grid[:] = grid
    found, total = find_clusters(model, work.grid, work)
    wins = [tuple(int(v) for v in work.clusters[i]) for i in range(found)]
    winning = {(int(r), int(c)) for r, c in zip(*np.nonzero(work.winners))}
    return wins, winning, int(total)


def stream(seed):
    """The bit generator kernels take (engine/rng.py), and the reference draws from."""
    return np.random.PCG64(seed)


# ---------------------------------------------------------------------------------------------
# Kernels against the reference


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data())
def test_find_clusters_matches_reference(data):
    rules = data.draw(rules_strategy())
    grid = data.draw(grid_strategy(rules))
    expected, winning = ref_clusters(rules, grid)
    for bitboard in (True, False):
        wins, cells, total = kernel_clusters(rules.model(bitboard), grid)
        assert wins == expected, bitboard
        assert cells == winning, bitboard
        assert total == sum(w[3] for w in expected)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=HEALTH)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_tumble_matches_reference(data, seed):
    rules = data.draw(rules_strategy())
    grid = data.draw(grid_strategy(rules))
    winning = data.draw(st.sets(st.tuples(st.integers(0, rules.rows - 1),
                                          st.integers(0, rules.cols - 1))))
    stops = [data.draw(st.integers(0, len(s) - 1)) for s in rules.strips] if rules.strips \
        else [0] * rules.cols
    model = rules.model()
    g = np.array(grid, dtype=np.int16)
    winners = np.zeros((rules.rows, rules.cols), dtype=np.bool_)
    for r, c in winning:
        winners[r, c] = True
    kernel_stops = np.array(stops, dtype=np.int64)
    rng_kernel, rng_ref = stream(seed), stream(seed)
    refilled = tumble(model, 0, g, winners, rng_kernel, kernel_stops)
    expected, expected_stops, expected_refilled = ref_tumble(rules, grid, winning, rng_ref, stops)
    assert g.tolist() == expected
    assert refilled == expected_refilled == len(winning)
    if rules.strips:
        assert kernel_stops.tolist() == expected_stops
    assert rng_kernel.random_raw() == rng_ref.random_raw()  # the same number of draws


@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32), bitboard=st.booleans())
def test_spin_replays_the_reference(rules, seed, bitboard):
    model = rules.model(bitboard)
    n = rules.rows * rules.cols
    work = new_buffers(model, tape_rows=(rules.guard + 1) * (n + 1))
    rng_kernel, rng_ref = stream(seed), stream(seed)
    win, tumbles, pos, guard, _m = play_cluster_spin(model, 0, *rules.multiplier_table(),
                                                     rng_kernel, work, True)
    expected_win, expected_tumbles, expected_guard, events = ref_spin(rules, rng_ref)
    assert (win, tumbles, guard) == (expected_win, expected_tumbles, expected_guard)
    assert pos == len(events) <= work.tape.shape[0]
    assert [tuple(int(v) for v in row) for row in work.tape[:pos]] == events
    assert rng_kernel.random_raw() == rng_ref.random_raw()


@settings(max_examples=40, deadline=None, suppress_health_check=HEALTH)
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_simulate_equals_a_loop_of_spins(rules, seed):
    model = rules.model()
    work = new_buffers(model)
    counters = np.zeros(len(SIM_FIELDS), dtype=np.int64)
    table = rules.multiplier_table()
    simulate_cluster_spins(model, 0, *table, stream(seed), 30, work, counters)
    rng = stream(seed)
    results = [play_cluster_spin(model, 0, *table, rng, work, False) for _ in range(30)]
    wins = [r[0] for r in results]
    tumbles = [r[1] for r in results]
    expected = {"spins": 30, "total_win": sum(wins), "hits": sum(w > 0 for w in wins),
                "tumbles": sum(tumbles), "max_win": max(wins), "max_tumbles": max(tumbles),
                "guard_hits": sum(r[3] for r in results),
                "multiplied": sum(r[4] > 1 for r in results)}
    assert dict(zip(SIM_FIELDS, counters.tolist())) == expected


# ---------------------------------------------------------------------------------------------
# Hand cases

A, B, C, D, W = 0, 1, 2, 3, 4
PLAIN_PAYS = [0, 0, 0, 1, 2, 3, 4, 5, 6]  # sizes 3..8 pay 1..6, larger sizes pay 6


def hand_model(min_size=3, wild=False, strips=None, **kw):
    n = 5 if wild else 4
    pays = [PLAIN_PAYS] * 4 + ([[0] * len(PLAIN_PAYS)] if wild else [])
    cols = len(strips) if strips else 5
    return build_cluster_model(kw.pop("rows", 5), cols, pays, [False] * 4 + [True] * wild,
                               min_size, strips=strips or [list(range(n))] * cols, **kw)


@pytest.mark.parametrize("bitboard", [True, False])
def test_plus_shape_is_one_cluster(bitboard):
    grid = [[B, C, B, C, B],
            [C, D, A, D, C],
            [B, A, A, A, B],
            [C, D, A, D, C],
            [B, C, B, C, B]]
    wins, cells, total = kernel_clusters(hand_model(5, bitboard=bitboard), grid)
    assert wins == [(A, 5, 0, PLAIN_PAYS[5], 1)]
    assert cells == {(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)}
    assert total == PLAIN_PAYS[5]


@pytest.mark.parametrize("bitboard", [True, False])
def test_diagonal_cells_are_not_adjacent(bitboard):
    grid = [[A if (r + c) % 2 == 0 else B for c in range(5)] for r in range(5)]
    assert kernel_clusters(hand_model(3, bitboard=bitboard), grid) == ([], set(), 0)


@pytest.mark.parametrize("bitboard", [True, False])
def test_one_wild_serves_two_clusters(bitboard):
    grid = [[A, A, W, B, B],
            [C, D, C, D, C],
            [D, C, D, C, D],
            [C, D, C, D, C],
            [D, C, D, C, D]]
    wins, cells, total = kernel_clusters(hand_model(3, wild=True, bitboard=bitboard), grid)
    assert wins == [(A, 3, 1, PLAIN_PAYS[3], 1), (B, 3, 1, PLAIN_PAYS[3], 1)]
    assert cells == {(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)}
    assert total == 2 * PLAIN_PAYS[3]


@pytest.mark.parametrize("bitboard", [True, False])
def test_wilds_alone_never_pay_and_sizes_above_the_table_pay_its_top(bitboard):
    grid = [[W, W, W, W, W],
            [A, A, A, A, A],
            [A, A, A, A, A],
            [C, D, C, D, C],
            [D, C, D, C, D]]
    wins, cells, _ = kernel_clusters(hand_model(3, wild=True, bitboard=bitboard), grid)
    assert wins == [(A, 15, 5, PLAIN_PAYS[-1], 1)]  # one cluster: the wild row joins the A's
    assert len(cells) == 15


def test_a_tumble_creates_a_new_cluster():
    # columns continue along their strips: stop 1, one cell removed -> stop 0 on top
    model = hand_model(3, strips=[[C, B, D, B], [D, A, D, A], [B, C, D, A]], rows=3)
    grid = [[B, A, C],
            [D, D, D],
            [B, A, A]]
    work = new_buffers(model)
    work.grid[:] = grid
    assert find_clusters(model, work.grid, work) == (1, PLAIN_PAYS[3])
    assert work.clusters[0].tolist() == [D, 3, 0, PLAIN_PAYS[3], 1]
    stops = np.array([1, 1, 1], dtype=np.int64)
    assert tumble(model, 0, work.grid, work.winners, stream(0), stops) == 3
    assert work.grid.tolist() == [[C, D, B],
                                  [B, A, C],
                                  [B, A, A]]
    assert stops.tolist() == [0, 0, 0]
    assert find_clusters(model, work.grid, work) == (1, PLAIN_PAYS[3])
    assert work.clusters[0].tolist() == [A, 3, 0, PLAIN_PAYS[3], 1]


def test_a_column_is_refilled_from_its_strip_in_order():
    strip = [0, 1, 2, 3, 4, 5, 6, 7]
    model = build_cluster_model(4, 1, [[0, 0, 0, 1]] * 8, [False] * 8, 3, strips=[strip])
    grid = np.array([[5], [6], [7], [0]], dtype=np.int16)  # stop 5
    winners = np.array([[False], [True], [False], [True]])
    stops = np.array([5], dtype=np.int64)
    tumble(model, 0, grid, winners, stream(0), stops)
    assert grid[:, 0].tolist() == [3, 4, 5, 7]  # strip[3], strip[4] above the survivors
    assert stops.tolist() == [3]
    grid = np.array([[1], [2], [3], [4]], dtype=np.int16)  # stop 1; three removed wraps to 6
    winners = np.array([[True], [False], [True], [True]])
    stops = np.array([1], dtype=np.int64)
    tumble(model, 0, grid, winners, stream(0), stops)
    assert grid[:, 0].tolist() == [6, 7, 0, 2]
    assert stops.tolist() == [6]


def test_weights_refill_only_the_weighted_symbols():
    model = build_cluster_model(3, 2, [[0, 0, 0, 1]] * 3, [False] * 3, 3,
                                weights=[[0, 0, 4], [0, 7, 0]])
    grid = np.array([[0, 0], [1, 0], [0, 1]], dtype=np.int16)
    winners = np.array([[True, False], [True, True], [False, False]])
    assert tumble(model, 0, grid, winners, stream(0), np.zeros(2, dtype=np.int64)) == 3
    assert grid.tolist() == [[2, 1], [2, 0], [0, 1]]


def test_the_guard_ends_an_endless_spin():
    model = build_cluster_model(3, 3, [[0, 0, 0, 1]], [False], 3, weights=[[1]] * 3,
                                tumble_guard=5)
    work = new_buffers(model, 64)
    assert play_cluster_spin(model, 0, *NO_MULTIPLIER, stream(0), work, False)[:2] == (6, 5)
    assert play_cluster_spin(model, 0, *NO_MULTIPLIER, stream(0), work, False)[3]


def test_bad_models_are_refused():
    with pytest.raises(InvalidArgument, match="exactly one"):
        build_cluster_model(3, 3, [[0, 1]], [False], 1)
    with pytest.raises(InvalidArgument, match="strips"):
        build_cluster_model(3, 2, [[0, 1]], [False], 1, strips=[[0], [1]])
    with pytest.raises(InvalidArgument, match="weights"):
        build_cluster_model(3, 2, [[0, 1]], [False], 1, weights=[[1], [0]])
    with pytest.raises(InvalidArgument, match="min_size"):
        build_cluster_model(3, 3, [[0, 1]], [False], 0, weights=[[1]] * 3)
    with pytest.raises(InvalidArgument, match="bitboards"):
        build_cluster_model(8, 8, [[0, 1]], [False], 1, weights=[[1]] * 8, bitboard=True)
    assert not build_cluster_model(8, 8, [[0, 1]], [False], 1, weights=[[1]] * 8).bitboard
    with pytest.raises(InvalidArgument, match="wild multipliers"):
        build_cluster_model(3, 3, [[0, 1], [0, 0]], [False, True], 1, weights=[[1, 1]] * 3,
                            wild_multipliers=[2, 0])  # on a non-wild symbol
    with pytest.raises(InvalidArgument, match="random multiplier"):
        multiplier_table([1, 0], [1, 1])
    with pytest.raises(InvalidArgument, match="kind"):
        build_cluster_model(3, 3, [[0, 1]], [False], 1, sets=[("wheel", [[1]] * 3)])


def test_each_reel_set_refills_its_own_symbols():
    # set 0 shows only A, set 1 only B; a 3 x 3 grid of one symbol is one cluster of 9
    model = build_cluster_model(3, 3, [[0] * 9 + [1]] * 2, [False, False], 3,
                                sets=[("weights", [[1, 0]] * 3), ("strips", [[1]] * 3)],
                                tumble_guard=2)
    work = new_buffers(model, 16)
    for rs, symbol in ((0, 0), (1, 1)):
        win, tumbles, _pos, guard, _m = play_cluster_spin(model, rs, *NO_MULTIPLIER, stream(0),
                                                          work, True)
        assert (win, tumbles, guard) == (3, 2, True)
        assert (work.grid == symbol).all()
        assert work.tape[0, 3] == rs  # the GRID row names its reel set


# ---------------------------------------------------------------------------------------------
# Determinism


def candy_like_model(bitboard=None):
    """7 x 7, 8 symbols and a wild, clusters of 6 to 49, strips of 64."""
    rng = np.random.default_rng(5)
    pays = np.zeros((9, 50), dtype=np.int64)
    for s in range(8):
        pays[s, 6:] = (s + 1) * np.arange(1, 45)
    strips = [list(rng.integers(0, 8, size=60)) + [8] * 4 for _ in range(7)]
    return build_cluster_model(7, 7, pays, [False] * 8 + [True], 6, strips=strips,
                               bitboard=bitboard)


def spin_tapes(model, seed, spins):
    rng = stream(seed)
    work = new_buffers(model, 512)
    out = []
    for _ in range(spins):
        win, tumbles, pos, guard, _m = play_cluster_spin(model, 0, *NO_MULTIPLIER, rng, work,
                                                         True)
        out.append((int(win), int(tumbles), bool(guard), work.tape[:pos].tolist()))
    return out


def test_same_seed_same_spins():
    model = candy_like_model()
    first = spin_tapes(model, 7, 200)
    assert first == spin_tapes(model, 7, 200)
    assert first == spin_tapes(candy_like_model(bitboard=False), 7, 200)
    assert first != spin_tapes(model, 8, 200)
    assert any(t > 0 for _w, t, _g, _tape in first)  # the seeds exercise tumbles


def test_kernels_run_as_plain_python():
    tests = os.path.dirname(__file__)
    script = (f"import json, sys; sys.path.insert(0, {tests!r}); import test_clusters as t;"
              "print(json.dumps(t.spin_tapes(t.candy_like_model(), 11, 20)))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, check=True, timeout=120)
    plain = [tuple(x) for x in json.loads(out.stdout)]
    assert plain == spin_tapes(candy_like_model(), 11, 20)
