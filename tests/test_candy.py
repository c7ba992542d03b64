"""Candy Jar Clusters: every rule of RULES.md audited on recorded rounds, the stratified
estimate against plain Monte Carlo and against its exact parts, the published RTP and the
tuned variant.

The audit re-derives each round from its tape with rules written here from RULES.md, not
from the kernels: clusters by breadth-first search (test_clusters' reference), the tumble's
fall, the jars, the spin counts, super spins, jackpot meters, multipliers and the cap.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from test_clusters import Rules, ref_clusters
from typer.testing import CliRunner

from reelforge.analysis.montecarlo import GameText, play_rounds
from reelforge.analysis.stratified import CHUNK, estimate, from_state
from reelforge.analysis.tune_clusters import (
    BAND,
    check_only_multiplier_changed,
    solve_weights,
    tune_cluster,
)
from reelforge.cli import app
from reelforge.engine.outcome import Jackpot, Jars
from reelforge.engine.rng import chunk_generator, live_generator
from reelforge.engine.round import play_round, replay
from reelforge.errors import InvalidBet, SpecError
from reelforge.games import make, published_estimate, shipped_games
from reelforge.games.candy_jar_clusters.game import initial_trigger_probabilities
from reelforge.games.candy_jar_clusters.spec import JACKPOTS
from reelforge.spec import load_spec, parse_spec

GAME_ID = "candy-jar-clusters-v1"
VARIANTS = sorted(g for g in shipped_games() if g.startswith("candy-jar-clusters"))
PATH = shipped_games()[GAME_ID]
TEXT = PATH.read_text(encoding="utf-8")
COINS = 20


@pytest.fixture(scope="module")
def game():
    return make(GAME_ID)


def rules_of(game) -> Rules:
    m = game.model
    return Rules(m.n_rows, m.n_cols, m.min_size, m.pays.tolist(), m.is_wild.tolist(),
                 m.substitutes.tolist(), None, None, guard=1000, wild_mult=m.wild_mult.tolist())


# -- the audit -----------------------------------------------------------------------------
def rows_of(symbols) -> list[list[str]]:
    """An outcome's grid, [column][row], as the rows the reference searches, top first."""
    return [list(row) for row in zip(*symbols)]


