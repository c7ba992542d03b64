"""check_game: what every shipped or loaded game must satisfy before anyone plays it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from reelforge.engine.capabilities import ANALYSES, CAPABILITIES, PAR_SHEETS
from reelforge.engine.game import LineGame
from reelforge.engine.outcome import Bet, Outcome
from reelforge.engine.round import play_round
from reelforge.errors import ReelforgeError


class GameCheckFailed(ReelforgeError):
    """A game broke an invariant of check_game: the message says which and where."""


def check_game(game, rounds: int = 2000, seed: int = 0) -> None:
    """Raise GameCheckFailed unless the game's data and a sample of rounds are sound (each
    family checks its own: `Game.check`), and unless it declares known capabilities, exactly one
    of them an analysis and one a PAR sheet (`engine.capabilities`)."""
    check_capabilities(game.id, game.capabilities)
    game.check(rounds, seed)


def check_capabilities(game_id: str, declared: frozenset[str]) -> None:
    """GameCheckFailed unless every declared capability is known, exactly one an analysis and
    exactly one a PAR sheet."""
    unknown = sorted(declared - CAPABILITIES.keys())
    if unknown:
        raise GameCheckFailed(f"{game_id}: unknown capabilities {unknown}; known: "
                              f"{sorted(CAPABILITIES)}")
    for kind, names in (("analyses", ANALYSES), ("PAR sheets", PAR_SHEETS)):
        found = sorted(declared & names.keys())
        if len(found) != 1:
            raise GameCheckFailed(f"{game_id}: declares the {kind} {found}: must be exactly one "
                                  f"of {sorted(names)}")


def line_max_round_win(game: LineGame, bet: Bet) -> int:
    """An upper bound on one line-game round's win in credits (every line at its top pay,
    every scatter at its top pay, every free spin awarded); infinite retriggers have no bound.
    A game with rules answers through its rules' `max_round_win(game, model, bet)` (part of
    `ReelRules`: Cops n Robbers' chase, only the cap bounds it)."""
    m = game.model_for(bet)
    if game.rules is not None:
        return game.rules.max_round_win(game, m, bet)
    return plain_max_round_win(m, bet)


def plain_max_round_win(m, bet: Bet) -> int:
    """`line_max_round_win` of the generic round alone (base spin and free games) of the
    line `Model` m as `bet` plays it, credits."""
    wild_mult = int(m.wild_multiplier.max())
    if m.multiplier_product:
        wild_mult = wild_mult ** m.n_reels
    line_unit = max(int(m.line_pay.max()), int(m.mixed_pay.max())) * wild_mult
    if m.wild_draw_count.any():  # the top draw for every wild of the paid run, on top: a run
        top = int(m.wild_draw_values.max())  # of a paying symbol holds at most reels - 1

        def drawn(k: int) -> int:
            return (top ** k, k * top, top)[m.wild_draw_combine]

        regular = max(int(m.line_pay[~m.is_wild].max(initial=0)), int(m.mixed_pay.max()))
        line_unit = max(regular * drawn(m.n_reels - 1),
                        int(m.line_pay[m.is_wild].max(initial=0)) * drawn(m.n_reels)) * wild_mult
    line_top = line_unit * bet.bet_per_line * bet.lines
    if m.collect:  # every collector collects every cash value in view
        cells = m.n_reels * m.n_rows
        line_top += (cells // 2) * (cells - cells // 2) * int(m.cash_values.max()) * bet.total
    scatter_top = int(m.scatter_pay.sum(axis=1).max(initial=0)) * bet.total
    spin_top = line_top + scatter_top
    if m.fg_scatter < 0:
        return spin_top
    if m.fg_retrigger_mode == 0:
        spins = max(int(m.fg_award.max()), int(m.buy_spins))
    elif m.fg_retrigger_mode == 2:
        spins = m.fg_max_total
    else:
        spins = m.spin_guard
    return spin_top + spins * spin_top * int(m.fg_multipliers.max())


def _ends(game_id: str, i: int, seed: int, outcome) -> None:
    """Refuse a round that stopped at the engine's guard: its free spins, chase or tumbles
    would not have ended, so its win is an artefact of the guard, not of the rules (and such
    rounds are slow: checking thousands of them would look like a hang)."""
    if outcome.spin_guard_reached:
        raise GameCheckFailed(f"{game_id}: round {i} at seed {seed} reached the engine's guard "
                              "(free spins, tumbles or a chase that did not end): the rules "
                              "let a round go on without end")


def sampled_rounds(game, bets: Iterable[Bet], rounds: int, seed: int) -> Iterator[tuple[int, Outcome]]:
    """Each family's check of its sample: `rounds` rounds at each bet, each played twice from
    one seed and refused unless the two agree, it ended before the engine's guard and its win
    is within [0, the bet's bound]; yields (index, outcome) for the family's own checks."""
    spec = game.spec
    for bet in bets:
        top = game.max_round_win(bet)
        a = np.random.Generator(np.random.PCG64(seed))
        b = np.random.Generator(np.random.PCG64(seed))
        for i in range(rounds):
            first, second = play_round(game, bet, a), play_round(game, bet, b)
            if first != second:
                raise GameCheckFailed(f"{spec.id}: round {i} at seed {seed} is not deterministic")
            _ends(spec.id, i, seed, first)
            if not 0 <= first.total_win <= top:
                raise GameCheckFailed(f"{spec.id}: round {i} won {first.total_win}, outside [0, {top}]")
            yield i, first


def check_line_game(game: LineGame, rounds: int = 2000, seed: int = 0) -> None:
    """check_game for a line game: strips cover the window, pays grow with the count, and
    every sampled round at the largest and smallest bet and in every mode is deterministic,
    within [0, bound], its breakdown and its spins adding up to its total."""
    spec = game.spec
    for rs in spec.reel_sets:
        for r, strip in enumerate(rs.strips, 1):
            if len(strip) < spec.rows:
                raise GameCheckFailed(f"{spec.id}: reel set {rs.name} reel {r} has {len(strip)} stops, fewer than {spec.rows} rows")
    for sid, pays in spec.paytable:
        values = [p for _, p in pays]
        if values != sorted(values):
            raise GameCheckFailed(f"{spec.id}: paytable {sid} pays less for more symbols: {dict(pays)}")
    low = Bet(spec.bet.min_lines, 1)
    bets = {game.max_bet, low} | {Bet(low.lines, 1, m.name) for m in spec.modes}
    for i, first in sampled_rounds(game, sorted(bets, key=repr), rounds, seed):
        total = sum(first.breakdown.values())
        if total != (first.uncapped_win if first.win_capped else first.total_win):
            raise GameCheckFailed(f"{spec.id}: round {i} breakdown does not add up")
        if not first.win_capped and sum(s.win for s in first.spins) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} spins do not add up to the total")


def check_cluster_game(game, rounds: int = 2000, seed: int = 0) -> None:
    """check_game for a cluster game: pays grow with the cluster, and every sampled round at
    the largest and smallest coin value is deterministic, within [0, cap], its breakdown and
    its spins adding up to its total."""
    spec = game.spec
    for sid, steps in spec.pays:
        values = [p for _, p in steps]
        if values != sorted(values):
            raise GameCheckFailed(f"{spec.id}: pays of {sid} fall as clusters grow: {dict(steps)}")
    for i, first in sampled_rounds(game, (game.max_bet, Bet(spec.bet.max_lines, 1)), rounds, seed):
        if sum(first.breakdown.values()) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} breakdown does not add up")
        if sum(s.win for s in first.spins) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} spins do not add up to the total")
