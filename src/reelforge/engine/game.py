"""LineGame: a line-family spec with its compiled model, satisfying the `Game` protocol."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from reelforge.engine import lines as k
from reelforge.engine.capabilities import EXACT_LINES, LINE_DRAWS, PAR_LINES, TUNE_STOP_WEIGHTS
from reelforge.engine.choices import RedBlackGamble
from reelforge.engine.common import CommonGame
from reelforge.engine.gamble import GambleRules
from reelforge.engine.game_parts import reel_buffers, sim_buffers, sim_result
from reelforge.engine.model import Model, compile_model
from reelforge.engine.outcome import Bet
from reelforge.engine.protocol import ChoiceStep, Labels
from reelforge.engine.rules_protocol import check_rules
from reelforge.spec.model import GameSpec
from reelforge.spec.rules import rules_module


@dataclass(frozen=True, eq=False)
class LineGame(CommonGame):
    spec: GameSpec
    model: Model
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    # the rules' game part (`[game] rules`: compile, play, simulate, e.g.
    # games/cops_n_robbers/game.py) and its compiled model; None for a game without rules
    rules: Any = field(default=None, compare=False)
    rules_model: Any = field(default=None, compare=False)
    family: ClassVar[str] = "lines"
    labels: ClassVar[Labels] = Labels({}, "free games", "free-game", "bonus frequency",
                                      "mean bonus", False)
    OWN_CAPABILITIES: ClassVar[frozenset[str]] = frozenset({EXACT_LINES, PAR_LINES, TUNE_STOP_WEIGHTS,
                                                               LINE_DRAWS})

    @classmethod
    def from_spec(cls, spec: GameSpec) -> LineGame:
        model = compile_model(spec)
        if spec.rules is None:
            return cls(spec, model)
        rules = check_rules(spec.rules, "lines", rules_module(spec.rules, "game"))
        return cls(spec, model, rules=rules, rules_model=rules.compile(spec, model))

    @property
    def capabilities(self) -> frozenset[str]:
        """The family's own, and those its rules declare."""
        return self.OWN_CAPABILITIES | (frozenset() if self.rules is None else self.rules.CAPABILITIES)

    def _family_info(self) -> dict[str, Any]:
        spec = self.spec
        info: dict[str, Any] = dict(
            window={"reels": spec.reels, "rows": spec.rows},
            pays={"unit": "bet_per_line",
                  "table": [{"symbol": sym, "pays": [list(p) for p in pays]}
                            for sym, pays in spec.paytable],
                  "mixed": [{"name": m.name, "symbols": list(m.symbols),
                             "pays": [list(p) for p in m.pays]} for m in spec.mixed]},
            scatters=[{"symbol": s.symbol, "counting": s.counting, "unit": "stake",
                       "pays": [list(p) for p in s.pays]} for s in spec.scatters],
            wilds=[{"symbol": w.symbol, "multiplier": w.multiplier,
                    "substitutes_all_but": sorted({s.id for s in spec.symbols}
                                                  - set(w.substitutes) - {w.symbol})}
                   for w in spec.wilds],
            paylines=[list(line) for line in spec.paylines],
            reel_sets={r.name: [list(strip) for strip in r.strips] for r in spec.reel_sets},
            base_reel_set=spec.base_reel_set)
        fg = spec.free_games
        if fg is not None:
            info["free_games"] = {"trigger": fg.trigger, "award": [list(a) for a in fg.award],
                                  "max_total_spins": fg.max_total_spins,
                                  "multiplier": fg.multiplier, "reel_set": fg.reel_set}
        jp = spec.jackpot
        if jp is not None:
            info["progressive_jackpot"] = {"symbol": jp.symbol, "count": jp.count,
                                           "line": jp.line,
                                           "requires_max_bet": jp.requires_max_bet}
        return info

    @property
    def gamble_rules(self) -> GambleRules | None:
        g = self.spec.gamble
        if g is None:
            return None
        return GambleRules(g.limit_credits, g.max_wins, g.history_length, g.take_half)

    def own_choice_steps(self) -> tuple[ChoiceStep, ...]:
        rules = self.gamble_rules
        return () if rules is None else (RedBlackGamble(rules),)

    def model_for(self, bet: Bet) -> Model:
        """The model as this bet plays it: the mode's reel set, collecting and bought spins, and the round
        cap converted from currency to credits (the one place currency meets the math)."""
        mode = self.spec.mode(bet.mode)
        cap = 0
        limit = self.spec.bet.max_win_minor
        if limit:
            denomination = bet.denomination or self.spec.bet.denominations[0]
            cap = limit // denomination
        set_index = [rs.name for rs in self.spec.reel_sets].index(mode.reel_set)
        if (set_index, mode.collect, cap, mode.buy_spins) == (
                self.model.base_set, self.model.collect, self.model.cap, self.model.buy_spins):
            return self.model
        return self.model._replace(base_set=set_index, collect=mode.collect, cap=cap,
                                   buy_spins=mode.buy_spins)

    # -- play --------------------------------------------------------------------------------
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None):
        """One round, decided whole at bet time, with its event tape (engine.round)."""
        from reelforge.engine.round import play_lines

        return play_lines(self, bet, rng, seed)

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds without a tape: (counters by SIM_FIELDS name, win-band counts, sum
        of squared wins), credits; band edges in multiples of what a round costs."""
        from reelforge.engine.round import jackpot_eligible

        cost = self.price(bet)
        m = self.model_for(bet)
        edges, counters, bands, squares = sim_buffers(band_edges_x, cost)
        stops, window, tape = reel_buffers(m, 1)
        eligible = jackpot_eligible(self, bet)
        bits = rng.bit_generator  # what kernels take (engine/rng.py)
        if self.rules is None:
            k.play_rounds(m, bet.lines, bet.bet_per_line, eligible, bits, rounds, False, edges,
                          counters, bands, squares, stops, window, tape)
        else:
            self.rules.simulate(self, m, bet, eligible, bits, rounds, edges, counters, bands,
                                squares, stops, window, tape)
        return sim_result(counters, bands, squares)

    # -- bounds and checks -------------------------------------------------------------------
    def round_cap(self, bet: Bet) -> int:
        return int(self.model_for(bet).cap)

    def max_round_win(self, bet: Bet) -> int:
        from reelforge.engine.check import line_max_round_win

        return line_max_round_win(self, bet)

    def max_round_spins(self, bet: Bet) -> int:
        """Most spins of one feature (free games, bonus) one round plays: the engine's guard."""
        return int(self.model_for(bet).spin_guard)

    def check(self, rounds: int = 2000, seed: int = 0) -> None:
        from reelforge.engine.check import check_line_game

        check_line_game(self, rounds, seed)