def audit(game, outcome) -> dict:
    """Check one round against the rules; returns what it saw (for coverage)."""
    spec, f = game.spec, game.spec.features
    ids = list(spec.symbol_ids)
    rules = rules_of(game)
    value = outcome.bet.bet_per_line
    cap = spec.max_win_x * COINS * value
    seen = {"clusters": 0, "tumbles": 0, "multiplied": 0, "placed": 0, "golden": 0, "extra": 0,
            "super": 0, "jackpot": 0, "capped": outcome.win_capped, "cut": 0}
    candies = {c: m for c, m in f.jars}
    meters = dict.fromkeys(JACKPOTS, 0)
    extras = toward = supers_due = 0
    awarded = None
    total = shown_so_far = 0
    for spin in outcome.spins:
        assert spin.stops == ()  # a grid drawn cell by cell has none
        grids = spin.grids
        assert grids[0].tumble == 0
        cluster_win = 0
        for t, g in enumerate(grids):
            assert g.tumble == t
            shown = rows_of(g.symbols)
            grid = [[ids.index(s) for s in row] for row in shown]
            wins, winning = ref_clusters(rules, grid)
            found = [c for c in spin.cluster_wins if c.tumble == t]
            assert [(ids.index(c.symbol), c.size, c.wilds, c.win // value,
                     c.wild_multiplier) for c in found] == wins
            cluster_win += sum(c.win for c in found)
            seen["clusters"] += len(found)
            if t + 1 < len(grids):  # the tumble: winners gone, the rest fallen in order
                assert wins, "a tumble after a grid that does not win"
                after = rows_of(grids[t + 1].symbols)
                for c in range(spec.cols):
                    kept = [shown[r][c] for r in range(spec.rows) if (r, c) not in winning]
                    assert [after[r][c] for r in range(spec.rows - len(kept), spec.rows)] == kept
                assert grids[t + 1].refilled == len(winning)
                seen["tumbles"] += 1
            else:
                assert not wins, "the last grid still wins"
        # one random multiplier at most, drawn after the first grid's win; the spin's own
        drawn = spin.events_of("random_multiplier")
        assert len(drawn) <= 1 and spin.multiplier == (drawn[0].value if drawn else 1)
        assert not drawn or (drawn[0].tumble == 0 and cluster_win > 0)
        if spin.multiplier > 1:
            assert cluster_win > 0
            seen["multiplied"] += 1
        final = rows_of(grids[-1].symbols)
        counts = {s: sum(row.count(s) for row in final) for s in ids}
        first = rows_of(grids[0].symbols)
        placed_ids = set(f.wild_symbols)
        placed = spin.event("wilds_placed")
        if spin.kind == "base":
            assert placed is None
            assert not any(s in row for row in final for s in ["EXTRA", *JACKPOTS])
            got = {candies[c]: counts[c] for c in candies}
            trigger = sum(got.values()) >= f.trigger_candies and spin.win < cap  # the cap ends it
            assert spin.events_of("jars") == (Jars(wild=got["wild"], free_spins=got["free_spins"],
                                                   jackpots=got["jackpots"], triggered=trigger),)
            mods = tuple(m for m in ("wild", "free_spins", "jackpots") if got[m] > 0) if trigger else ()
            assert outcome.modifiers == mods
            spin_win = cluster_win * spin.multiplier
            starts = spin.events_of("free_spins_triggered")
            if trigger:
                extra = starts[0].extra_spins_at_start
                assert (extra in (1, 2, 3, 4)) == ("free_spins" in mods) and (extra == 0) == ("free_spins" not in mods)
                awarded = f.free_spins + extra
                assert starts[0].spins == awarded and starts[0].modifiers == mods
            else:
                assert not starts
        else:
            mods = outcome.modifiers
            is_super = spin.kind == "super"
            if is_super:
                assert supers_due > 0
                supers_due -= 1
                seen["super"] += 1
                assert all(ids.index(s) in (ids.index("CUPCAKE"), ids.index("LOLLIPOP"), ids.index("BONBON"))
                           or s in placed_ids or s == "EXTRA" or s in JACKPOTS
                           for g in grids for reel in g.symbols for s in reel)
            if "wild" in mods or is_super:
                assert placed is not None and 6 <= placed.count <= 12
                assert sum(s in placed_ids for row in first for s in row) >= placed.count
                seen["placed"] += 1
            else:
                assert placed is None
            golden = placed.golden_multiplier if placed else 0
            if golden:
                seen["golden"] += 1
            if "free_spins" not in mods and not is_super:
                assert counts["EXTRA"] == 0
            if "jackpots" not in mods and not is_super:
                assert not any(counts[j] for j in JACKPOTS)
            spin_win = cluster_win * spin.multiplier
            if counts["EXTRA"]:
                extras += counts["EXTRA"]
                awarded += counts["EXTRA"]
                toward += counts["EXTRA"]
                new = toward // f.extra_per_super_spin
                toward -= new * f.extra_per_super_spin
                supers_due += new
                seen["extra"] += counts["EXTRA"]
                [e] = spin.events_of("extra_free_spins")
                assert (e.collected, e.spins_awarded, e.toward_super_spin,
                        e.super_spins_awarded) == (counts["EXTRA"], awarded, toward, new)
            else:
                assert not spin.events_of("extra_free_spins")
            paid = spin.events_of("jackpot")
            expected = []
            for j, jp in zip(JACKPOTS, f.jackpots):
                meters[j] += counts[j]
                if meters[j] >= jp.collect:
                    meters[j] = 0
                    times = spin.multiplier * (golden if golden else 1)
                    expected.append(Jackpot(jackpot=j, pays=jp.pays_x * COINS * value,
                                            multiplier=times, win=jp.pays_x * COINS * value * times))
            assert paid == tuple(expected)
            seen["jackpot"] += len(paid)
            spin_win += sum(e.win for e in paid)
        # the spin that reaches the cap shows only what it added up to the cap
        shown = min(spin_win, cap - total)
        assert spin.win == shown
        if shown < spin_win:
            seen["cut"] += 1
        total += spin_win
        shown_so_far += spin.win
        assert shown_so_far == min(total, cap)
    free = [s for s in outcome.spins if s.kind == "free"]
    if outcome.win_capped:
        assert outcome.total_win == cap and "win_capped" in outcome.flags
        assert outcome.uncapped_win == total >= cap  # the win when the cap ended the round
    else:
        assert outcome.total_win == total and outcome.uncapped_win is None
        if awarded is not None:
            assert len(free) == awarded == outcome.counters.free_spins_played
            assert supers_due == 0
    assert outcome.counters.super_spins_played == seen["super"]
    assert outcome.counters.retriggers == extras  # each EXTRA symbol: one more free spin
    assert sum(outcome.breakdown.values()) == outcome.total_win
    assert sum(spin.win for spin in outcome.spins) == outcome.total_win
    return seen


