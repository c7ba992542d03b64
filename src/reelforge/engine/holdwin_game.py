"""HoldWinGame: a hold-and-win spec compiled, with the round, its Outcome and simulation.

It satisfies the `Game` protocol (engine/protocol.py) as WaysGame does (the base game is a
ways game: its bet is `pay_unit` coins of one coin value). The Outcome uses the schema's
existing events, so the client's generic screen draws it: the base spin's window and ways
wins, `bonus` (the respins start) and a `cash` per prize in view; then one spin of kind
"bonus" per respin, its window the locked prizes on blanks and a `cash` per prize landed; the
last one `collection` (the plain values) and a `jackpot` per named jackpot prize and for a
full screen ("GRAND").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, cast

import numpy as np

from reelforge.engine import game_parts as parts
from reelforge.engine import holdwin as hk
from reelforge.engine.capabilities import EXACT_HOLDWIN, HOLDWIN_DRAWS, PAR_HOLDWIN
from reelforge.engine.common import CommonGame
from reelforge.engine.outcome import (
    Bet,
    Bonus,
    Cash,
    Collection,
    Counters,
    Flag,
    Jackpot,
    Outcome,
    Spin,
    Window,
)
from reelforge.engine.protocol import Labels
from reelforge.engine.tape import TapeKind
from reelforge.engine.ways_game import reel_bound

GRAND = "GRAND"  # the jackpot event's name for a full screen


@dataclass(frozen=True, eq=False)
class HoldWinGame(CommonGame):
    spec: Any  # HoldWinGameSpec
    model: hk.HoldWinModel
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    family: ClassVar[str] = "holdwin"
    labels: ClassVar[Labels] = Labels({"base_lines": "ways", "bonus": "hold and win"}, "round",
                                      "hold and win", "respins frequency", "mean respins", False)
    capabilities: ClassVar[frozenset[str]] = frozenset({EXACT_HOLDWIN, PAR_HOLDWIN,
                                                                HOLDWIN_DRAWS})

    @classmethod
    def from_spec(cls, spec) -> HoldWinGame:
        return cls(spec, hk.compile_holdwin(spec))

    def _family_info(self) -> dict[str, Any]:
        spec = self.spec
        return parts.ways_info(
            spec.base, spec.max_win_x,
            hold_and_win={
                "prize": spec.prize, "blank": spec.blank, "trigger": spec.trigger,
                "respins": spec.respins, "respin_prize_odds": list(spec.respin_odds),
                "values": [{"x": v.x, "weight": v.weight, "jackpot": v.jackpot or None}
                           for v in spec.values],
                "grand_x": spec.grand_x},
            # what the client's anticipation reads: the fewest prizes that start the feature
            feature_trigger={"symbols": [spec.prize], "count": spec.trigger})

    def model_for(self, bet: Bet) -> hk.HoldWinModel:
        return self.model

    def round_cap(self, bet: Bet) -> int:
        return self.model.cap * bet.bet_per_line

    def max_round_win(self, bet: Bet) -> int:
        """An upper bound: the ways base game's (engine.ways_game.reel_bound), plus every cell
        locked at the top value and the grand prize; the cap where it is lower."""
        m = self.model
        coins = round_bound_coins(m)
        return (min(coins, m.cap) if m.cap else coins) * bet.bet_per_line

    def max_round_spins(self, bet: Bet | None = None) -> int:
        """The most respins a round plays: at most cells - trigger respins land a prize (each
        locks a cell), each after at most respins - 1 that land none, then `respins` that
        land none: (cells - trigger + 1) x respins. It sizes the tape, so none is lost."""
        spec = self.spec
        return (spec.cells - spec.trigger + 1) * spec.respins

    def check(self, rounds: int = 2000, seed: int = 0) -> None:
        check_holdwin_game(self, rounds, seed)

    # -- play ------------------------------------------------------------------------------
    def _buffers(self, tape_rows: int) -> tuple[np.ndarray, ...]:
        """(stops, window, locked, tape): the locked cells' prize index, -1 where none."""
        w = self.model.ways
        stops, window, tape = parts.reel_buffers(w, tape_rows)
        return stops, window, np.full((w.n_reels, w.n_rows), -1, dtype=np.int64), tape

    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
        """One round with its tape: the spin, its ways wins, and at most a row per cell, per
        respin and the end."""
        self.check_bet(bet)
        m = self.model
        cells = m.ways.n_reels * m.ways.n_rows
        stops, window, locked, tape = self._buffers(
            1 + m.ways.paying.shape[0] + cells + self.max_round_spins() + 1)
        result = hk.play_holdwin_round(m, bet.bet_per_line, rng.bit_generator, stops, window,
                                       locked, tape, True)
        return self._outcome(bet, seed, result, tape[: result.tape_rows])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds without a tape (`game_parts.sim_result`), credits at this bet; band edges
        in multiples of the stake."""
        m = self.model
        edges, counters, bands, squares = parts.sim_buffers(band_edges_x, bet.total)
        stops, window, locked, tape = self._buffers(1)
        hk.simulate_holdwin(m, bet.bet_per_line, rng.bit_generator, rounds, edges, counters,
                            bands, squares, stops, window, locked, tape)
        return parts.sim_result(counters, bands, squares)

    def _outcome(self, bet: Bet, seed: int | None, result: hk.HoldWinResult,
                 tape: np.ndarray) -> Outcome:
        spec, m = self.spec, self.model
        ids = spec.symbol_ids
        rows = tape.tolist()
        w = m.ways
        stops, window = parts.opening_window(rows, w, ids, "hold-and-win")
        stake = bet.total
        spins: list[list] = [[Window(symbols=window)]]  # events per spin
        grid = [[spec.blank] * w.n_rows for _ in range(w.n_reels)]
        jackpots: list[Jackpot] = []
        plain = 0
        for row in rows[1:]:
            kind, spin = row[0], row[1]
            if kind == TapeKind.WAYS:
                spins[0].append(parts.ways_win_event(row, ids))
            elif kind == TapeKind.HOLD_PRIZE:
                if spin == 0 and not any(e.type == "bonus" for e in spins[0]):
                    spins[0].append(Bonus(trigger_count=sum(c == spec.prize for r in window
                                                            for c in r), start_multiplier=1))
                while len(spins) <= spin:
                    spins.append([])
                reel, cell, value = row[2], row[3], spec.values[row[4]]
                grid[reel][cell] = spec.prize
                spins[spin].append(Cash(reel=reel, row=cell, value=value.x))
                if value.jackpot:
                    jackpots.append(Jackpot(jackpot=value.jackpot, pays=value.x * stake,
                                            multiplier=1, win=value.x * stake))
                else:
                    plain += value.x
            elif kind == TapeKind.HOLD_RESPIN:
                # the respin's window first: the prizes locked before it and those it landed
                while len(spins) <= spin:
                    spins.append([])
                spins[spin].insert(0, Window(symbols=tuple(tuple(c) for c in grid)))
            elif kind == TapeKind.HOLD_END:
                if row[4]:
                    jackpots.append(Jackpot(jackpot=GRAND, pays=spec.grand_x * stake,
                                            multiplier=1, win=spec.grand_x * stake))
                spins[spin].extend([Collection(collectors=row[2], values=plain, multiplier=1,
                                               win=plain * stake), *jackpots])
            else:
                raise ValueError(f"unknown tape row kind {row[0]}")
        ways_win = int(result.ways_win)
        wins = [0] * len(spins)
        wins[0] = ways_win
        wins[-1] += int(result.feature_win)
        base_part = min(ways_win, int(result.total))
        flagged: tuple[tuple[Flag, object], ...] = (("bonus", result.triggered),
                                                    ("win_capped", result.win_capped))
        return Outcome(
            **parts.outcome_identity(self, bet, seed),
            total_win=int(result.total), win_capped=bool(result.win_capped),
            uncapped_win=int(result.uncapped) if result.win_capped else None,
            breakdown={"base_ways": base_part, "hold_and_win": int(result.total) - base_part},
            flags=tuple(name for name, on in flagged if on), modifiers=(),
            counters=Counters(free_spins_played=0, super_spins_played=0, retriggers=0,
                              bonus_spins=int(result.respins)),
            spins=tuple(Spin(index=i, kind="base" if i == 0 else "bonus",
                             reel_set="base" if i == 0 else "respin", multiplier=1,
                             stops=stops if i == 0 else (), win=wins[i], events=tuple(events))
                        for i, events in enumerate(spins)))


def round_bound_coins(m: hk.HoldWinModel) -> int:
    """An upper bound on one round's win in coins at a coin value of 1, uncapped."""
    feature = (m.ways.n_reels * m.ways.n_rows * int(m.value_x.max()) + m.grand_x) * m.pay_unit
    return reel_bound(m.ways) + feature


