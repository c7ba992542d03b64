"""The simulator against figures derived independently: brute force and exact analysis."""

import itertools
import json
import math

import pytest

from reelforge.analysis.exact import analyze, scatter_count_distribution
from reelforge.analysis.montecarlo import play_rounds, simulate
from reelforge.engine.game import LineGame
from reelforge.engine.rng import chunk_generator
from reelforge.games import make
from reelforge.spec import parse_spec

TINY = """
[game]
id = "tiny-v1"
name = "Tiny"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
B = { role = "regular" }
W = { role = "wild" }
S = { role = "scatter" }

[paytable]
A = { 2 = 1, 3 = 5 }
B = { 3 = 10 }
W = { 3 = 20 }

[lines]
paylines = [[0, 0, 0]]

[lines.wild.W]
except = ["S"]
multiplier = 2

[scatter.S]
pays = { 2 = 2 }

[reels.base]
strips = ["A B W S", "A A B W", "A B S W B"]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 2 = 3 }
retrigger = "none"
multiplier = 2
"""
STRIPS = [s.split() for s in ["A B W S", "A A B W", "A B S W B"]]
PAY = {("A", 2): 1, ("A", 3): 5, ("B", 3): 10, ("W", 3): 20}


def tiny_spin_win(cells, multiplier):
    """The tiny game's rules written out by hand for its one line and one row."""
    best = 0
    if cells[0] == "W":
        run = next((i for i, c in enumerate(cells) if c != "W"), 3)
        best = PAY.get(("W", run), 0) * multiplier
    target = next((c for c in cells if c != "W"), None)
    if target is not None and target != "S":
        run = next((i for i, c in enumerate(cells) if c not in (target, "W")), 3)
        doubled = 2 if "W" in cells[:run] else 1
        best = max(best, PAY.get((target, run), 0) * doubled * multiplier)
    scatters = cells.count("S")
    return best + (2 * multiplier if scatters == 2 else 0), scatters


def tiny_brute_force_rtp():
    combos = list(itertools.product(*STRIPS))
    base = [tiny_spin_win(c, 1) for c in combos]
    free_spin = sum(tiny_spin_win(c, 2)[0] for c in combos) / len(combos)
    p_trigger = sum(s == 2 for _, s in base) / len(combos)
    return sum(w for w, _ in base) / len(combos) + p_trigger * 3 * free_spin


def test_tiny_game_simulation_matches_brute_force():
    game = LineGame.from_spec(parse_spec(TINY, "tiny"))
    rtp = tiny_brute_force_rtp()
    assert analyze(game).rtp == pytest.approx(rtp, rel=1e-12)
    stats = play_rounds(game, game.max_bet, chunk_generator(5, 0), 400_000)
    assert abs(stats.rtp - rtp) < 4 * stats.rtp_standard_error


def test_cluedo_simulation_agrees_with_exact_within_four_standard_errors():
    exact = analyze(make("cluedo-v1")).rtp
    stats = simulate("cluedo-v1", make("cluedo-v1").max_bet, 6_000_000, seed=2026, chunk_size=1_500_000)
    assert abs(stats.rtp - exact) < 4 * stats.rtp_standard_error
    # the base scatter pay, source by source: its exact distribution gives its own SE
    game = make("cluedo-v1")
    counts = scatter_count_distribution(game, game.model.base_set, 0)
    pays = game.model.scatter_pay[0]
    counts = counts[: len(pays)]  # counting by reels: no count above the number of reels
    mean, square = float(counts @ pays), float(counts @ pays**2)
    se = math.sqrt((square - mean**2) / stats.rounds)
    assert abs(stats.base_scatter_win / (stats.rounds * 100) - mean) < 4 * se
    p = analyze(game).feature_probability
    assert abs(stats.feature_frequency - p) < 4 * math.sqrt(p * (1 - p) / stats.rounds)
    # in Cluedo a round wins exactly when its base spin pays (3+ Mystery Bonus both trigger
    # the free games and pay), so the exact base-spin hit frequency is the round's
    h = analyze(game).base_hit_frequency
    assert abs(stats.hit_frequency - h) < 4 * math.sqrt(h * (1 - h) / stats.rounds)


def test_a_run_is_identical_whatever_the_number_of_workers():
    game = make("cluedo-v1")
    one = simulate("cluedo-v1", game.max_bet, 300_000, seed=9, chunk_size=50_000, workers=1)
    two = simulate("cluedo-v1", game.max_bet, 300_000, seed=9, chunk_size=50_000, workers=2)
    assert one == two
    other_seed = simulate("cluedo-v1", game.max_bet, 300_000, seed=10, chunk_size=50_000, workers=1)
    assert other_seed != one


