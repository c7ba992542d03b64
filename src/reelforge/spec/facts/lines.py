"""A line game's facts (spec/model.py `GameSpec`): its grid, bets, lines, wilds, scatters,
mixed pays, free games, jackpot, gamble, cash, wild multipliers and wheel gamble, each where
the file has it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reelforge.spec.facts.values import Fact, Money, Percent, numeral, uniform, words
from reelforge.spec.model import JACKPOT_INSTALMENTS


def line_facts(spec: Any) -> dict[str, Fact]:
    names = {s.id: s.name for s in spec.symbols}
    bet = spec.bet
    out: dict[str, Fact] = {
        "reels": numeral(spec.reels), "rows": numeral(spec.rows),
        "lines": numeral(len(spec.paylines)),
        "min_lines": numeral(bet.min_lines), "max_lines": numeral(bet.max_lines),
        "min_bet_per_line": "1", "max_bet_per_line": numeral(bet.max_bet_per_line),
        "max_bet": numeral(bet.max_lines * bet.max_bet_per_line)}
    if bet.max_win_minor:
        out["round_cap"] = Money(bet.max_win_minor)
    for w in spec.wilds:
        out[f"wild.{w.symbol}.multiplier"] = numeral(w.multiplier)
    for s in spec.scatters:
        if s.pays:
            out[f"scatter.{s.symbol}.min_pay"] = numeral(min(c for c, _p in s.pays))
    for m in spec.mixed:
        out[f"mixed.{m.name}.symbols"] = words([names[s] for s in m.symbols])
        for count, pay in m.pays:
            out[f"mixed.{m.name}.{count}"] = numeral(pay)
            if bet.min_lines == bet.max_lines and pay % bet.max_lines == 0:
                out[f"mixed.{m.name}.{count}.stakes"] = numeral(pay // bet.max_lines)
    fg = spec.free_games
    if fg is not None:
        out.update({
            "free_games.trigger": names[fg.trigger],
            "free_games.min_trigger": numeral(min(c for c, _s in fg.award)),
            "free_games.max_total_spins": numeral(fg.max_total_spins),
            "free_games.multiplier": numeral(fg.multiplier),
            "free_games.exempt": words([f"{count} {names[sym]}" for sym, count in fg.exempt])
            if fg.exempt else "nothing"})
        for count, spins in fg.award:
            out[f"free_games.award.{count}"] = numeral(spins)
        if (spins := uniform(fg.award)) is not None:
            out["free_games.spins"] = numeral(spins)
        if fg.retrigger != "none" and (spins := uniform(fg.retrigger_award)) is not None:
            out["free_games.retrigger_spins"] = numeral(spins)
    jp = spec.jackpot
    if jp is not None:
        out.update({
            "jackpot.symbol": names[jp.symbol], "jackpot.count": numeral(jp.count),
            "jackpot.line": numeral(jp.line), "jackpot.seed": Money(jp.seed_amount),
            "jackpot.contribution": Percent(jp.contribution_bp / 10_000),
            "jackpot.instalments": numeral(JACKPOT_INSTALMENTS),
            "jackpot.later_instalments": numeral(JACKPOT_INSTALMENTS - 1)})
    g = spec.gamble
    if g is not None:
        out.update({"gamble.limit": numeral(g.limit_credits),
                    "gamble.max_wins": numeral(g.max_wins),
                    "gamble.history": numeral(g.history_length)})
    if spec.cash is not None:
        out["cash.values"] = words([f"{numeral(v)}x" for v, w in spec.cash.values if w], "or")
        if spec.cash.collector:
            out["cash.collector"] = names[spec.cash.collector]
    draws = spec.wild_draws
    if draws is not None:  # [wild_multipliers]: the draws by reel set, and how they combine
        out["wild_multipliers.combine"] = {"product": "multiply", "sum": "add up",
                                           "max": "count once, the largest"}[draws.combine]
        for name, table in draws.tables:
            out[f"wild_multipliers.{name}"] = words([f"x{numeral(m)}" for m, _w in table], "or")
            if name in draws.sticky:  # the reels a sticky wild can fill, from the strips
                reels = [r + 1 for r, strip in enumerate(spec.reel_set(name).strips)
                         if spec.wilds[0].symbol in strip]
                out[f"wild_multipliers.{name}.reels"] = words([numeral(r) for r in reels], "and")
    wheel = spec.wheel_gamble
    if wheel is not None:
        out["wheel_gamble.limit_stakes"] = numeral(wheel.limit_stake_multiple)
        out["wheel_gamble.limit"] = Money(wheel.limit_minor)
        out["wheel_gamble.targets"] = words([f"x{numeral(Fraction(a, b))}" for a, b in
                                             wheel.cash_targets], "or")
    return out