def test_rounds_follow_the_rules(game):
    """Rounds from fixed seeds, with the Free Spins rounds among them searched for, audited."""
    totals: dict = {}
    rounds = 0
    for seed in range(3000):
        outcome = play_round(game, game.bet(bet_per_line=1 + seed % 20), live_generator(seed), seed)
        if seed < 400 or outcome.counters.free_spins_played:
            for k, v in audit(game, outcome).items():
                totals[k] = totals.get(k, 0) + int(v)
            rounds += 1
    # the seeds reach every rule at least once (else the audit proves nothing about it)
    for rule in ("clusters", "tumbles", "multiplied", "placed", "golden", "extra", "jackpot"):
        assert totals[rule] > 0, (rule, totals)


def test_golden_rounds_with_super_spins_and_jackpots_follow_the_rules(game):
    """The golden rounds (tools/make_golden.py searched seeds for Free Spins, a super spin and
    a jackpot; tests/test_games.py replays them), audited."""
    golden = json.loads((Path(__file__).parent / "golden" / f"{GAME_ID}.json").read_text())
    seen = {"super": 0, "jackpot": 0, "extra": 0}
    for stored in golden:
        outcome = replay(game, stored)
        for k, v in audit(game, outcome).items():
            if k in seen:
                seen[k] += int(v)
    assert all(seen.values()), seen


def test_the_cap_ends_the_round_at_once():
    """The same game with the cap at 20x: many rounds reach it, in the base spin or in Free
    Spins, and each is audited (it pays the cap, forfeits the rest, adds up)."""
    from reelforge.engine.families import compile_game

    assert "max_win_x = 10000" in TEXT
    low = compile_game(parse_spec(TEXT.replace("max_win_x = 10000", "max_win_x = 20"), "low-cap.toml"))
    capped = {"base": 0, "free": 0, "free_cut": 0}
    for seed in range(6000):
        outcome = play_round(low, low.max_bet, live_generator(seed), seed)
        if outcome.win_capped or outcome.counters.free_spins_played:
            seen = audit(low, outcome)
        if outcome.win_capped:
            assert outcome.total_win == 20 * low.max_bet.total
            capped["free" if len(outcome.spins) > 1 else "base"] += 1
            if len(outcome.spins) > 1:  # ended at once: nothing after the spin that reached it
                assert sum(s.win for s in outcome.spins) == outcome.total_win
                assert sum(s.win for s in outcome.spins[:-1]) < outcome.total_win
                capped["free_cut"] += seen["cut"]
    # free or super spins that won past the cap, each showing only its part up to it
    assert capped["base"] > 0 and capped["free_cut"] > 0, capped


def test_same_seed_same_round_and_replay(game):
    for seed in (1, 2, 3):
        first = play_round(game, game.max_bet, live_generator(seed), seed)
        assert replay(game, json.loads(first.to_json())) == first


def test_bets_are_coin_values_of_20_coins(game):
    assert game.bet(bet_per_line=1).total == 20 and game.max_bet.total == 400  # £0.20 .. £4.00
    with pytest.raises(InvalidBet, match="21"):
        game.bet(bet_per_line=21)
    with pytest.raises(InvalidBet, match="lines = 5"):
        game.bet(lines=5)


# -- the game file ---------------------------------------------------------------------------
@pytest.mark.parametrize(("old", "new", "says"), [
    ('rules = "candy_jar"', 'rules = "sugar"', "game.rules = 'sugar'"),
    ("CUPCAKE = { 6 = 70,", "CUPCAKE = { 6 = 70000,", "pays must not fall"),
    ('YELLOW = "wild"', 'YELLOW = "jackpots"', "one candy per modifier"),
    ('WILD = { role = "wild", name = "Wild" }', 'WILD = { role = "wild", name = "Wild", multiplier = 0 }',
     "WILD.multiplier"),
    ('CUPCAKE = { role = "regular", name = "Cupcake" }',
     'CUPCAKE = { role = "regular", name = "Cupcake", multiplier = 2 }', "only a wild"),
    ("[reels.free.weights]\n", "[reels.free.weights]\nRED = [1, 1, 1, 1, 1, 1, 1]\n", "reels.free"),
    ("per_super_spin = 5", "per_super_spin = 0", "per_super_spin = 0"),
    ("MINI = { collect = 2,", "MINI = { collect = 2, colour = 1,", "colour"),
    # what no round could ever be: a trigger beyond the grid, free spins past the guard
    ("trigger_candies = 3", "trigger_candies = 99", "features.trigger_candies = 99: more candies than the 49 cells"),
    ("spins = 10  #", "spins = 1000000000  #", "features.spins = 1000000000: more than the spin_guard"),
    ("extra_start = { values = [1, 2, 3, 4]", "extra_start = { values = [1, 2, 3, 1000000000]",
     "features.free_spins.extra_start"),
    ("trigger_candies = 3", "trigger_candies = 3\nspin_guard = 1000000000", "features.spin_guard = 1000000000: above"),
])
def test_bad_game_files_are_one_clear_error(old, new, says):
    assert old in TEXT
    with pytest.raises(SpecError) as err:
        make_text = TEXT.replace(old, new, 1)
        from reelforge.engine.families import compile_game

        compile_game(parse_spec(make_text, "candy.toml"))
    assert says in str(err.value) and "candy.toml" in str(err.value)
    assert "\n" not in str(err.value)