def test_a_chunk_delivered_twice_is_merged_once(monkeypatch):
    """A backend may hand back a chunk twice (Dask reruns a lost worker's work): merged once."""
    from reelforge.analysis import montecarlo

    game = make("cluedo-v1")
    once = simulate("cluedo-v1", game.max_bet, 200_000, seed=4, chunk_size=50_000, workers=1)
    real = montecarlo._local_results

    def twice(chunks, workers):
        for index, stats in real(chunks, workers):
            yield index, stats
            yield index, stats

    monkeypatch.setattr(montecarlo, "_local_results", twice)
    steps = []
    again = simulate("cluedo-v1", game.max_bet, 200_000, seed=4, chunk_size=50_000, workers=1,
                     progress=steps.append)
    assert again == once and steps == [50_000] * 4


def count_drawn(monkeypatch) -> list[int]:
    """Patch `plan_chunks` so the returned list counts chunks taken from the plan so far."""
    from reelforge.analysis import montecarlo

    drawn, real = [0], montecarlo.plan_chunks

    def counted(*args, **kwargs):
        for chunk in real(*args, **kwargs):
            drawn[0] += 1
            yield chunk

    monkeypatch.setattr(montecarlo, "plan_chunks", counted)
    return drawn


def test_the_pool_keeps_a_bounded_number_of_chunks_in_flight(monkeypatch):
    from reelforge.analysis.montecarlo import IN_FLIGHT_PER_WORKER

    drawn = count_drawn(monkeypatch)
    finished, most = [], [0]

    def progress(rounds):
        finished.append(rounds)
        most[0] = max(most[0], drawn[0] - len(finished))

    game = make("cluedo-v1")
    stats = simulate("cluedo-v1", game.max_bet, 400_000, seed=4, chunk_size=5_000, workers=2,
                     progress=progress)
    assert stats.rounds == 400_000 and len(finished) == 80
    assert most[0] <= IN_FLIGHT_PER_WORKER * 2


def test_a_game_from_text_needs_no_file(tmp_path):
    from reelforge.analysis.montecarlo import GameText

    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    text = GameText.load(str(path))
    path.unlink()
    game = LineGame.from_spec(parse_spec(TINY, "tiny"))
    one = simulate(text, game.max_bet, 40_000, seed=1, chunk_size=10_000, workers=1)
    assert simulate(text, game.max_bet, 40_000, seed=1, chunk_size=10_000, workers=2) == one
    assert one.rounds == 40_000


# ---------------------------------------------------------------- checkpoints and refusals

class Stop(Exception):
    """Raised from the progress callback: a run interrupted after some chunks."""


def stop_after(k: int):
    seen = []

    def progress(rounds):
        seen.append(rounds)
        if len(seen) == k:
            raise Stop

    return progress


def test_a_fortune_spins_run_resumes_to_the_uninterrupted_stats(tmp_path):
    """A Fortune round costs twice the stake: the checkpoint must not expect lines x bet."""
    game = make("cops-n-robbers-v1")
    bet = game.bet(mode="fortune")
    assert game.price(bet) == 2 * bet.total  # the case the old check got wrong
    run = dict(game="cops-n-robbers-v1", bet=bet, rounds=100_000, seed=3, chunk_size=20_000, workers=1)
    whole = simulate(**run)
    path = tmp_path / "fortune.json"
    with pytest.raises(Stop):
        simulate(**run, checkpoint=path, progress=stop_after(2))
    assert simulate(**run, checkpoint=path, resume=True) == whole
    assert whole.total_bet == game.price(bet) and whole.rounds == 100_000
    # and a finished run's checkpoint resumes to the same Stats, playing nothing
    steps = []
    assert simulate(**run, checkpoint=path, resume=True, progress=steps.append) == whole
    assert steps == [100_000]


CLUEDO_RUN = dict(game="cluedo-v1", rounds=60_000, seed=5, chunk_size=20_000, workers=1)


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """A finished cluedo run's checkpoint (text) and Stats, to tamper with."""
    path = tmp_path_factory.mktemp("run") / "run.json"
    stats = simulate(bet=make("cluedo-v1").max_bet, checkpoint=path, **CLUEDO_RUN)
    return path.read_text(), stats


def resume(path):
    return simulate(bet=make("cluedo-v1").max_bet, checkpoint=path, resume=True, **CLUEDO_RUN)


