"""The PAR sheets' units and JSON helpers, shared by the line sheet (`par`), the cluster
sheet (`par_clusters`) and the page (`par_html`): every amount in a sheet's JSON has an entry in
its `units` map (key paths, list items as `[]`, `*` for any run of characters).
"""

from __future__ import annotations

import math
import re

import numpy as np

from reelforge.analysis.stats import Z95

COST = "fraction of the cost of a round (x 100 = % RTP; cost = stake x mode price)"
STAKE = "fraction of the stake (total bet) (x 100 = %)"
X_COST = "multiples of the cost of a round"
P_ROUND = "probability per round"
VI_DEFINITION = "VI = 1.645 x SD per round (90% confidence), in multiples of the cost of a round"

UNITS: dict[str, str] = {
    "bet.lines": "lines", "bet.bet_per_line": "credits", "bet.total": "credits (the stake)",
    "bet.price": "credits (the cost of a round: stake x mode price)",
    "bet.denomination": "currency minor units per credit",
    "rounds": "rounds", "seed": "none (seed of the simulated run)",
    "exact.rtp": COST, "exact.base_lines": COST, "exact.base_scatter": COST,
    "exact.free_games": COST, "exact.base_collect": COST, "exact.bonus": COST,
    "exact.breakdown.*": COST, "exact.cap_loss_bound": COST,
    "exact.feature_probability": P_ROUND, "exact.bonus_probability": P_ROUND,
    "exact.mean_free_spins": "free spins per trigger", "exact.mean_bonus_spins": "spins per bonus",
    "exact.free_spins_per_round": "free spins per round",
    "exact.free_spin_rtp": "multiples of the stake per free spin",
    "exact.jackpot_probability": "expected jackpot wins per round",
    "exact.price": "stakes per round", "exact.base_hit_frequency": "probability per base spin",
    "exact.bet.lines": "lines", "exact.bet.bet_per_line": "credits",
    "exact.line_awards[].count": "symbols in the run", "exact.line_awards[].base_rtp": STAKE,
    "exact.line_awards[].free_games_rtp": STAKE,
    "exact.line_awards[].per_round": "expected awards per round",
    "exact.scatter_rtp_by_count[]": STAKE, "exact.line_hit_probability[]": "probability per base spin",
    "exact_figures.free_game_trigger_1_in": "rounds", "exact_figures.jackpot_1_in": "rounds",
    "exact_figures.mean_free_spins": "free spins per trigger",
    "exact_figures.top_award.count": "symbols in the run",
    "exact_figures.top_award.base_rtp": STAKE, "exact_figures.top_award.free_games_rtp": STAKE,
    "exact_figures.top_award.per_round": "expected awards per round",
    "exact_figures.top_award.pay_per_line": "multiples of the bet per line",
    "exact_figures.top_award.one_in": "rounds",
    "moments.standard_deviation": X_COST, "moments.base_standard_deviation": X_COST,
    "moments.volatility_index": X_COST, "moments.base_volatility_index": X_COST,
    "moments.round_mean": COST, "moments.base_mean": COST,
    "moments.seconds": "seconds (time to compute)", "moments.max_round_win": "credits",
    "moments.max_base_win": "credits",
    "max_win.theoretical_credits": "credits", "max_win.theoretical_x": X_COST,
    "max_win.base_spin_credits": "credits", "max_win.base_spin_x": X_COST,
    "max_win.cap_credits": "credits", "max_win.cap_x": X_COST,
    "max_win.seen_credits": "credits", "max_win.seen_x": X_COST,
    "max_win.cost_credits": "credits (the cost of a round)",
    "jackpot_rtp.*_rtp": COST, "jackpot_rtp.denomination": "currency minor units per credit",
    "jackpot_rtp.seed_minor": "currency minor units", "jackpot_rtp.contribution_bp": "basis points",
    "jackpot_rtp.stake_minor": "currency minor units",
    "jackpot_rtp.probability": "expected jackpot wins per round",
    "jackpot_rtp.one_in": "rounds", "jackpot_rtp.mean_win_minor": "currency minor units",
    "jackpot_rtp.by_denomination[].denomination": "currency minor units per credit",
    "jackpot_rtp.by_denomination[].stake_minor": "currency minor units",
    "jackpot_rtp.by_denomination[].*_rtp": COST,
    "free_spin_distribution.spins[]": "free spins played per trigger",
    "free_spin_distribution.probability[]": "probability given a trigger",
    "free_spin_distribution.table[].spins": "free spins played per trigger",
    "free_spin_distribution.table[].probability": "probability given a trigger",
    "free_spin_distribution.tail_probability": "probability given a trigger",
    "free_spin_distribution.mean": "free spins per trigger",
    "free_spin_distribution.expected_free_spins": "free spins per trigger",
    "simulated.rounds": "rounds", "simulated.total_bet": "credits (the cost of a round)",
    "simulated.rtp": COST, "simulated.rtp_standard_error": COST, "simulated.rtp_ci95[]": COST,
    "simulated.breakdown.*": COST, "simulated.standard_deviation": X_COST,
    "simulated.standard_deviation_ci95[]": X_COST, "simulated.volatility_index": X_COST,
    "simulated.volatility_index_ci95[]": X_COST, "simulated.sd_batches": "batches",
    "simulated.sd_batch_rounds": "rounds per batch",
    "simulated.hit_frequency": P_ROUND, "simulated.hit_frequency_ci95[]": P_ROUND,
    "simulated.feature_frequency": P_ROUND, "simulated.feature_frequency_ci95[]": P_ROUND,
    "simulated.bonus_frequency": P_ROUND,
    "simulated.mean_feature_award": "multiples of the cost of a round per trigger",
    "simulated.mean_free_spins": "free spins per trigger",
    "simulated.mean_bonus_spins": "spins per bonus",
    "simulated.retriggers": "retriggers (count)", "simulated.jackpot_hits": "jackpot wins (count)",
    "simulated.cap_hits": "rounds", "simulated.spin_guard_hits": "rounds",
    "simulated.max_win": X_COST, "simulated.max_win_credits": "credits",
    "simulated.win_distribution.*": "rounds", "simulated.win_distribution_ci95[][]": P_ROUND,
    "volatility_index": X_COST,
    "reels.*.lengths[]": "stops", "reels.*.weights[][]": "stop weight (integer, relative)",
    "reels.*.counts.*[]": "stops", "reels.*.weight_totals.*[]": "stop weight (integer, relative)",
    "paytable[].pays.*": "multiples of the bet per line",
    "scatters[].pays.*": "multiples of the stake", "paylines[][]": "row (0 = top)",
    "wilds[].multiplier": "multiplier",
    "free_games.award.*": "free spins", "free_games.retrigger_award.*": "free spins",
    "free_games.max_total_spins": "free spins per bonus", "free_games.multiplier": "multiplier",
    "free_games.exempt[][]": "symbols in the run",
    "free_games.multiplier_weights.*": "weight (integer, relative)",
    "jackpot.count": "symbols in the run", "jackpot.line": "payline number (1-based)",
    "jackpot.seed_amount": "currency minor units", "jackpot.contribution_bp": "basis points",
    "convergence[][]": "[rounds, fraction of the cost of a round]",
    "rules[].tables[].rows[][]": "as named in the table's header",
}


def units_for(path: str, units: dict[str, str] | None = None) -> str | None:
    """The unit of a JSON key path (`a.b[].c`) in a units map (default: UNITS), whose keys
    are paths where `*` stands for any run of characters; None: no entry."""
    for pattern, unit in (UNITS if units is None else units).items():
        if re.fullmatch(re.escape(pattern).replace(r"\*", ".*"), path):
            return unit
    return None


def _clean(x):
    """JSON-ready: numpy to Python, non-finite floats to null."""
    if isinstance(x, dict):
        return {str(k): _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_clean(v) for v in x]
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    return x


def _one_in(p):
    return 1 / p if p and p > 0 else None


def _binomial_ci(k: int, n: int) -> list[float]:
    p = k / n
    half = Z95 * math.sqrt(p * (1 - p) / n)
    return [max(p - half, 0.0), min(p + half, 1.0)]
