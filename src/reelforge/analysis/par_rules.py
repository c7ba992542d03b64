"""The PAR sheet's rules in words: reels, wilds, pays, features and the Cops trail, as
sections of text and tables (`rules_in_words`), from the game's spec and model."""

from __future__ import annotations

from reelforge.engine.capabilities import TRAIL
from reelforge.engine.outcome import Bet
from reelforge.spec.model import price_value

PAIRS = ("award", "retrigger_award", "multiplier_weights")  # (count or multiplier, value)


def _reels(spec) -> dict:
    out = {}
    for rs in spec.reel_sets:
        counts = {s: [strip.count(s) for strip in rs.strips] for s in spec.symbol_ids}
        weights = None
        if rs.weights is not None:
            weights = {s: [sum(w for x, w in zip(strip, ws) if x == s)
                           for strip, ws in zip(rs.strips, rs.weights)] for s in spec.symbol_ids}
        out[rs.name] = {"strips": rs.strips, "lengths": [len(s) for s in rs.strips],
                        "weights": rs.weights, "counts": counts, "weight_totals": weights}
    return out


def _wild_rule(spec, w) -> str:
    others = {s for s in spec.symbol_ids if s != w.symbol}
    missing = sorted(others - set(w.substitutes))
    subs = "all" + (f" except {', '.join(missing)}" if missing else "") \
        if len(missing) < len(w.substitutes) else ", ".join(sorted(w.substitutes))
    return f"{w.symbol} substitutes for {subs}; multiplier x{w.multiplier}"


def _name(spec, sid: str) -> str:
    for s in spec.symbols:
        if s.id == sid:
            return f"{s.name} ({sid})" if s.name and s.name != sid else sid
    return sid


def _section(title: str, text: list[str], *tables: tuple[str, list[str], list[list]]) -> dict:
    return {"title": title, "text": text,
            "tables": [{"caption": c, "head": h, "rows": r} for c, h, r in tables]}


def _share(weights: list[int]) -> list[str]:
    total = sum(weights)
    return [f"{100 * w / total:.4f}%" for w in weights]


def rules_in_words(game, bet: Bet) -> list[dict]:
    """The game's feature rules as sentences and tables (never raw data), one section each."""
    spec, m = game.spec, game.model_for(bet)
    out = []
    if spec.modes:
        rows = [["base", spec.base_reel_set, 1, "no"]] + [
            [md.name, md.reel_set, price_value(md.price), "yes" if md.collect else "no"]
            for md in spec.modes]
        heads = ["mode", "reel set", "price (stakes per round)", "collectors collect"]
        words = ["The base game can be played in one of these modes, chosen with the bet; a mode "
                 "costs its price in stakes per round and every RTP of its sheet is per that cost."]
        if any(md.buy_spins for md in spec.modes):  # only then: other sheets keep their table
            heads.append("round")
            for row, md in zip(rows, (None, *spec.modes)):
                row.append(f"no base spin: {md.buy_spins} free spins bought" if md and md.buy_spins
                           else "base spin")
            words.append("A buy mode plays no base spin: its round is the free games alone, "
                         "started with the spins bought, and its RTP is their expected win over "
                         "its price.")
        out.append(_section("Modes", words, ("Modes", heads, rows)))
    for g in spec.mixed:
        out.append(_section(f"Mixed pay: {g.name}", [
            f"Any mix of {', '.join(_name(spec, s) for s in g.symbols)} in a run from the "
            "leftmost reel pays as one symbol, by its length; wilds complete it."],
            (f"Mixed pay {g.name}", ["run length (symbols)", "pay (x bet per line)"],
             [[c, p] for c, p in g.pays])))
    fg = spec.free_games
    if fg is not None:
        out.append(_free_game_section(spec, m, fg))
    jp = spec.jackpot
    if jp is not None:
        where = spec.paylines[jp.line - 1]
        elig = (f"only at max bet ({spec.bet.max_lines} lines x {spec.bet.max_bet_per_line} "
                f"credits = {game.max_bet.total} credits)" if jp.requires_max_bet else "at any bet")
        text = [f"The progressive jackpot is won by {jp.count} {_name(spec, jp.symbol)} on payline "
                f"{jp.line} (row {', '.join(map(str, where))} on reels 1 to {len(where)}, 0 = top), "
                f"{elig}"
                + (", in the base game and in every free spin of a bonus triggered at that bet."
                   if fg is not None else "."),
                "It is paid from the pool in currency, never in credits, and is not part of the "
                "base RTP. " + ("Below max bet the same combination pays its paytable award."
                                if jp.requires_max_bet else ""),
                f"The pool starts at the seed, {jp.seed_amount:,} currency minor units, and "
                f"grows by {jp.contribution_bp / 100:.2f}% of every eligible stake "
                f"({jp.contribution_bp} basis points)."]
        out.append(_section("Progressive jackpot", text, ("Progressive jackpot", ["parameter", "value"], [
            ["combination", f"{jp.count} x {jp.symbol} on payline {jp.line}"],
            ["eligible bets", elig],
            ["seed (currency minor units)", f"{jp.seed_amount:,}"],
            ["contribution (% of each eligible stake)", f"{jp.contribution_bp / 100:.2f}%"]])))
    cash = spec.cash
    if cash is not None:
        weights = [w for _, w in cash.values]
        who = (f"{_name(spec, cash.collector)} collects every value in view, once per "
               f"{cash.collector} in view" if cash.collector else "nothing collects them")
        mean = sum(v * w for v, w in cash.values) / sum(weights)
        out.append(_section("Cash values", [
            f"{', '.join(_name(spec, s) for s in cash.symbols)} carry a cash value, drawn by weight "
            "for every such symbol in view in a spin where a collector can collect; "
            f"{who}. Mean value {mean:.4f} x stake."],
            ("Cash values", ["value (x stake)", "weight", "probability"],
             [[v, w, p] for (v, w), p in zip(cash.values, _share(weights))])))
    tr = spec.features if TRAIL in game.capabilities else None
    if tr is not None:
        out.append(_trail_section(spec, tr))
    if spec.gamble is not None:
        gb = spec.gamble
        out.append(_section("Gamble (red / black)", [
            f"After a round that won less than {gb.limit_credits:,} credits the player may gamble "
            "the win on the colour of a card, red or black, each 1/2: a right guess doubles the "
            f"amount at stake, a wrong one loses it. It ends after {gb.max_wins} wins in a row, "
            f"once the amount reaches {gb.limit_credits:,} credits, or when the player takes the "
            "win" + ("; before each guess the player may bank half (rounded down) once" if gb.take_half
                     else "") + ". Payback exactly 100% of the amount gambled; the jackpot "
            f"cannot be gambled. The last {gb.history_length} cards are shown."]))
    wg = spec.wheel_gamble
    if wg is not None:
        targets = [f"{n}/{d}" if d != 1 else f"{n}" for n, d in wg.cash_targets]
        out.append(_section("Wheel gamble", [
            "After a win the player may gamble it on one of two wheels, up to "
            f"{wg.limit_stake_multiple:,} stakes or {wg.limit_minor:,} currency minor units, "
            "whichever is lower. The cash wheel multiplies the amount by a target (table), "
            "rounded down to whole credits (and capped at the limit), won with probability "
            "amount / target exactly; the bonus wheel wins a trail bonus "
            "priced at its exact expected win, with probability amount / price. Payback "
            "exactly 100%; a loss loses the amount gambled."],
            ("Cash wheel targets", ["target (x amount gambled)",
                                    "win probability (where the target is whole credits)"],
             [[t, f"{d}/{n}" if n != d else "1"] for t, (n, d) in zip(targets, wg.cash_targets)])))
    return out


