"""ClusterGame: a cluster-family spec compiled, with the round, its Outcome and simulation.

It offers what `Game` offers the rest of the platform (id, spec, bet(), max_bet, price(),
gamble_rules) plus `play` (one round with its tape -> ClusterOutcome) and `simulate` (the
counters of n rounds), which `engine.round` and `analysis.montecarlo` call for this family.
A standard cluster game plays `cluster_round.play_plain_round`; a game with a rules module
(`[game] rules`) plays that module's round.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from reelforge.engine import cluster_round as cr
from reelforge.engine.clusters import (
    TAPE_CLUSTER,
    TAPE_GRID,
    TAPE_MULTIPLIER,
    TAPE_WIDTH,
    ClusterModel,
    build_cluster_model,
    multiplier_table,
    new_buffers,
)
from reelforge.engine.lines import SIM_FIELDS
from reelforge.engine.outcome import Bet

INITIAL_TAPE_ROWS = 512
# The game package that plays each rules module's round: compile(spec) -> (sets, rules model),
# and play/simulate functions (see games/candy_jar_clusters/game.py).
RULES_GAMES = {"candy_jar": "reelforge.games.candy_jar_clusters.game"}


@dataclass(frozen=True)
class ClusterOutcome:
    """One round as the player saw it; amounts in credits (coins x coin value)."""

    game_id: str
    game_sha256: str  # of the game file that played the round (spec.sha256, game_digest)
    seed: str | None
    bet: Bet
    total_win: int
    breakdown: dict  # source -> credits; adds up to total_win
    flags: tuple[str, ...]
    modifiers: tuple[str, ...]
    free_spins_played: int
    super_spins_played: int
    spins: tuple[dict, ...]  # in play order: base spin, then free and super spins
    win_capped: bool
    spin_guard_reached: bool

    def to_dict(self) -> dict:
        data = asdict(self)
        data["bet"]["total_bet"] = self.bet.total
        return data

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, sort_keys=True)


@dataclass(frozen=True, eq=False)
class ClusterGame:
    spec: Any  # ClusterGameSpec
    model: ClusterModel
    rules: Any  # the rules game module, or None
    rules_model: Any  # its compiled model, or None
    mult: tuple[np.ndarray, np.ndarray]  # the base set's random multiplier (plain games)
    family: str = "clusters"

    @classmethod
    def from_spec(cls, spec) -> ClusterGame:
        ids = list(spec.symbol_ids)
        rules = rules_model = None
        if spec.rules is not None:
            rules = importlib.import_module(RULES_GAMES[spec.rules])
            sets, rules_model = rules.compile(spec)
        else:
            sets = [refill_set(spec, rs) for rs in spec.reel_sets]
        pays = np.zeros((len(ids), spec.rows * spec.cols + 1), dtype=np.int64)
        for sid, steps in spec.pays:
            for size, pay in steps:
                pays[ids.index(sid), size:] = pay
        wild = [s.role == "wild" for s in spec.symbols]
        substitutes = np.zeros((len(ids), len(ids)), dtype=bool)
        for w, targets in spec.substitutes:
            for t in targets:
                substitutes[ids.index(w), ids.index(t)] = True
        wild_mult = np.zeros(len(ids), dtype=np.int64)
        for w, m in spec.wild_multipliers:
            wild_mult[ids.index(w)] = m
        model = build_cluster_model(spec.rows, spec.cols, pays, wild, spec.min_size,
                                    substitutes=substitutes, sets=sets,
                                    wild_multipliers=wild_mult)
        table = {name: (v, w) for name, v, w in spec.random_multipliers}
        mult = multiplier_table(*table.get(spec.reel_sets[0].name, ((1,), (1,))))
        return cls(spec, model, rules, rules_model, mult)

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def gamble_rules(self):
        return None

    @property
    def max_bet(self) -> Bet:
        return Bet(self.spec.bet.max_lines, self.spec.bet.max_bet_per_line)

    @property
    def max_round_spins(self) -> int:
        """Most free and super spins one round plays: its rules' spin guard (0: no feature)."""
        return 0 if self.rules_model is None else int(self.rules_model.spin_guard)

    @property
    def cap_coins(self) -> int:
        return self.spec.max_win_x * self.spec.bet.max_lines

    def bet(self, lines: int | None = None, bet_per_line: int | None = None, mode: str = "base",
            denomination: int | None = None) -> Bet:
        """A checked bet; `bet_per_line` is the coin value (default: the largest)."""
        from reelforge.engine.round import check_bet

        top = self.max_bet
        return check_bet(self, Bet(top.lines if lines is None else lines,
                                   top.bet_per_line if bet_per_line is None else bet_per_line,
                                   mode, denomination))

    def price(self, bet: Bet) -> int:
        return bet.total

    def model_for(self, bet: Bet) -> ClusterModel:
        return self.model

    # -- play ------------------------------------------------------------------------------
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> ClusterOutcome:
        """One round with its tape; the tape grows (and the round replays on the same draws)
        until it holds the whole round."""
        state = rng.bit_generator.state
        rows = INITIAL_TAPE_ROWS
        while True:
            work = new_buffers(self.model, rows)
            if self.rules is None:
                result = cr.play_plain_round(self.model, *self.mult, self.cap_coins, rng, work, True)
                used = result[-1]
                summary = dict(total=result[0], capped=result[4], guard=result[2], mask=0,
                               played=0, supers=0, breakdown={"base_game": result[0]},
                               modifiers=())
            else:
                summary, used = self.rules.play(self, rng, work)
            if used <= rows:
                break
            rows = used
            rng.bit_generator.state = state
        return self._outcome(bet, seed, summary, work.tape[:used])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds: (counters by lines.SIM_FIELDS name, win-band counts, sum of squared
        wins), amounts in credits at this bet; band edges in multiples of the stake."""
        coins = bet.lines
        scale = bet.bet_per_line  # kernels count coins at a coin value of 1
        edges = np.array([x * coins for x in band_edges_x], dtype=np.int64)
        counters = np.zeros(len(SIM_FIELDS), dtype=np.int64)
        bands = np.zeros(len(edges) + 1, dtype=np.int64)
        squares = np.zeros(2, dtype=np.uint64)
        work = new_buffers(self.model)
        if self.rules is None:
            cr.simulate_plain_rounds(self.model, *self.mult, self.cap_coins, rng, rounds, edges,
                                     counters, bands, squares, work)
        else:
            self.rules.simulate(self, rng, rounds, edges, counters, bands, squares, work)
        values = {name: int(v) for name, v in zip(SIM_FIELDS, counters)}
        for name in ("total_win", "base_line_win", "feature_win", "bonus_win", "max_win"):
            values[name] *= scale
        square_sum = (int(squares[1]) << 64 | int(squares[0])) * scale * scale
        return values, tuple(int(b) for b in bands), square_sum

    def _outcome(self, bet: Bet, seed: int | None, summary: dict, tape: np.ndarray) -> ClusterOutcome:
        ids = self.spec.symbol_ids
        names = self.set_names()
        scale = bet.bet_per_line
        cols = self.spec.cols
        spins: list[dict] = []
        decode = self.rules.decode_row if self.rules is not None else None
        for row in tape.tolist():
            kind = row[0]
            if kind == cr.TAPE_SPIN:
                spins.append(dict(index=row[1], kind=("base", "free", "super")[row[2]],
                                  reel_set=names[row[3]], wilds_placed=row[4],
                                  golden_wild_multiplier=row[5], grids=[], clusters=[],
                                  random_multiplier=1, events=[], win=0))
            elif kind == TAPE_GRID:
                cells = row[TAPE_WIDTH:]
                spins[-1]["grids"].append(dict(
                    tumble=row[1], refilled=row[2],
                    grid=[[ids[cells[r * cols + c]] for c in range(cols)]
                          for r in range(self.spec.rows)]))
            elif kind == TAPE_CLUSTER:
                spins[-1]["clusters"].append(dict(tumble=row[1], symbol=ids[row[2]], size=row[3],
                                                  wilds=row[4], win=row[5] * scale,
                                                  wild_multiplier=row[6]))
            elif kind == TAPE_MULTIPLIER:
                spins[-1]["random_multiplier"] = row[2]
            elif kind == cr.TAPE_SPIN_WIN:
                spins[-1]["win"] = row[2] * scale
                spins[-1]["round_total"] = row[3] * scale
            elif decode is not None:
                spins[-1]["events"].append(decode(self, row, scale))
        flags = []
        if summary["mask"]:
            flags.append("free_spins")
        if summary["supers"]:
            flags.append("super_spins")
        if summary["capped"]:
            flags.append("win_capped")
        if summary["guard"]:
            flags.append("spin_guard")
        if summary.get("jackpots"):
            flags.append("jackpot")
        total = int(summary["total"]) * scale
        breakdown = {k: int(v) * scale for k, v in summary["breakdown"].items()}
        return ClusterOutcome(
            game_id=self.spec.id, game_sha256=self.spec.sha256, seed=None if seed is None else f"{seed:064x}", bet=bet,
            total_win=total, breakdown=breakdown, flags=tuple(flags),
            modifiers=tuple(summary["modifiers"]),
            free_spins_played=int(summary["played"]), super_spins_played=int(summary["supers"]),
            spins=tuple(spins), win_capped=bool(summary["capped"]),
            spin_guard_reached=bool(summary["guard"]))

    def set_names(self) -> list[str]:
        if self.rules is not None:
            return self.rules.set_names(self.spec)
        return [rs.name for rs in self.spec.reel_sets]


def reel_set_weights(spec, rs) -> np.ndarray:
    """(cols, S) int64 symbol weights of a weights reel set."""
    ids = list(spec.symbol_ids)
    w = np.zeros((spec.cols, len(ids)), dtype=np.int64)
    for sid, per_col in rs.weights:
        w[:, ids.index(sid)] += per_col
    return w


def refill_set(spec, rs) -> tuple[str, object]:
    """A spec reel set as `build_cluster_model` takes it."""
    if rs.weights is not None:
        return "weights", reel_set_weights(spec, rs)
    ids = list(spec.symbol_ids)
    return "strips", [[ids.index(s) for s in strip] for strip in rs.strips]
