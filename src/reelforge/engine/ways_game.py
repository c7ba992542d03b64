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

from reelforge.engine import game_parts as parts
from reelforge.engine import ways as wk
from reelforge.engine.capabilities import EXACT_WAYS, PAR_WAYS
from reelforge.engine.common import CommonGame
from reelforge.engine.outcome import Bet, Counters, Flag, Outcome, Spin, WaysWin, Window
from reelforge.engine.protocol import Labels
from reelforge.engine.tape import TapeKind


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
        return parts.ways_info(self.spec, self.spec.max_win_x)

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
        stops, window, tape = parts.reel_buffers(m, m.paying.shape[0] + 1)
        result = wk.play_ways_round(m, bet.bet_per_line, rng.bit_generator, stops, window, tape,
                                    True)
        return self._outcome(bet, seed, result, tape[: result.tape_rows])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds without a tape (`game_parts.sim_result`), credits at this bet; band edges
        in multiples of the stake."""
        m = self.model
        edges, counters, bands, squares = parts.sim_buffers(band_edges_x, bet.total)
        wk.simulate_ways(m, bet.bet_per_line, rng.bit_generator, rounds, edges, counters, bands,
                         squares, *parts.reel_buffers(m, 1))
        return parts.sim_result(counters, bands, squares)

    def _outcome(self, bet: Bet, seed: int | None, result: wk.WaysResult,
                 tape: np.ndarray) -> Outcome:
        ids = self.spec.symbol_ids
        rows = tape.tolist()
        stops, window = parts.opening_window(rows, self.model, ids, "ways")
        events: list = [Window(symbols=window)]
        for row in rows[1:]:
            if row[0] != TapeKind.WAYS:
                raise ValueError(f"unknown tape row kind {row[0]}")
            events.append(parts.ways_win_event(row, ids))
        flagged: tuple[tuple[Flag, object], ...] = (("win_capped", result.win_capped),)
        return Outcome(
            **parts.outcome_identity(self, bet, seed),
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
    from reelforge.engine.check import GameCheckFailed

    for i, first in parts.coin_value_rounds(game, rounds, seed):
        wins = sum(cast(WaysWin, e).win for s in first.spins for e in s.events_of("ways_win"))
        if (first.uncapped_win if first.win_capped else first.total_win) != wins:
            raise GameCheckFailed(f"{game.spec.id}: round {i}: its ways wins do not add up to its win")
