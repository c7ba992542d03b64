"""The game part of the candy_jar rules (`spec.rules.rules_module("candy_jar", "game")`): what
`ClusterGame` asks of it (compile, play one round, simulate, decode tape) and the strata of
`analysis.stratified`: it signs `engine.rules_protocol.GridRules`, and declares the candy jars
(the PAR sheet's words for them) and the wilds' placement by a partial shuffle (a draw the RNG
evidence inventories).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reelforge.engine.capabilities import CANDY_JARS, WILD_PLACEMENT
from reelforge.engine.cluster_strata import (
    BASE_EXTRA,
    FREE_FIELDS,
    BaseExtra,
    BaseField,
    FreeField,
)
from reelforge.engine.clusters import new_buffers
from reelforge.engine.outcome import ExtraFreeSpins, FreeSpinsTriggered, Jackpot, Jars
from reelforge.engine.tape import TapeKind
from reelforge.games.candy_jar_clusters import kernel as k
from reelforge.games.candy_jar_clusters.rules import compile_candy, compose_sets
from reelforge.games.candy_jar_clusters.spec import JACKPOTS, MODIFIERS

CAPABILITIES = frozenset({CANDY_JARS, WILD_PLACEMENT})


def compile(spec):
    """(refill sets for the cluster model, CandyModel)."""
    return compose_sets(spec), compile_candy(spec)


def info(spec) -> dict:
    """What the game description adds for a screen: the fixed jackpots (name, candies
    collected, multiple of the total bet), so a jackpot ladder shows its amounts at the bet."""
    return {"jackpots": [{"name": jp.name, "collect": jp.collect, "pays_x": jp.pays_x}
                         for jp in spec.features.jackpots]}


def set_names(spec) -> list[str]:
    f = spec.features
    return [spec.reel_sets[0].name, f.free_set, f"{f.free_set}+extra", f"{f.free_set}+jackpots",
            f"{f.free_set}+extra+jackpots", f"{f.super_set}+extra+jackpots"]


def modifier_names(mask: int) -> tuple[str, ...]:
    return tuple(name for bit, name in enumerate(MODIFIERS) if mask >> bit & 1)


def buffers(game):
    cells = np.zeros(game.spec.rows * game.spec.cols, dtype=np.int64)
    meters = np.zeros(len(JACKPOTS), dtype=np.int64)
    return cells, meters


def play(game, bits, work):
    """(summary of the round for the Outcome, tape rows used)."""
    cells, meters = buffers(game)
    r = k.play_round(game.model, game.rules_model, bits, work, cells, meters, True)
    jackpot_part = min(r.jackpot_win, r.free_win)  # a capped round may end below its jackpots
    summary = {"total": r.total, "capped": r.capped, "guard": r.guard, "mask": r.mask,
               "played": r.played, "supers": r.supers, "jackpots": r.jackpots,
               "extras": r.extras,
               "breakdown": {"base_game": r.base_win, "free_spins": r.free_win - jackpot_part,
                             "jackpots": jackpot_part},
               "modifiers": modifier_names(r.mask)}
    return summary, r.tape_rows


def simulate(game, bits, rounds, edges, counters, bands, squares, work):
    cells, meters = buffers(game)
    k.simulate_rounds(game.model, game.rules_model, bits, rounds, edges, counters, bands, squares,
                      work, cells, meters)


def decode_row(game, row, scale):
    """The typed Outcome event of one of the rules' tape rows (amounts in credits)."""
    kind = row[0]
    if kind == TapeKind.CANDIES:
        return Jars(wild=row[2], free_spins=row[3], jackpots=row[4], triggered=bool(row[5]))
    if kind == TapeKind.TRIGGER:
        return FreeSpinsTriggered(modifiers=modifier_names(row[2]), spins=row[3],
                                  extra_spins_at_start=row[4])
    if kind == TapeKind.EXTRA:
        return ExtraFreeSpins(collected=row[2], spins_awarded=row[3], toward_super_spin=row[4],
                              super_spins_awarded=row[5])
    if kind == TapeKind.JACKPOT:
        return Jackpot(jackpot=JACKPOTS[row[2]], pays=row[3] * scale, multiplier=row[4],
                       win=row[5] * scale)
    raise ValueError(f"unknown tape row kind {kind}")


