"""ClusterGame: a cluster-family spec compiled, with the round, its Outcome and simulation.

It satisfies the `Game` protocol (engine/protocol.py): the bet structure, offers and figures
come from `CommonGame`; this class adds `play` (one round with its tape -> Outcome),
`simulate` (the counters of n rounds), `check` and the bounds. A bet's lines are the coins a
stake is made of (fixed), its bet per line the coin value.
A standard cluster game plays `cluster_round.play_plain_round`, or with features stated as data
(a scatter's free spins, grid multipliers) `cluster_features.play_feature_round`; a game with a
rules module (`[game] rules`) plays that module's round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from reelforge.engine import cluster_features as cf
from reelforge.engine import cluster_round as cr
from reelforge.engine import cluster_strata
from reelforge.engine.capabilities import GRID_DRAWS, PAR_CLUSTERS, STRATIFIED, TUNE_BASE_MULTIPLIER
from reelforge.engine.clusters import (
    ClusterModel,
    build_cluster_model,
    multiplier_table,
    new_buffers,
)
from reelforge.engine.common import UNBOUNDED, CommonGame
from reelforge.engine.game_parts import grow_tape, outcome_identity, sim_buffers, sim_result
from reelforge.engine.outcome import (
    Bet,
    ClusterWin,
    Counters,
    Flag,
    FreeSpinsAward,
    Grid,
    GridMultipliers,
    Outcome,
    RandomMultiplier,
    Spin,
    WildsPlaced,
)
from reelforge.engine.protocol import Labels
from reelforge.engine.rules_protocol import check_rules
from reelforge.engine.tape import TAPE_WIDTH, TapeKind
from reelforge.spec.rules import rules_module

INITIAL_TAPE_ROWS = 512


@dataclass(frozen=True, eq=False)
class ClusterGame(CommonGame):
    spec: Any  # ClusterGameSpec
    model: ClusterModel
    rules: Any  # the rules game module, or None
    rules_model: Any  # its compiled model, or None
    mult: tuple[np.ndarray, np.ndarray]  # the base set's random multiplier (plain games)
    features: Any = None  # a standard game's compiled features (cluster_features.FeatureModel)
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    family: ClassVar[str] = "clusters"
    labels: ClassVar[Labels] = Labels({"base_lines": "base game", "free_games": "free spins"},
                                      "free spins or tumbles", "Free Spins",
                                      "rounds with super spins", "mean super spins in those", True)
    OWN_CAPABILITIES: ClassVar[frozenset[str]] = frozenset({STRATIFIED, PAR_CLUSTERS, TUNE_BASE_MULTIPLIER,
                                                               GRID_DRAWS})

    @classmethod
    def from_spec(cls, spec) -> ClusterGame:
        ids = list(spec.symbol_ids)
        rules = rules_model = None
        if spec.rules is not None:
            # the rules' game part: compile(spec) -> (refill sets, rules model), play,
            # simulate, decode_row (games/candy_jar_clusters/game.py)
            rules = check_rules(spec.rules, "clusters", rules_module(spec.rules, "game"))
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
        features = None
        if spec.rules is None and spec.features is not None:
            features = cf.compile_features(spec, spec.max_win_x * spec.bet.max_lines)
        return cls(spec, model, rules, rules_model, mult, features)

    def max_round_spins(self, bet: Bet | None = None) -> int:
        """Most free and super spins one round plays: its rules' spin guard, or its features'
        `max_spins` (0: no feature)."""
        if self.features is not None:
            return int(self.features.max_spins)
        return 0 if self.rules_model is None else int(self.rules_model.spin_guard)

    def round_cap(self, bet: Bet) -> int:
        return self.cap_coins * bet.bet_per_line

    def max_round_win(self, bet: Bet) -> int:
        """Tumbles and extra spins have no bound but the cap."""
        return self.round_cap(bet) or UNBOUNDED

    def check(self, rounds: int = 2000, seed: int = 0) -> None:
        from reelforge.engine.check import check_cluster_game

        check_cluster_game(self, rounds, seed)

    @property
    def strata(self):
        """What `analysis.stratified` samples: the rules' game part, or for a standard game
        (its round one base spin) `cluster_strata`, the base game alone."""
        if self.features is not None:
            return cf
        return cluster_strata if self.rules is None else self.rules

    @property
    def cap_coins(self) -> int:
        return self.spec.max_win_x * self.spec.bet.max_lines

    def model_for(self, bet: Bet) -> ClusterModel:
        return self.model

    # -- play ------------------------------------------------------------------------------
    def play(self, bet: Bet, rng: np.random.Generator, seed: int | None = None) -> Outcome:
        """One round with its tape; the tape grows (and the round replays on the same draws)
        until it holds the whole round."""
        self.check_bet(bet)
        bits = rng.bit_generator  # what kernels take (engine/rng.py)

        def attempt(rows: int):
            work = new_buffers(self.model, rows)
            if self.features is not None:
                r = cf.play_feature_round(self.model, self.features, bits, work,
                                          cf.new_feature_buffers(self.model), True)
                used = r.tape_rows
                summary = {"total": r.total, "capped": r.capped, "guard": r.guard,
                           "mask": int(r.triggered), "played": r.played, "supers": 0,
                           "extras": r.retriggers, "modifiers": (),
                           "breakdown": {"base_game": r.base_win, "free_spins": r.free_win}}
            elif self.rules is None:
                result = cr.play_plain_round(self.model, *self.mult, self.cap_coins, bits, work,
                                             True)
                used = result.tape_rows
                summary = {"total": result.win, "capped": result.capped,
                           "guard": result.guard, "mask": 0, "played": 0, "supers": 0,
                           "breakdown": {"base_game": result.win}, "modifiers": ()}
            else:
                summary, used = self.rules.play(self, bits, work)
            return (summary, work), used

        (summary, work), used = grow_tape(rng, INITIAL_TAPE_ROWS, attempt)
        return self._outcome(bet, seed, summary, work.tape[:used])

    def simulate(self, bet: Bet, rng: np.random.Generator, rounds: int,
                 band_edges_x) -> tuple[dict, tuple[int, ...], int]:
        """n rounds: (counters by lines.SIM_FIELDS name, win-band counts, sum of squared
        wins), amounts in credits at this bet; band edges in multiples of the stake."""
        edges, counters, bands, squares = sim_buffers(band_edges_x, bet.lines)
        work = new_buffers(self.model)
        bits = rng.bit_generator  # what kernels take (engine/rng.py)
        if self.features is not None:
            cf.simulate_feature_rounds(self.model, self.features, bits, rounds, edges, counters,
                                       bands, squares, work, cf.new_feature_buffers(self.model))
        elif self.rules is None:
            cr.simulate_plain_rounds(self.model, *self.mult, self.cap_coins, bits, rounds, edges,
                                     counters, bands, squares, work)
        else:
            self.rules.simulate(self, bits, rounds, edges, counters, bands, squares, work)
        # kernels count coins at a coin value of 1
        return sim_result(counters, bands, squares, bet.bet_per_line,
                          ("total_win", "base_line_win", "feature_win", "bonus_win", "max_win"))

    def _outcome(self, bet: Bet, seed: int | None, summary: dict, tape: np.ndarray) -> Outcome:
        """The Outcome from the round's summary and tape: each row an event of its spin; the
        rules module decodes its own rows (`decode_row`)."""
        ids = self.spec.symbol_ids
        names = self.set_names()
        scale = bet.bet_per_line
        rows, cols = self.spec.rows, self.spec.cols
        spins: list[dict] = []
        decode = self.rules.decode_row if self.rules is not None else None
        applied: list[int] = []  # grid multipliers of the tumble's clusters, for its MARKS row
        for row in tape.tolist():
            kind = row[0]
            if kind == TapeKind.CLUSTER_SPIN:
                spins.append({"index": row[1], "kind": ("base", "free", "super")[row[2]],
                              "reel_set": names[row[3]], "multiplier": 1, "stops": (), "win": 0,
                              "events": [WildsPlaced(count=row[4], golden_multiplier=row[5])]
                              if row[4] or row[5] else []})
                continue
            spin = spins[-1]
            if kind == TapeKind.GRID:
                cells = row[TAPE_WIDTH:]
                spin["events"].append(Grid(tumble=row[1], refilled=row[2], symbols=tuple(
                    tuple(ids[cells[r * cols + c]] for r in range(rows)) for c in range(cols))))
            elif kind == TapeKind.CLUSTER:
                spin["events"].append(ClusterWin(tumble=row[1], symbol=ids[row[2]], size=row[3],
                                                 wilds=row[4], wild_multiplier=row[6],
                                                 win=row[5] * scale))
            elif kind == TapeKind.MULTIPLIER:
                spin["multiplier"] = row[2]
                spin["events"].append(RandomMultiplier(tumble=row[1], value=row[2]))
            elif kind == TapeKind.CELL_MULTIPLIER:
                applied.append(row[2])  # the grid multiplier of the CLUSTER row before it
            elif kind == TapeKind.MARKS:
                cells = row[TAPE_WIDTH:]
                spin["events"].append(GridMultipliers(tumble=row[1], applied=tuple(applied), cells=tuple(
                    tuple(cells[r * cols + c] for r in range(rows)) for c in range(cols))))
                applied = []
            elif kind == TapeKind.SCATTER_AWARD:
                spin["events"].append(FreeSpinsAward(trigger_count=row[2], spins_awarded=row[3],
                                                     spins_requested=row[4],
                                                     total_awarded=row[5]))
            elif kind == TapeKind.SPIN_WIN:
                spin["win"] = row[2] * scale  # the round's running total (row[3]) is the sum
            elif decode is not None:
                spin["events"].append(decode(self, row, scale))
            else:
                raise ValueError(f"unknown tape row kind {kind}")
        flagged: tuple[tuple[Flag, object], ...] = (
            ("free_spins", summary["mask"]), ("super_spins", summary["supers"]),
            ("win_capped", summary["capped"]), ("spin_guard", summary["guard"]),
            ("jackpot", summary.get("jackpots")))
        done = tuple(Spin(**{**s, "events": tuple(s["events"])}) for s in spins)
        return Outcome(
            **outcome_identity(self, bet, seed),
            total_win=int(summary["total"]) * scale, win_capped=bool(summary["capped"]),
            uncapped_win=sum(map(uncapped_spin_win, done)) if summary["capped"] else None,
            breakdown={k: int(v) * scale for k, v in summary["breakdown"].items()},
            flags=tuple(name for name, on in flagged if on),
            modifiers=tuple(summary["modifiers"]),
            counters=Counters(free_spins_played=int(summary["played"]),
                              super_spins_played=int(summary["supers"]),
                              retriggers=int(summary.get("extras", 0)), bonus_spins=0),
            spins=done)

    def _family_info(self) -> dict[str, Any]:
        spec = self.spec
        return {"window": {"reels": spec.cols, "rows": spec.rows}, "min_cluster": spec.min_size,
                "pays": {"unit": "coin", "coins": spec.bet.max_lines,
                         "table": [{"symbol": sym, "pays": [list(p) for p in pays]}
                                   for sym, pays in spec.pays]},
                "max_win_x": spec.max_win_x,
                # what a rules module adds for a screen (Candy Jar's jackpot ladder)
                **(self.rules.info(spec) if self.rules is not None else {})}

    @property
    def capabilities(self) -> frozenset[str]:
        """The family's own, and those its rules declare. Features stated as data take away
        the base-multiplier tuning: their estimate samples whole rounds, with no raw base
        wins to re-weight."""
        if self.features is not None:
            return self.OWN_CAPABILITIES - {TUNE_BASE_MULTIPLIER}
        return self.OWN_CAPABILITIES | (frozenset() if self.rules is None else self.rules.CAPABILITIES)

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


def uncapped_spin_win(spin: Spin) -> int:
    """What a cluster spin paid before the round's cap cut it: its cluster wins times its
    random multiplier, and its fixed jackpots (each with its multiplier applied)."""
    clusters = sum(e.win for e in spin.events if e.type == "cluster_win")
    return clusters * spin.multiplier + sum(e.win for e in spin.events if e.type == "jackpot")