def tampered(tmp_path, saved_run, edit, redigest=True):
    """The saved checkpoint after `edit(data)`; with `redigest`, its digest made to match
    again, as a deliberate editor would, so only the consistency checks stand in the way."""
    from reelforge.analysis.checkpoint import content_digest

    data = json.loads(saved_run[0])
    edit(data)
    if redigest:
        data["sha256"] = content_digest(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    return path


def test_an_untouched_checkpoint_resumes(tmp_path, saved_run):
    path = tmp_path / "run.json"
    path.write_text(saved_run[0])
    assert resume(path) == saved_run[1]


def test_an_edited_checkpoint_is_refused_by_its_digest(tmp_path, saved_run):
    from reelforge.errors import InvalidArgument

    def edit(data):
        data["stats"]["total_win"] *= 11  # the RTP of 1094.8% the issue resumed to
    with pytest.raises(InvalidArgument, match="edited or corrupt"):
        resume(tampered(tmp_path, saved_run, edit, redigest=False))
    with pytest.raises(InvalidArgument, match="edited or corrupt"):
        resume(tampered(tmp_path, saved_run, lambda d: d.pop("sha256"), redigest=False))


def _zero_counters(data):
    data["finished"], data["chunks_done"] = [], 0  # the counters stay: no chunk made them


def _cheap_rounds(data):
    data["stats"]["total_bet"] //= 2  # what the old check wrongly wanted of a Fortune run


def _win_above_bound(data):
    data["stats"]["max_win"] = 10**15
    data["stats"]["total_win"] += 10**15


@pytest.mark.parametrize(("edit", "problem"), [
    (_zero_counters, "3 rounds of 0 chunks|no chunk finished|0 chunks finished"),
    (_cheap_rounds, "a round of this run costs 100"),
    (lambda d: d["stats"].update(rounds=d["stats"]["rounds"] + 1, ), "chunks finished"),
    (lambda d: d["stats"]["bands"].__setitem__(0, d["stats"]["bands"][0] + 1), "win bands"),
    (lambda d: d["stats"].update(hits=d["stats"]["rounds"] + 1), "hits"),
    (lambda d: d["stats"].update(total_win=d["stats"]["max_win"] * d["stats"]["rounds"] + 1), "total win"),
    (lambda d: d["stats"].update(total_win=d["stats"]["total_win"] * 11), "squared wins"),
    (lambda d: d["stats"].update(win_squares="0"), "squared wins"),
    (_win_above_bound, "above the most a round can win"),
    (lambda d: d.update(rounds_done=d["rounds_done"] - 1), "rounds_done"),
], ids=["counters-without-chunks", "round-price", "rounds", "bands", "hits", "total-win-above-max",
        "total-win-x11", "squares", "max-win-bound", "rounds-done"])
def test_an_inconsistent_checkpoint_is_refused_even_with_a_matching_digest(tmp_path, saved_run, edit, problem):
    from reelforge.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match=f"inconsistent: .*({problem})"):
        resume(tampered(tmp_path, saved_run, edit))


def _spins_past_the_guard(data):
    from reelforge.engine.model import SPIN_GUARD

    data["stats"]["feature_spins"] = data["stats"]["feature_triggers"] * SPIN_GUARD + 1


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda d: d["stats"].update(base_line_win=d["stats"]["base_line_win"] + 100),
     "not the sum of its parts"),
    (lambda d: d["stats"].update(feature_win=d["stats"]["feature_win"] - 1), "not the sum of its parts"),
    (lambda d: d["stats"].update(feature_spins=d["stats"]["feature_triggers"] - 1),
     "feature_spins .* at least 1"),
    (_spins_past_the_guard, "at most 100,000 each"),
    (lambda d: d["stats"].update(feature_spins=0, feature_triggers=0), "retriggers .* no free spin"),
    (lambda d: d["stats"].update(bonus_spins=3), "bonus_spins 3 in the 0 rounds"),
    (lambda d: d["stats"].update(jackpot_rounds=d["stats"]["jackpot_hits"] + 1), "jackpot_hits"),
    (lambda d: d["stats"].update(jackpot_hits=5, jackpot_rounds=0), "jackpot_hits 5 in jackpot_rounds 0"),
], ids=["line-win", "feature-win", "spins-below-triggers", "spins-past-guard", "retriggers-without-spins",
        "bonus-spins-without-trigger", "jackpot-rounds-above-hits", "jackpot-hits-without-rounds"])
def test_a_checkpoint_whose_parts_or_spin_counters_disagree_is_refused(tmp_path, saved_run, edit, problem):
    """Issue 11's checkpoint review: the total against its parts (no round of cluedo is
    capped), triggers against spins, retriggers and jackpots against what plays them."""
    from reelforge.errors import InvalidArgument

    stats = saved_run[1]
    assert stats.cap_hits == 0 and stats.feature_triggers > 0 and stats.retriggers > 0
    assert stats.bonus_triggers == 0  # cluedo has no trail bonus: any bonus spin is made up
    with pytest.raises(InvalidArgument, match=f"inconsistent: .*{problem}"):
        resume(tampered(tmp_path, saved_run, edit))


