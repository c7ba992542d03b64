"""Game: a validated spec with its compiled model, and the bet checks that belong to it."""

from __future__ import annotations

from dataclasses import dataclass

from reelforge.engine.gamble import GambleRules
from reelforge.engine.model import Model, compile_model
from reelforge.engine.outcome import Bet
from reelforge.spec.model import GameSpec


@dataclass(frozen=True, eq=False)
class Game:
    spec: GameSpec
    model: Model
    family = "lines"  # a class constant: ClusterGame's is "clusters"

    @classmethod
    def from_spec(cls, spec: GameSpec) -> Game:
        return cls(spec, compile_model(spec))

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def gamble_rules(self) -> GambleRules | None:
        g = self.spec.gamble
        if g is None:
            return None
        return GambleRules(g.limit_credits, g.max_wins, g.history_length, g.take_half)

    def model_for(self, bet: Bet) -> Model:
        """The model as this bet plays it: the mode's reel set and collecting, and the round
        cap converted from currency to credits (the one place currency meets the math)."""
        mode = self.spec.mode(bet.mode)
        cap = 0
        limit = self.spec.bet.max_win_minor
        if limit:
            denomination = bet.denomination or self.spec.bet.denominations[0]
            cap = limit // denomination
        set_index = [rs.name for rs in self.spec.reel_sets].index(mode.reel_set)
        if (set_index, mode.collect, cap) == (self.model.base_set, self.model.collect, self.model.cap):
            return self.model
        return self.model._replace(base_set=set_index, collect=mode.collect, cap=cap)

    def price(self, bet: Bet) -> int:
        """What the round costs in credits: the stake times the mode's price."""
        return bet.total * self.spec.mode(bet.mode).price

    @property
    def max_bet(self) -> Bet:
        return Bet(self.spec.bet.max_lines, self.spec.bet.max_bet_per_line)

    def bet(self, lines: int | None = None, bet_per_line: int | None = None, mode: str = "base",
            denomination: int | None = None) -> Bet:
        """A checked bet; missing parts default to the maximum (BET MAX)."""
        from reelforge.engine.round import check_bet

        top = self.max_bet
        return check_bet(self, Bet(top.lines if lines is None else lines,
                                   top.bet_per_line if bet_per_line is None else bet_per_line,
                                   mode, denomination))


def compile_game(spec):
    """The playable game of a spec: `Game` for line games, `ClusterGame` for cluster games."""
    if getattr(spec, "family", "lines") == "clusters":
        from reelforge.engine.cluster_game import ClusterGame

        return ClusterGame.from_spec(spec)
    return Game.from_spec(spec)