def check_holdwin_game(game: HoldWinGame, rounds: int = 2000, seed: int = 0) -> None:
    """check_game for a hold-and-win game: every sampled round at the largest and smallest
    coin value is deterministic and within [0, bound], its ways wins, prizes and grand prize
    adding up to its win, and its respins end as the rules say (no respins left, or a full
    screen)."""
    from reelforge.engine.check import GameCheckFailed

    spec = game.spec
    for i, first in parts.coin_value_rounds(game, rounds, seed):
        events = [e for s in first.spins for e in s.events]
        wins = sum(cast(Any, e).win for e in events
                   if e.type in ("ways_win", "collection", "jackpot"))
        if (first.uncapped_win if first.win_capped else first.total_win) != wins:
            raise GameCheckFailed(f"{spec.id}: round {i}: its wins do not add up to its win")
        cash = [cast(Cash, e) for e in events if e.type == "cash"]
        if cash and len(cash) < spec.trigger:
            raise GameCheckFailed(f"{spec.id}: round {i}: respins with {len(cash)} prizes, "
                                  f"fewer than hold.trigger = {spec.trigger}")
        if len(first.spins) != 1 + first.counters.bonus_spins:
            raise GameCheckFailed(f"{spec.id}: round {i}: {first.counters.bonus_spins} respins "
                                  f"played, {len(first.spins) - 1} in its outcome")
        if len({(c.reel, c.row) for c in cash}) != len(cash):
            raise GameCheckFailed(f"{spec.id}: round {i}: a cell locked twice")