# -- the stratified estimate -----------------------------------------------------------------
@pytest.fixture(scope="module")
def small_estimate():
    return estimate(GAME_ID, seed=5, base_spins=4 * CHUNK, feature_rounds={m: 4000 for m in range(1, 8)},
                    workers=2)


@pytest.fixture(scope="module")
def plain(game):
    """Whole rounds, the plain way (the same round kernel live play uses)."""
    return play_rounds(game, game.bet(bet_per_line=1), chunk_generator(77, 0), 1_500_000)


@pytest.mark.slow
def test_exact_drawn_grid_trigger_matches_the_sample(game, small_estimate):
    p0 = initial_trigger_probabilities(game)
    n = small_estimate.base.spins
    for m, p in p0.items():
        seen = sum(row[0] for (i, _f), row in small_estimate.base.by_pair.items() if i == m)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(seen / n - p) < 4 * se + 1e-12, (m, seen / n, p)
    assert sum(p0.values()) > 0.001


@pytest.mark.slow
def test_estimate_agrees_with_plain_monte_carlo(small_estimate, plain):
    e = small_estimate
    # the trigger probability: exact part + simulated difference, against plain counting
    se = math.sqrt(e.trigger_probability / plain.rounds)
    assert abs(plain.feature_frequency - e.trigger_probability) < 4 * se
    # E[base win]: multiplier-averaged, against plain base-game wins
    mean = plain.base_line_win / (plain.rounds * plain.total_bet)
    assert abs(mean - e.mean_base / e.stake) < 4 * 4.0 / math.sqrt(plain.rounds)  # SD of b < 4x
    # the whole RTP, within the two runs' combined standard error
    se = math.sqrt(e.standard_error ** 2 + plain.rtp_standard_error ** 2)
    assert abs(plain.rtp - e.rtp) < 4 * se


def test_reweighting_the_multiplier_equals_playing_it(game, small_estimate):
    """The same sample re-weighted to another base multiplier table gives what a game with
    that table plays (its own base stratum, fresh seeds)."""
    values, weights = small_estimate.multiplier
    other = tuple(w if v == 1 else 2 * w for v, w in zip(values, weights))
    block = f"weights = {list(weights)}"
    assert block in TEXT  # the base table is the file's first
    text = TEXT.replace(block, f"weights = {list(other)}", 1)
    played = estimate(GameText(text, "reweighted.toml"), seed=6, base_spins=4 * CHUNK,
                      feature_rounds={m: 1000 for m in range(1, 8)}, workers=2)
    predicted = small_estimate.with_multiplier(other)
    base_se = 5.0 / math.sqrt(small_estimate.base.spins)  # SD of b under 5x the bet
    assert abs(played.mean_base - predicted.mean_base) / COINS < 4 * base_se
    assert abs(predicted.mean_base - small_estimate.mean_base) / COINS > 4 * base_se  # it moved


