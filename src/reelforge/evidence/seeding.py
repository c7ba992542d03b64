"""How a live round is seeded, shown from the code itself, with a sample of fresh seeds.

`engine/rng.py new_live_seed` takes 32 bytes (256 bits) from `os.urandom`, the kernel's
CSPRNG, for every round and every choice step; `live_generator(seed)` keys ChaCha20 with
exactly those 256 bits (counter 0, 20 rounds). The server's services call it once per round
and per step: the call sites are found in their source, not listed by hand.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
from scipy import stats

from reelforge.engine import rng

# Where the server draws a live seed: a bet (placement.py), a step (steps.py), a seamless
# wallet's round (wallets/rounds.py).
SERVICES = ("server/services/placement.py", "server/services/steps.py",
            "server/wallets/rounds.py")


def call_sites() -> list[dict]:
    """Every line of the server's round and step services that draws a fresh live seed."""
    root = Path(rng.__file__).resolve().parent.parent
    found = []
    for rel in SERVICES:
        path = root / rel
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "new_live_seed()" in line:
                found.append({"file": rel, "line": number, "code": line.strip()})
    return found


def sample(count: int = 2000) -> dict:
    """`count` fresh seeds: all distinct, each below 2**256, each bit position's share of
    ones against 1/2 (chi-square over the 256 positions)."""
    seeds = [rng.new_live_seed() for _ in range(count)]
    bits = np.array([[s >> i & 1 for i in range(rng.SEED_BITS)] for s in seeds], dtype=np.int64)
    ones = bits.sum(axis=0)
    expected = count / 2
    chi2 = float((((ones - expected) ** 2) / expected * 2).sum())  # two cells per position
    return {"seeds": count, "distinct": len(set(seeds)), "below_2_256": all(s < 2**256 for s in seeds),
            "largest_bit_length": max(s.bit_length() for s in seeds),
            "ones_share_min": float(ones.min() / count), "ones_share_max": float(ones.max() / count),
            "bit_balance_chi2": chi2, "bit_balance_dof": rng.SEED_BITS,
            "bit_balance_p": float(stats.chi2.sf(chi2, rng.SEED_BITS))}


def evidence(count: int = 2000) -> dict:
    return {"seed_bits": rng.SEED_BITS,
            "new_live_seed": inspect.getsource(rng.new_live_seed),
            "live_generator": inspect.getsource(rng.live_generator),
            "call_sites": call_sites(), "sample": sample(count)}
