"""AnywhereGame: a pays-anywhere spec compiled, with the round, its Outcome and simulation.

It satisfies the `Game` protocol (engine/protocol.py): the bet structure, offers and figures
come from `CommonGame`; this class adds `play`, `simulate`, `check` and the bounds. A bet's
lines are the coins of a stake (`[bet] pay_unit`, fixed), its bet per line the coin value.

The Outcome speaks the events a grid screen already draws: `grid` (as drawn, then after each
tumble), `scatter_win` for a symbol paid anywhere (its count, the global multiplier applied,
the win) and `free_spins_award`; each spin's `multiplier` is the global multiplier it leaves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from reelforge.engine import anywhere as ak
from reelforge.engine.capabilities import GRID_DRAWS, PAR_ANYWHERE, STRATIFIED
from reelforge.engine.common import CommonGame
from reelforge.engine.game_parts import (
    coin_value_rounds,
    grow_tape,
    outcome_identity,
    sim_buffers,
    sim_result,
)
from reelforge.engine.outcome import (
    Bet,
    Counters,
    Flag,
    FreeSpinsAward,
    Grid,
    Outcome,
    ScatterWin,
    Spin,
)
from reelforge.engine.protocol import Labels
from reelforge.engine.tape import TapeKind

INITIAL_TAPE_ROWS = 256


@dataclass(frozen=True, eq=False)
class AnywhereGame(CommonGame):
    spec: Any  # AnywhereGameSpec
    model: ak.AnywhereModel
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    family: ClassVar[str] = "anywhere"
    # one stratum (the whole round) sampled by analysis.stratified; no exact RTP: tumbles refill
    # the grid and the multiplier carries through the free spins
    capabilities: ClassVar[frozenset[str]] = frozenset({STRATIFIED, PAR_ANYWHERE, GRID_DRAWS})
    labels: ClassVar[Labels] = Labels({"base_lines": "base game", "free_games": "free spins"},
                                      "free spins or tumbles", "Free Spins", "retriggers",
                                      "mean free spins", False)
    @classmethod
    def from_spec(cls, spec) -> AnywhereGame:
        return cls(spec, ak.compile_anywhere(spec))

    @property
    def strata(self):
        """What `analysis.stratified` samples: the whole round as one stratum."""
        from reelforge.engine import anywhere_strata

        return anywhere_strata

    @property
    def cap_coins(self) -> int:
        return int(self.model.cap)

    def _family_info(self) -> dict[str, Any]:
        spec = self.spec
        return {"window": {"reels": spec.cols, "rows": spec.rows},
                "min_count": spec.min_count,
                # a pay of p coins is p / pay_unit of the stake; each symbol's pays as the
                # step table a cluster game's are ([count, coins]: from that count on)
                "pays": {"unit": "coin", "coins": spec.pay_unit, "per": "count",
                         "table": [{"symbol": sym, "pays": pay_steps(pays, spec.cells)}
                                   for sym, pays in spec.pays]},
                "multiplier": {"start": spec.multiplier_start,
                               "per_tumble": spec.multiplier_per_tumble,
                               "max": spec.multiplier_max,
                               "symbols": [{"symbol": s, "value": v}
                                           for s, v in spec.multiplier_symbols]},
                "free_games": {"scatter": spec.scatter,
                               "award": [list(a) for a in spec.award],
                               "retrigger": [list(a) for a in spec.retrigger],
                               "max_spins": spec.max_spins, "reel_set": spec.free_reel_set},
                "max_win_x": spec.max_win_x}

    def model_for(self, bet: Bet) -> ak.AnywhereModel:
        return self.model

    def round_cap(self, bet: Bet) -> int:
        return self.cap_coins * bet.bet_per_line

    def max_round_win(self, bet: Bet) -> int:
        """The cap where there is one; else every paying symbol at its top pay, at the largest
        multiplier, on every grid of every spin the guards allow."""
        if self.cap_coins:
            return self.round_cap(bet)
        m = self.model
        per_grid = int(m.pay.max(axis=1).sum()) * int(m.mult_max)
        return per_grid * (int(m.tumble_guard) + 1) * (int(m.max_spins) + 1) * bet.bet_per_line

    def max_round_spins(self, bet: Bet | None = None) -> int:
        return int(self.model.max_spins)

    def check(self, rounds: int = 2000, seed: int = 0) -> None:
        check_anywhere_game(self, rounds, seed)

    # -- play ------------------------------------------------------------------------------
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
        """One round with its tape; the tape grows (and the round replays on the same draws)
        until it holds the whole round."""
        self.check_bet(bet)

        def attempt(rows: int):
            work = ak.new_work(self.model, rows)
            result = ak.play_anywhere_round(self.model, rng.bit_generator, work, True)
            return (result, work), result.tape_rows

        (result, work), used = grow_tape(rng, INITIAL_TAPE_ROWS, attempt)
        return self._outcome(bet, seed, result, work.tape[:used])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds: (counters by lines.SIM_FIELDS name, win-band counts, sum of squared
        wins), credits at this bet; band edges in multiples of the stake."""
        edges, counters, bands, squares = sim_buffers(band_edges_x, bet.lines)
        ak.simulate_anywhere(self.model, rng.bit_generator, rounds, edges, counters, bands, squares,
                             ak.new_work(self.model))
        # the kernels count coins at a coin value of 1
        return sim_result(counters, bands, squares, bet.bet_per_line,
                          ("total_win", "base_line_win", "feature_win", "max_win"))

    def _outcome(self, bet: Bet, seed: int | None, result: ak.RoundResult,
                 tape: np.ndarray) -> Outcome:
        ids = self.spec.symbol_ids
        names = [rs.name for rs in self.spec.reel_sets]
        rows, cols = self.spec.rows, self.spec.cols
        scale = bet.bet_per_line
        spins: list[dict] = []
        for row in tape.tolist():
            kind = row[0]
            if kind == TapeKind.ANYWHERE_SPIN:
                spins.append({"index": row[1], "kind": ("base", "free")[row[2]],
                              "reel_set": names[row[3]], "multiplier": row[4], "stops": (),
                              "win": 0, "events": []})
                continue
            spin = spins[-1]
            if kind == TapeKind.GRID:
                cells = row[7:]
                spin["events"].append(Grid(tumble=row[1], refilled=row[2], symbols=tuple(
                    tuple(ids[cells[r * cols + c]] for r in range(rows)) for c in range(cols))))
            elif kind == TapeKind.ANYWHERE:
                spin["events"].append(ScatterWin(symbol=ids[row[2]], count=row[3],
                                                 multiplier=row[5], win=row[6] * scale))
            elif kind == TapeKind.SPIN_WIN:
                spin["win"] = row[2] * scale
                spin["multiplier"] = row[5]
            elif kind == TapeKind.AWARD:
                spin["events"].append(FreeSpinsAward(trigger_count=row[5], spins_awarded=row[2],
                                                     spins_requested=row[3],
                                                     total_awarded=row[4]))
            else:
                raise ValueError(f"unknown tape row kind {kind}")
        capped_award = any(e.spins_awarded < e.spins_requested for s in spins
                           for e in s["events"] if isinstance(e, FreeSpinsAward))
        flagged: tuple[tuple[Flag, object], ...] = (
            ("free_spins", result.triggered), ("free_spins_capped", capped_award),
            ("win_capped", result.capped), ("spin_guard", result.guard))
        done = tuple(Spin(**{**s, "events": tuple(s["events"])}) for s in spins)
        uncapped = sum(e.win for s in done for e in s.events if e.type == "scatter_win")
        return Outcome(
            **outcome_identity(self, bet, seed),
            total_win=int(result.total) * scale, win_capped=bool(result.capped),
            uncapped_win=uncapped if result.capped else None,
            breakdown={"base_game": int(result.base_win) * scale,
                       "free_spins": int(result.free_win) * scale},
            flags=tuple(name for name, on in flagged if on), modifiers=(),
            counters=Counters(free_spins_played=int(result.free_spins), super_spins_played=0,
                              retriggers=int(result.retriggers), bonus_spins=0),
            spins=done)


