"""WaysGame: a ways-family spec compiled, with the round, its Outcome and simulation.

It satisfies the `Game` protocol (engine/protocol.py): the bet structure, offers and figures
come from `CommonGame`; this class adds `play`, `simulate`, `check` and the bounds. A bet's
lines are the coins of a stake (`[bet] pay_unit`, fixed), its bet per line the coin value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, cast

import numpy as np

from reelforge.engine import ways as wk
from reelforge.engine.capabilities import EXACT_WAYS, PAR_WAYS
from reelforge.engine.common import CommonGame
from reelforge.engine.counters import SIM_FIELDS, Sim
from reelforge.engine.outcome import (
    SCHEMA_VERSION,
    Bet,
    BetRecord,
    Counters,
    Flag,
    Outcome,
    Spin,
    WaysWin,
    Window,
)
from reelforge.engine.protocol import Labels
from reelforge.engine.tape import TAPE_WIDTH, TapeKind


@dataclass(frozen=True, eq=False)
class WaysGame(CommonGame):
    spec: Any  # WaysGameSpec
    model: wk.WaysModel
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    family: ClassVar[str] = "ways"
    labels: ClassVar[Labels] = Labels({"base_lines": "ways"}, "round", "feature",
                                      "bonus frequency", "mean bonus", False)
    capabilities: ClassVar[frozenset[str]] = frozenset({EXACT_WAYS, PAR_WAYS})

    @classmethod
    def from_spec(cls, spec) -> WaysGame:
        return cls(spec, wk.compile_ways(spec))

    def _family_info(self) -> dict[str, Any]:
        spec = self.spec
        return {"window": {"reels": spec.reels, "rows": spec.rows},
                "ways": spec.rows ** spec.reels,
                "pays": {"unit": "coin", "coins": spec.pay_unit, "per": "way",
                         # a pay of p coins is p / pay_unit of the stake
                         "table": [{"symbol": sym, "pays": [list(p) for p in pays]}
                                   for sym, pays in spec.pays]},
                "wilds": [{"symbol": w.symbol, "multiplier": w.multiplier,
                           "substitutes_all_but": sorted({sid for sid, _ in spec.pays}
                                                         - set(w.substitutes))}
                          for w in spec.wilds],
                "wild_multiplier_combine": spec.wild_combine,
                "wilds_on_first_reel": spec.wilds_on_first_reel,
                "reel_sets": {"base": [list(strip) for strip in spec.strips]},
                "base_reel_set": "base",
                "max_win_x": spec.max_win_x}

    def model_for(self, bet: Bet) -> wk.WaysModel:
        return self.model

    def round_cap(self, bet: Bet) -> int:
        return self.model.cap * bet.bet_per_line

    def max_round_win(self, bet: Bet) -> int:
        """An upper bound: each paying symbol at its top pay on its most valuable window
        reel by reel (analysis/ways_exact.py has the exact maximum)."""
        return reel_bound(self.model) * bet.bet_per_line

    def max_round_spins(self, bet: Bet | None = None) -> int:
        return 0  # one spin a round

    def check(self, rounds: int = 2000, seed: int = 0) -> None:
        check_ways_game(self, rounds, seed)

    # -- play ------------------------------------------------------------------------------
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
        """One round with its tape (one row per paying symbol at most, plus the spin's)."""
        self.check_bet(bet)
        m = self.model
        stops = np.zeros(m.n_reels, dtype=np.int64)
        window = np.zeros((m.n_reels, m.n_rows), dtype=np.int16)
        tape = np.zeros((m.paying.shape[0] + 1, TAPE_WIDTH + m.n_reels), dtype=np.int64)
        result = wk.play_ways_round(m, bet.bet_per_line, rng, stops, window, tape, True)
        return self._outcome(bet, seed, result, tape[: result.tape_rows])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds: (counters by counters.SIM_FIELDS name, win-band counts, sum of squared
        wins), credits at this bet; band edges in multiples of the stake."""
        m = self.model
        edges = np.array([x * bet.total for x in band_edges_x], dtype=np.int64)
        counters = np.zeros(len(Sim), dtype=np.int64)
        bands = np.zeros(len(edges) + 1, dtype=np.int64)
        squares = np.zeros(2, dtype=np.uint64)
        stops = np.zeros(m.n_reels, dtype=np.int64)
        window = np.zeros((m.n_reels, m.n_rows), dtype=np.int16)
        tape = np.zeros((1, TAPE_WIDTH + m.n_reels), dtype=np.int64)
        wk.simulate_ways(m, bet.bet_per_line, rng, rounds, edges, counters, bands, squares,
                         stops, window, tape)
        values = {name: int(v) for name, v in zip(SIM_FIELDS, counters)}
        return values, tuple(int(b) for b in bands), int(squares[1]) << 64 | int(squares[0])

    def _outcome(self, bet: Bet, seed: int | None, result: wk.WaysResult,
                 tape: np.ndarray) -> Outcome:
        ids = self.spec.symbol_ids
        m = self.model
        rows = tape.tolist()
        if rows[0][0] != TapeKind.SPIN:
            raise ValueError(f"a ways round's tape opens with a spin row, not kind {rows[0][0]}")
        stops = tuple(rows[0][TAPE_WIDTH:])
        window = tuple(tuple(ids[m.strips[r, (stop + h) % m.strip_len[r]]] for h in range(m.n_rows))
                       for r, stop in enumerate(stops))
        events: list = [Window(symbols=window)]
        for row in rows[1:]:
            if row[0] != TapeKind.WAYS:
                raise ValueError(f"unknown tape row kind {row[0]}")
            events.append(WaysWin(symbol=ids[row[2]], count=row[3], ways=row[4], paid_ways=row[5],
                                  win=row[6]))
        flagged: tuple[tuple[Flag, object], ...] = (("win_capped", result.win_capped),)
        return Outcome(
            schema_version=SCHEMA_VERSION, game_id=self.spec.id, game_sha256=self.spec.sha256,
            seed=None if seed is None else f"{seed:064x}", bet=BetRecord.of(bet, self.price(bet)),
            total_win=int(result.total), win_capped=bool(result.win_capped),
            uncapped_win=int(result.uncapped) if result.win_capped else None,
            breakdown={"base_ways": int(result.total)},
            flags=tuple(name for name, on in flagged if on), modifiers=(),
            counters=Counters(free_spins_played=0, super_spins_played=0, retriggers=0,
                              bonus_spins=0),
            spins=(Spin(index=0, kind="base", reel_set="base", multiplier=1, stops=stops,
                        win=int(result.total), events=tuple(events)),))


def reel_maxima(m: wk.WaysModel, p: int) -> list[tuple[int, int, int]]:
    """Per reel, for paying symbol p, the most (cells, own-or-weighted cells, wild multiplier
    sum) any stop shows, each maximised on its own."""
    out = []
    for r in range(m.n_reels):
        n = int(m.strip_len[r])
        best = [0, 0, 0]
        for stop in range(n):
            cells = [int(m.strips[r, (stop + h) % n]) for h in range(m.n_rows)]
            own = sum(1 for c in cells if m.own[p, c])
            wild = [int(m.wild_weight[p, c]) for c in cells if m.wild_weight[p, c] > 0]
            best = [max(best[0], own + len(wild)), max(best[1], own + sum(wild)),
                    max(best[2], sum(wild))]
        out.append((best[0], best[1], best[2]))
    return out


def reel_bound(m: wk.WaysModel) -> int:
    """An upper bound on one round's win in coins at a coin value of 1, uncapped: each paying
    symbol at its best pay with every reel at its most ways (`add`: prod c (1 + sum w))."""
    total = 0
    for p in range(m.paying.shape[0]):
        maxima = reel_maxima(m, p)
        best = 0
        ways = 1
        weighted = 1
        wild_sum = 0
        for k in range(1, m.n_reels + 1):
            cells, own_weighted, wild = maxima[k - 1]
            ways *= cells
            weighted *= own_weighted
            wild_sum += wild
            paid = ways * (1 + wild_sum) if m.add else weighted
            best = max(best, int(m.pay[p, k]) * paid)
        total += best
    cap = int(m.cap)
    return min(total, cap) if cap else total


def check_ways_game(game: WaysGame, rounds: int = 2000, seed: int = 0) -> None:
    """check_game for a ways game: every sampled round at the largest and smallest coin value
    is deterministic, within [0, bound], its wins adding up to its total."""
    from reelforge.engine.check import GameCheckFailed, sampled_rounds

    spec = game.spec
    for i, first in sampled_rounds(game, (game.max_bet, Bet(spec.bet.max_lines, 1)), rounds, seed):
        wins = sum(cast(WaysWin, e).win for s in first.spins for e in s.events_of("ways_win"))
        if (first.uncapped_win if first.win_capped else first.total_win) != wins:
            raise GameCheckFailed(f"{spec.id}: round {i}: its ways wins do not add up to its win")
        if sum(first.breakdown.values()) != first.total_win:
            raise GameCheckFailed(f"{spec.id}: round {i} breakdown does not add up")