def _free_game_section(spec, m, fg) -> dict:
    trig = spec.scatters[[s.symbol for s in spec.scatters].index(fg.trigger)] \
        if fg.trigger in [s.symbol for s in spec.scatters] else None
    counting = "reels showing it" if trig is None or trig.counting == "reels" else "cells showing it"
    award, again = dict(fg.award), dict(fg.retrigger_award)
    counts = sorted(set(award) | set(again))
    text = [f"{_name(spec, fg.trigger)} counted by {counting}: a base spin with a count in the "
            f"table plays its free spins on the '{fg.reel_set}' reel set, at the triggering bet."]
    if fg.retrigger == "none" or not again:
        text.append("Free spins do not retrigger.")
    elif fg.retrigger == "unlimited":
        text.append("During free spins the same counts add the spins of the retrigger column, "
                    f"with no limit (a technical guard ends a bonus at {m.spin_guard:,} spins).")
    else:
        text.append("During free spins the same counts add the spins of the retrigger column, "
                    f"up to {fg.max_total_spins} free spins per bonus in total, the first award "
                    "included; a retrigger past the cap grants only the spins left to it.")
    exempt = ", ".join(f"{c} x {_name(spec, s)}" for s, c in fg.exempt)
    tables = [("Free games: spins by trigger count",
               ["trigger count", "first award (free spins)", "retrigger award (free spins)"],
               [[c, award.get(c, 0), again.get(c, 0) if fg.retrigger != "none" else 0]
                for c in counts])]
    if fg.multiplier_weights:
        ws = [w for _, w in fg.multiplier_weights]
        text.append("Before every free spin a multiplier is drawn by weight (table); it "
                    "multiplies every win of that spin, lines and scatters"
                    + (f", except {exempt} line awards, paid unmultiplied." if exempt else "."))
        tables.append(("Free-spin multiplier", ["multiplier", "weight", "probability"],
                       [[f"x{v}", w, p] for (v, w), p in zip(fg.multiplier_weights, _share(ws))]))
    else:
        text.append(f"Every win of a free spin, lines and scatters, is multiplied by {fg.multiplier}"
                    + (f", except {exempt} line awards, paid unmultiplied." if exempt else "."))
    return _section("Free games", text, *tables)


def _trail_section(spec, tr) -> dict:
    start = ", ".join(f"{c} {tr.trigger}: x{x}" for c, x in tr.start_multiplier)
    names = {"bert": "Bert: the bonus ends and pays what it collected",
             "sid": f"Sid: the cop is pushed back {tr.sid_pushback} positions, the bonus goes on",
             "vic": "Vic: the robber runs ahead to the next higher multiplier, the bonus goes on "
                    "(from the top multiplier, as Sid)"}
    ws = [w for _, w in tr.parade]
    text = [f"{tr.trigger} counted in view starts the trail bonus on the '{tr.reel_set}' reel set "
            f"with a starting multiplier ({start}). The trail has positions 0 to {tr.length - 1}; "
            f"the robber starts at {tr.robber_start}, the cop at {tr.cop_start}.",
            f"Each {_name(spec, tr.robber)} in view moves the robber one position and then "
            "collects every cash value in view at the multiplier of his position times the "
            f"starting multiplier; each {_name(spec, tr.cop)} moves the cop one position. Line "
            "wins of bonus spins pay at the triggering bet, unmultiplied.",
            "When the cop reaches the robber, the ID parade picks one of three by weight (table)."]
    return _section("Trail bonus", text,
                    ("Trail multipliers", ["from position", "multiplier"],
                     [[0, "x1"]] + [[p, f"x{x}"] for p, x in tr.multipliers]),
                    ("ID parade", ["pick", "weight", "probability"],
                     [[names.get(k, k), w, p] for (k, w), p in zip(tr.parade, _share(ws))]))
