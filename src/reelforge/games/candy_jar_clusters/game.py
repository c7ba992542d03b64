"""What `ClusterGame` asks of a rules module: compile, play one round, simulate, decode tape."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from reelforge.engine.clusters import new_buffers

from reelforge.games.candy_jar_clusters import kernel as k
from reelforge.games.candy_jar_clusters.rules import (
    JACKPOTS,
    MODIFIERS,
    compile_candy,
    compose_sets,
)


def compile(spec):
    """(refill sets for the cluster model, CandyModel)."""
    return compose_sets(spec), compile_candy(spec)


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


def play(game, rng, work):
    """(summary of the round for the Outcome, tape rows used)."""
    cells, meters = buffers(game)
    (total, base, free, jackpot_win, mask, played, supers, extras, jackpots, capped, guard,
     used) = k.play_round(game.model, game.rules_model, rng, work, cells, meters, True)
    jackpot_part = min(jackpot_win, free)  # a capped round may end below its jackpots
    summary = dict(total=total, capped=capped, guard=guard, mask=mask, played=played,
                   supers=supers, jackpots=jackpots, extras=extras,
                   breakdown={"base_game": base, "free_spins": free - jackpot_part,
                              "jackpots": jackpot_part},
                   modifiers=modifier_names(mask))
    return summary, used


def simulate(game, rng, rounds, edges, counters, bands, squares, work):
    cells, meters = buffers(game)
    k.simulate_rounds(game.model, game.rules_model, rng, rounds, edges, counters, bands, squares,
                      work, cells, meters)


def decode_row(game, row, scale) -> dict:
    kind = row[0]
    if kind == k.TAPE_CANDIES:
        return dict(event="jars", wild=row[2], free_spins=row[3], jackpots=row[4],
                    triggered=bool(row[5]))
    if kind == k.TAPE_TRIGGER:
        return dict(event="free_spins_triggered", modifiers=list(modifier_names(row[2])),
                    spins=row[3], extra_spins_at_start=row[4])
    if kind == k.TAPE_EXTRA:
        return dict(event="extra_free_spins", collected=row[2], spins_awarded=row[3],
                    toward_super_spin=row[4], super_spins_awarded=row[5])
    if kind == k.TAPE_JACKPOT:
        return dict(event="jackpot", jackpot=JACKPOTS[row[2]], pays=row[3] * scale,
                    multiplier=row[4], win=row[5] * scale)
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
        weights = dict((sid, w[c]) for sid, w in base.weights)
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


def base_stratum(game, rng, spins, threshold, big) -> dict:
    work = new_buffers(game.model)
    n = k.N_MASKS
    by_pair = np.zeros((n, n, len(k.BASE_FIELDS)), dtype=np.int64)
    raw_hist = np.zeros(game.cap_coins + 1, dtype=np.int64)
    extra = np.zeros(len(k.BASE_EXTRA), dtype=np.int64)
    k.simulate_base_spins(game.model, game.rules_model, rng, spins, threshold, big, by_pair,
                          raw_hist, extra, work)
    out = {name: int(v) for name, v in zip(k.BASE_EXTRA, extra)}
    nonzero = np.flatnonzero(raw_hist)
    out.update(spins=spins, raw_hist={int(r): int(raw_hist[r]) for r in nonzero},
               by_pair={(i, f): [int(x) for x in by_pair[i, f]]
                        for i in range(n) for f in range(n) if by_pair[i, f, 0]})
    return out


def base_multiplier(game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(values, weights) of the base game's random multiplier."""
    cj = game.rules_model
    cum = [int(x) for x in cj.base_mult_cum]
    return tuple(int(v) for v in cj.base_mult_values), tuple(b - a for a, b in zip([0] + cum, cum))


def feature_stratum(game, mask, rng, rounds, near, big) -> dict:
    work = new_buffers(game.model)
    cells, meters = buffers(game)
    counters = np.zeros(len(k.FREE_FIELDS), dtype=np.int64)
    squares = np.zeros(2, dtype=np.uint64)
    k.simulate_free_rounds(game.model, game.rules_model, mask, rng, rounds, near, big, counters,
                           squares, work, cells, meters)
    out = {name: int(v) for name, v in zip(k.FREE_FIELDS, counters)}
    out["squares"] = int(squares[1]) << 64 | int(squares[0])
    return out