def test_a_capped_run_may_total_less_than_its_parts_never_more(saved_run):
    from dataclasses import replace

    from reelforge.analysis.checkpoint import FinishedChunks, RunIdentity, inconsistency

    stats = saved_run[1]
    bet = make("cluedo-v1").max_bet
    identity = RunIdentity.of("cluedo-v1", "0" * 64, bet, 5, stats.rounds, stats.rounds, price=bet.total)
    one = FinishedChunks([0])
    assert inconsistency(identity, stats, one) is None
    cut = replace(stats, cap_hits=1, base_line_win=stats.base_line_win + 7)  # the cap took 7
    assert inconsistency(identity, cut, one) is None
    assert "not the sum of its parts" in inconsistency(identity, replace(cut, cap_hits=0), one)
    grown = replace(stats, cap_hits=1, base_line_win=stats.base_line_win - 7)
    assert "above the sum of its parts" in inconsistency(identity, grown, one)


@pytest.mark.parametrize(("game_id", "mode"), [("cops-n-robbers-v1", "fortune"),
                                               ("candy-jar-clusters-v1", "base")])
def test_real_runs_of_every_family_pass_the_counter_checks(game_id, mode):
    """The checks refuse no real run: a trail bonus (cops) and a cluster game with free and
    super spins and jackpots (candy), against each game's own spin guard."""
    from reelforge.analysis.checkpoint import FinishedChunks, RunIdentity, inconsistency

    game = make(game_id)
    bet = game.bet(mode=mode)
    stats = play_rounds(game, bet, chunk_generator(4, 0), 20_000)
    assert stats.bonus_spins > 0 and (game.family == "lines" or stats.jackpot_hits > 0)
    identity = RunIdentity.of(game_id, "0" * 64, bet, 4, 20_000, 20_000, price=game.price(bet))
    assert inconsistency(identity, stats, FinishedChunks([0]), None, game.max_round_spins(bet)) is None


def test_a_checkpoint_with_counters_and_no_chunks_is_refused(tmp_path):
    """Counters with nothing finished: the empty start of a run is the only such state."""
    from reelforge.analysis.checkpoint import FinishedChunks, RunIdentity, inconsistency
    from reelforge.analysis.stats import Stats

    bet = make("cluedo-v1").max_bet
    identity = RunIdentity.of("cluedo-v1", "0" * 64, bet, 1, 10, 100, price=bet.total)
    assert inconsistency(identity, Stats(), FinishedChunks()) is None
    assert "no chunk finished" in inconsistency(identity, Stats(total_bet=100), FinishedChunks())


def test_too_many_workers_are_refused_naming_the_limit():
    from reelforge.analysis.montecarlo import check_workers, max_workers
    from reelforge.errors import InvalidArgument

    check_workers(max_workers())
    with pytest.raises(InvalidArgument, match=rf"--workers = {max_workers() + 1}: at most {max_workers()}"):
        simulate("cluedo-v1", make("cluedo-v1").max_bet, 1000, 1, workers=max_workers() + 1)
    with pytest.raises(InvalidArgument, match="--workers = 0"):
        check_workers(0)


ALMOST_ENDLESS = """
[game]
id = "almost-endless-v1"
name = "Almost endless"
reels = 3
rows = 1

[symbols]
A = { role = "regular" }
S = { role = "scatter" }

[paytable]
A = { 3 = 5 }

[lines]
paylines = [[0, 0, 0]]

[scatter.S]
pays = { 2 = 1 }

[reels.base]
strips = ["A S", "A S", "A A"]

[reels.free]
strips = ["S A", "S", "A"]
weights = [[99999, 1], [1], [1]]

[bet]
max_bet_per_line = 1

[features.free_games]
trigger = "S"
award = { 2 = 1 }
retrigger = "unlimited"
reel_set = "free"
"""


def test_a_run_whose_free_games_reach_the_spin_guard_reports_nothing(tmp_path):
    """Free spins retrigger with probability 0.99999 (one spin each): a finite mean of 1e5
    spins, so the loader accepts it, but about 1 in 11 rounds runs into the 100,000-spin guard."""
    from reelforge.analysis.montecarlo import GameText
    from reelforge.errors import UnboundedFeature

    text = GameText(ALMOST_ENDLESS, "almost-endless-v1.toml")
    game = LineGame.from_spec(parse_spec(ALMOST_ENDLESS, "almost-endless-v1.toml"))
    path = tmp_path / "run.json"
    with pytest.raises(UnboundedFeature, match="the free games did not end: .* spin guard"):
        simulate(text, game.max_bet, 100, seed=1, chunk_size=10, workers=1, checkpoint=path)
    saved = json.loads(path.read_text())  # saved on the way out, without the guarded chunk
    assert saved["stats"]["guard_hits"] == 0