def pay_steps(ranges, cells: int) -> list[list[int]]:
    """Count ranges as steps [count, coins], a count paying the last step at or below it: a
    gap between ranges, or above the last, is a step of 0 coins."""
    out: list[list[int]] = []
    for r in ranges:
        out.append([r.low, r.coins])
        if r.high < cells:
            out.append([r.high + 1, 0])
    return [step for i, step in enumerate(out)
            if not (step[1] == 0 and i + 1 < len(out) and out[i + 1][0] == step[0])]


def check_anywhere_game(game: AnywhereGame, rounds: int = 2000, seed: int = 0) -> None:
    """check_game for a pays-anywhere game: every sampled round at the largest and smallest
    coin value is deterministic, within [0, bound], its breakdown and its spins adding up to
    its total and each spin's wins to the spin's win (below the cap), and no round plays
    more free spins than the file allows."""
    from reelforge.engine.check import GameCheckFailed

    spec = game.spec
    for i, first in coin_value_rounds(game, rounds, seed):
        if sum(s.win for s in first.spins) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} spins do not add up to the total")
        for s in first.spins:
            paid = sum(e.win for e in s.scatter_wins)
            if paid != s.win and not first.win_capped:
                raise GameCheckFailed(f"{spec.id}: round {i} spin {s.index}: its wins do not "
                                      "add up to its win")
        if first.counters.free_spins_played > spec.max_spins:
            raise GameCheckFailed(f"{spec.id}: round {i} played {first.counters.free_spins_played} "
                                  f"free spins, above max_spins = {spec.max_spins}")