# -- what is published -------------------------------------------------------------------------
def close(a, b) -> bool:
    """Equal, floats to 1e-9 relative (sums taken in another order)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(close, a, b))
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15)
    return a == b


@pytest.mark.parametrize("game_id", VARIANTS)
def test_published_estimate_is_current_and_inside_its_band(game_id):
    data = published_estimate(game_id)
    assert data is not None, f"{game_id}: run its recorded reelforge estimate"
    figures = data["figures"]
    # the figures are what the stored sample gives
    again = json.loads(json.dumps(from_state(data["state"]).to_dict()))
    assert close(again, figures)
    target = 0.96 if game_id == GAME_ID else int(game_id.split("-")[-2]) / 100
    low, high = figures["rtp_ci95"]
    assert target - BAND <= low and high <= target + BAND, (game_id, low, high)
    assert (high - low) / 2 <= 0.001
    assert figures["spin_guard_hits"] == 0


@pytest.mark.parametrize("game_id", VARIANTS)
def test_every_variant_has_a_current_par_sheet(game_id):
    par = Path(__file__).parents[1] / "docs" / "par"
    assert (par / f"{game_id}-par.html").is_file()
    sheet = json.loads((par / f"{game_id}-par.json").read_text())
    assert sheet["game_id"] == game_id and sheet["kind"] == "clusters"
    assert sheet["published"]["rtp"] == pytest.approx(published_estimate(game_id)["figures"]["rtp"], abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", VARIANTS)
def test_published_rtp_is_confirmed_by_an_independent_smaller_run(game_id):
    data = published_estimate(game_id)
    mine = estimate(game_id, seed=99, half_width=0.006, pilot_spins=400_000, workers=2)
    se = math.sqrt(mine.standard_error ** 2 + data["figures"]["rtp_standard_error"] ** 2)
    assert abs(mine.rtp - data["figures"]["rtp"]) < 4 * se


def test_the_variant_is_what_its_command_writes():
    variants = [g for g in VARIANTS if g != GAME_ID]
    assert variants, "a Candy Jar variant at another RTP is shipped"
    for game_id in variants:
        text = shipped_games()[game_id].read_text(encoding="utf-8")
        command = text.splitlines()[1].removeprefix("#   ")
        source = published_estimate(GAME_ID)
        again = tune_cluster(TEXT, str(PATH), from_state(source["state"]),
                             float(command.split("--rtp ")[1].split()[0]), game_id, command)
        assert again.text == text
        check_only_multiplier_changed(load_spec(PATH), load_spec(shipped_games()[game_id]))


def test_solve_weights_puts_the_sample_on_the_target(small_estimate):
    for target in (0.93, small_estimate.rtp + 0.004):
        weights = solve_weights(small_estimate, target)
        assert abs(small_estimate.with_multiplier(weights).rtp - target) < 2e-6
    with pytest.raises(Exception, match="out of reach"):
        solve_weights(small_estimate, 5.0)


# -- the command line --------------------------------------------------------------------------
runner = CliRunner()


def test_analyze_and_estimate_refuse_the_other_family_in_one_line():
    result = runner.invoke(app, ["analyze", GAME_ID])
    assert result.exit_code == 2 and "reelforge estimate" in result.stderr
    result = runner.invoke(app, ["estimate", "cluedo-v1", "--ci", "0.01"])
    assert result.exit_code == 2 and "no stratified estimate" in result.stderr
    result = runner.invoke(app, ["estimate", GAME_ID, "--ci", "2"])
    assert result.exit_code == 2 and "--ci" in result.stderr


def test_round_kernel_runs_as_plain_python(game):
    """The compiled round and the same code under NUMBA_DISABLE_JIT give the same rounds."""
    import os
    import subprocess
    import sys

    golden = json.loads((Path(__file__).parent / "golden" / f"{GAME_ID}.json").read_text())
    seeds = [0, 1] + [int(o["seed"], 16) for o in golden if o["counters"]["free_spins_played"]][:1]
    assert len(seeds) == 3, "the golden rounds include Free Spins"
    script = ("import json; from reelforge.games import make; from reelforge.engine.round import play_round;"
              "from reelforge.engine.rng import live_generator; g = make('candy-jar-clusters-v1');"
              f"print(json.dumps([play_round(g, g.max_bet, live_generator(s), s).to_dict() for s in {seeds}]))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    compiled = [play_round(game, game.max_bet, live_generator(s), s).to_dict() for s in seeds]
    assert json.loads(out.stdout) == json.loads(json.dumps(compiled))


def test_the_description_carries_each_fixed_jackpot_as_the_game_file_sets_it():
    """info()["jackpots"] (the screen's jackpot ladder) is the game file's [features.jackpots],
    read here straight from the TOML."""
    import tomllib

    raw = tomllib.loads(shipped_games()[GAME_ID].read_text(encoding="utf-8"))["features"]["jackpots"]
    expected = [{"name": name, "collect": v["collect"], "pays_x": v["pays_x"]} for name, v in raw.items()]
    assert make(GAME_ID).info()["jackpots"] == expected