# -- the strata of `analysis.stratified` ---------------------------------------------------
def feature_classes(game) -> dict[int, str]:
    """Trigger classes: each non-empty set of modifiers (mask 1..7) by its name."""
    return {mask: "+".join(modifier_names(mask)) for mask in range(1, k.N_MASKS)}


def initial_trigger_probabilities(game) -> dict[int, float]:
    """Exactly, P(the drawn base grid's candies alone trigger mask m), m = 1..7: each cell is
    an independent weighted draw, so a walk over the cells keeps (colours seen, candies up to
    the trigger count) with rational probabilities. Empty for a base game on strips."""
    spec, cj = game.spec, game.rules_model
    base = spec.reel_sets[0]
    if base.weights is None:
        return {}
    ids = list(spec.symbol_ids)
    need = cj.trigger_candies
    candies = [ids[int(s)] for s in cj.candy_symbols]
    state = {(0, 0): Fraction(1)}  # (mask of colours seen, candies capped at need) -> probability
    for c in range(spec.cols):
        weights = {sid: w[c] for sid, w in base.weights}
        total = sum(weights.values())
        probs = [Fraction(weights.get(sid, 0), total) for sid in candies]
        other = 1 - sum(probs)
        for _ in range(spec.rows):
            nxt: dict = {}
            for (mask, n), p in state.items():
                nxt[(mask, n)] = nxt.get((mask, n), 0) + p * other
                for bit, q in enumerate(probs):
                    if q:
                        key = (mask | 1 << bit, min(n + 1, need))
                        nxt[key] = nxt.get(key, 0) + p * q
            state = nxt
    out = {m: 0.0 for m in range(1, k.N_MASKS)}
    for (mask, n), p in state.items():
        if n >= need:
            out[mask] += float(p)
    return out


def base_stratum(game, bits, spins, threshold, big) -> dict:
    work = new_buffers(game.model)
    n = k.N_MASKS
    by_pair = np.zeros((n, n, len(BaseField)), dtype=np.int64)
    raw_hist = np.zeros(game.cap_coins + 1, dtype=np.int64)
    extra = np.zeros(len(BaseExtra), dtype=np.int64)
    k.simulate_base_spins(game.model, game.rules_model, bits, spins, threshold, big, by_pair,
                          raw_hist, extra, work)
    out: dict[str, object] = {name: int(v) for name, v in zip(BASE_EXTRA, extra)}
    nonzero = np.flatnonzero(raw_hist)
    out.update(spins=spins, raw_hist={int(r): int(raw_hist[r]) for r in nonzero},
               by_pair={(i, f): [int(x) for x in by_pair[i, f]]
                        for i in range(n) for f in range(n) if by_pair[i, f, BaseField.SPINS]})
    return out


def base_multiplier(game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(values, weights) of the base game's random multiplier."""
    cj = game.rules_model
    cum = [int(x) for x in cj.base_mult_cum]
    return tuple(int(v) for v in cj.base_mult_values), tuple(b - a for a, b in zip([0] + cum, cum))


def feature_stratum(game, mask, bits, rounds, near, big) -> dict:
    work = new_buffers(game.model)
    cells, meters = buffers(game)
    counters = np.zeros(len(FreeField), dtype=np.int64)
    squares = np.zeros(2, dtype=np.uint64)
    k.simulate_free_rounds(game.model, game.rules_model, mask, bits, rounds, near, big, counters,
                           squares, work, cells, meters)
    out = {name: int(v) for name, v in zip(FREE_FIELDS, counters)}
    out["squares"] = int(squares[1]) << 64 | int(squares[0])
    return out
