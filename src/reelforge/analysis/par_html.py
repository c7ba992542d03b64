"""The PAR sheet's page: plots (the optional extra 'plots'), HTML tables and the files
(`render_html`, `write_par`). Reads only the figures dict `par.build_par` made."""

from __future__ import annotations

import base64
import html
import io
import json
import shlex
from pathlib import Path

import numpy as np

from reelforge.analysis.par_units import VI_DEFINITION, _one_in
from reelforge.analysis.stats import Z95
from reelforge.errors import ReelforgeError

# Free-spin distribution rows shown in the HTML: the rest (the far tail of unlimited
# retriggers) is summed into one row; the JSON keeps every row.
SHOWN_BELOW = 1e-9


PLOTS_MISSING = "PAR sheet plots need the optional extra 'plots': pip install 'reelforge[plots]'"


def _figure(width: float, height: float):
    """A matplotlib Figure on its own Agg canvas (no pyplot state). matplotlib is an optional
    extra, imported here only: a server playing games never loads it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ReelforgeError(PLOTS_MISSING) from None
    return Figure(figsize=(width, height))


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return '<img src="data:image/png;base64,' + base64.b64encode(buf.getvalue()).decode() + '">'


def win_distribution_plot(sim: dict) -> str:
    """Rounds per win band (log scale) with their 95% CI bars, as an <img> tag."""
    fig = _figure(7, 3.2)
    ax = fig.add_subplot()
    labels, counts = list(sim["win_distribution"]), list(sim["win_distribution"].values())
    ci = np.array(sim["win_distribution_ci95"]) * sim["rounds"]
    err = np.clip([np.array(counts) - ci[:, 0], ci[:, 1] - np.array(counts)], 0, None)
    ax.bar(range(len(labels)), counts, yerr=err, capsize=2, color="#4c72b0")
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylim(bottom=0.5)
    ax.set(ylabel="rounds", xlabel="win, multiples of the cost of a round",
           title=f"Win distribution by band (simulated, {sim['rounds']:,} rounds, 95% CI bars)")
    return _png(fig)


def _plots(f: dict) -> list[str]:
    ex, sim = f["exact"], f["simulated"]
    fig = _figure(6, 3.2)
    ax = fig.add_subplot()
    keys = [k for k in SOURCES if ex[k]] + ["rtp"]
    names = [k.replace("_", " ") if k != "rtp" else "total" for k in keys]
    vals = [100 * (ex[k] or 0) for k in keys]
    ax.bar(names, vals, color=["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974", "#333333"][-len(keys):])
    ax.bar_label(ax.containers[0], fmt="%.4f%%")
    ax.set(ylabel="RTP (% of the cost of a round)", title="RTP by source (exact)")
    plots = [_png(fig), win_distribution_plot(sim)]
    fig = _figure(7, 3.6)
    ax = fig.add_subplot()
    n = np.array([c[0] for c in f["convergence"]], dtype=float)
    rtp = np.array([np.nan if c[1] is None else 100 * c[1] for c in f["convergence"]])
    exact_sd = f["moments"]["available"]
    sd = f["moments"]["standard_deviation"] if exact_sd else sim["standard_deviation"] or 0
    half = 100 * Z95 * sd / np.sqrt(n)
    ax.fill_between(n, 100 * ex["rtp"] - half, 100 * ex["rtp"] + half, color="#c44e52", alpha=0.2,
                    label=f"exact ± 1.96·SD/√n (SD {'exact' if exact_sd else 'simulated'})")
    ax.axhline(100 * ex["rtp"], color="#c44e52", label=f"exact RTP {100 * ex['rtp']:.4f}%")
    ax.plot(n, rtp, "o-", ms=3, color="#4c72b0", label="running RTP (simulated)")
    ax.set_xscale("log")
    ax.set(xlabel="rounds played", ylabel="RTP (%)", title="RTP convergence (simulated vs exact)")
    ax.legend(fontsize=8)
    plots.append(_png(fig))
    return plots


def _e(x) -> str:
    return html.escape(str(x))


def _table(head, rows, caption="") -> str:
    cap = f"<caption>{_e(caption)}</caption>" if caption else ""
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e('' if c is None else c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table>{cap}<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _pct(x, d=4) -> str:
    return "-" if x is None else f"{100 * x:.{d}f}%"


def _n(x, d=2) -> str:
    return "-" if x is None else f"1 in {x:,.{d}f}"


def _x(x, d=2) -> str:
    return "-" if x is None else f"{x:,.{d}f} x cost"


def _ci(ci, fmt) -> str:
    return "no CI (fewer than 10 batches)" if ci is None else f"95% CI {fmt(ci[0])} .. {fmt(ci[1])}"


STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
         "table{border-collapse:collapse;margin:.6em 0 1.4em}td,th{border:1px solid #ccc;"
         "padding:2px 8px;font-size:13px;text-align:right}th{background:#eee}"
         "caption{text-align:left;font-weight:600;padding:4px 0}code{background:#f4f4f4;"
         "padding:2px 4px}img{margin:.5em;border:1px solid #ddd}td:first-child{text-align:left}"
         "section.rules p{max-width:60em}")


NOT_EXACT = "not available (the reason is under the summary)"


def _summary(f: dict) -> list[tuple]:
    ex, sim, xf, mw = f["exact"], f["simulated"], f["exact_figures"], f["max_win"]
    top = xf["top_award"]
    (rlo, rhi), (hlo, hhi) = sim["rtp_ci95"], sim["hit_frequency_ci95"]
    spins, jackpot = xf["mean_free_spins"], xf["jackpot_1_in"]
    mo = f["moments"]
    na = None if mo["available"] else NOT_EXACT
    rows = [
        ("RTP (without progressive)", _pct(ex["rtp"], 6), "% of cost", "exact"),
        ("RTP", f"{_pct(sim['rtp'])} (95% CI {_pct(rlo)} .. {_pct(rhi)})", "% of cost", "simulated"),
    ]
    jr = f["jackpot_rtp"]
    if jr:
        rows.append(("RTP with the progressive (base + contribution + seed)",
                     _pct(jr["total_rtp"], 6),
                     f"% of cost, at {jr['denomination']} minor units per credit", "exact"))
    if f["free_games"]:
        flo, fhi = (_n(_one_in(p)) for p in reversed(sim["feature_frequency_ci95"]))
        rows += [
            ("free-game trigger", _n(xf["free_game_trigger_1_in"]), "rounds", "exact"),
            ("free-game trigger", f"{_n(_one_in(sim['feature_frequency']))} (95% CI {flo} .. "
             f"{fhi})", "rounds", "simulated"),
            ("mean free spins per trigger", "-" if spins is None else f"{spins:.4f}",
             "free spins", "exact")]
    if ex.get("bonus_probability"):
        rows += [
            ("bonus trigger", _n(_one_in(ex["bonus_probability"])), "rounds", "exact"),
            ("bonus trigger", _n(_one_in(sim["bonus_frequency"])), "rounds", "simulated"),
            ("mean spins per bonus", f"{ex['mean_bonus_spins']:.4f}", "bonus spins", "exact")]
    rows += [
        ("jackpot", "none" if jackpot is None else _n(jackpot, 0), "rounds", "exact"),
        ("top award", "-" if top is None else f"{top['symbol']} x{top['count']} "
         f"({top['pay_per_line']} x bet per line): {_n(top['one_in'], 0)}", "rounds", "exact"),
        ("hit frequency of the base spin", "-" if ex.get("base_hit_frequency") is None
         else f"{_pct(ex['base_hit_frequency'], 6)}", "% of base spins", "exact"),
        ("hit frequency of the round", f"{_pct(sim['hit_frequency'])} (95% CI {_pct(hlo)} .. "
         f"{_pct(hhi)}, binomial normal)", "% of rounds", "simulated"),
        ("standard deviation per round", na or f"{mo['standard_deviation']:.4f}", "x cost",
         mo.get("label", "exact")),
        ("standard deviation per round", f"{sim['standard_deviation']:.4f} "
         f"({_ci(sim['standard_deviation_ci95'], _f4)})", "x cost", "simulated"),
        ("volatility index", na or f"{mo['volatility_index']:.4f}", f["volatility_definition"],
         mo.get("label", "exact")),
        ("volatility index", f"{sim['volatility_index']:.4f} "
         f"({_ci(sim['volatility_index_ci95'], _f4)})", "x cost", "simulated"),
        ("maximum win per round", na or _theoretical(mw), "credits, x cost", "exact"),
        ("largest win seen", f"{mw['seen_credits']:,} credits = {_x(mw['seen_x'])}",
         "credits, x cost", "simulated"),
    ]
    return rows


def _f4(v) -> str:
    return f"{v:.4f}"


UNBOUNDED_LABEL = "unbounded (guard only)"


def _theoretical(mw: dict) -> str:
    """The theoretical maximum round win as the sheet shows it."""
    if mw["theoretical_credits"] is None:
        return UNBOUNDED_LABEL
    return f"{mw['theoretical_credits']:,} credits = {_x(mw['theoretical_x'])}"


def _not_exact_note(f: dict) -> str:
    mo = f["moments"]
    if mo["available"]:
        return ""
    return f"<p>Exact SD, VI and maximum win: not available: {_e(mo['reason'])}</p>"


def _volatility_table(f: dict) -> str:
    mo, sim = f["moments"], f["simulated"]
    if not mo["available"]:
        return _table(["figure", "exact", "simulated (95% CI)"], [
            ("standard deviation per round (x cost)", NOT_EXACT,
             f"{sim['standard_deviation']:.4f} ({_ci(sim['standard_deviation_ci95'], _f4)})"),
            ("volatility index (x cost)", NOT_EXACT,
             f"{sim['volatility_index']:.4f} ({_ci(sim['volatility_index_ci95'], _f4)})")],
            "Standard deviation and volatility index")

    def inside(value, ci):
        return "-" if ci is None else ("yes" if ci[0] <= value <= ci[1] else "no")

    sd, vi = sim["standard_deviation_ci95"], sim["volatility_index_ci95"]

    fmt = _f4
    rows = [
        ("base spin: standard deviation (x cost)", fmt(mo["base_standard_deviation"]), "-", "-"),
        ("base spin: volatility index (x cost)", fmt(mo["base_volatility_index"]), "-", "-"),
        ("whole round: standard deviation (x cost)", fmt(mo["standard_deviation"]),
         f"{fmt(sim['standard_deviation'])} ({_ci(sd, fmt)})", inside(mo["standard_deviation"], sd)),
        ("whole round: volatility index (x cost)", fmt(mo["volatility_index"]),
         f"{fmt(sim['volatility_index'])} ({_ci(vi, fmt)})", inside(mo["volatility_index"], vi)),
        ("whole round: mean win (% of cost)", _pct(mo["round_mean"], 6), _pct(sim["rtp"]),
         inside(mo["round_mean"], sim["rtp_ci95"])),
    ]
    return (_table(["figure", "exact", "simulated (95% CI)", "exact inside the CI"], rows,
                   "Standard deviation and volatility index (exact, simulated as a check)")
            + f"<p>Exact method: {_e(mo['method'])} ({mo['seconds']:.2f} s). {_e(VI_DEFINITION)}. "
            f"The simulated SD's CI is from {sim['sd_batches']} batches of {sim['sd_batch_rounds']:,} "
            "rounds (normal approximation on the batch variances; heavy tails make it optimistic).</p>")


def _max_win_table(f: dict) -> str:
    mw = f["max_win"]
    na = None if mw.get("base_spin_credits") is not None else NOT_EXACT
    top = mw["theoretical_credits"]
    rows = [
        ("whole round, theoretical", na or (UNBOUNDED_LABEL if top is None else f"{top:,}"),
         "-" if na or top is None else _x(mw["theoretical_x"]), "exact"),
        ("base spin alone, theoretical", na or f"{mw['base_spin_credits']:,}",
         "-" if na else _x(mw["base_spin_x"]), "exact"),
        ("round cap of the game (the most any round pays)", "none" if not mw["cap_credits"]
         else f"{mw['cap_credits']:,}", "-" if not mw["cap_credits"] else _x(mw["cap_x"]),
         "game file"),
        ("largest seen", f"{mw['seen_credits']:,}", _x(mw["seen_x"]), "simulated"),
    ]
    return _table(["maximum win per round", "credits", "x cost", "basis"], rows,
                  f"Maximum win per round (cost {mw['cost_credits']:,} credits; progressive jackpot "
                  "excluded: the pool pays it)")


def _jackpot_html(f: dict) -> str:
    jr = f["jackpot_rtp"]
    if not jr:
        return ""
    d = jr["denomination"]
    rows = [("base game, without the jackpot", _pct(jr["base_rtp"], 6)),
            (f"contribution ({jr['contribution_bp']} bp of every eligible stake)",
             _pct(jr["contribution_rtp"], 6)),
            (f"seed ({jr['seed_minor']:,} minor units x P(jackpot), {_n(jr['one_in'], 0)} "
             f"rounds, / stake {jr['stake_minor']:,} minor units)", _pct(jr["seed_rtp"], 6)),
            ("total", _pct(jr["total_rtp"], 6))]
    by = [(r["denomination"], f"{r['stake_minor']:,}", _pct(r["seed_rtp"], 6), _pct(r["total_rtp"], 6))
          for r in jr["by_denomination"]]
    odds = "won " + _n(jr["one_in"], 0) + " rounds" if jr["eligible"] else "not eligible"
    text = (f"At this bet the jackpot is {odds}. "
            f"Its RTP, per cost of a round at {d} currency minor units per credit, is the contribution "
            "rate plus the seed's share: " + jr["assumption"])
    return ("<section class=\"rules\"><h2>Progressive jackpot as RTP</h2>"
            f"<p>{_e(text)}</p>"
            + _table(["part", "RTP (% of cost)"], rows,
                     f"RTP split at {d} minor units per credit (exact)")
            + _table(["denomination (minor units per credit)", "stake (minor units)",
                      "seed RTP (% of cost)",
                      "total RTP (% of cost)"], by, "The seed's share by denomination (exact)")
            + "</section>")


def _free_spins_html(f: dict) -> str:
    fd = f["free_spin_distribution"]
    if not fd:
        return ""
    if not fd["available"]:
        return f"<p>Free spins per trigger: not available: {_e(fd['reason'])}</p>"
    rows, rest = [], 0.0
    for n, p in zip(fd["spins"], fd["probability"]):
        if p >= SHOWN_BELOW:
            rows.append((n, f"{p:.10f}", _n(_one_in(p), 1)))
        else:
            rest += p
    rest += fd["tail_probability"]
    if rest:
        rows.append((f"other (each below {SHOWN_BELOW:g}, or beyond {fd['spins'][-1]})",
                     f"{rest:.3e}", "-"))
    return (_table(["free spins played", "probability given a trigger", "frequency (triggers)"], rows,
                   f"Free spins per trigger (exact; {fd['method']})")
            + f"<p>Mean {fd['mean']:.6f} free spins per trigger (exact mean from the expected-spins "
            f"chain: {fd['expected_free_spins']:.6f}).</p>")


def _rules_html(f: dict) -> str:
    parts = []
    for sec in f["rules"]:
        body = "".join(f"<p>{_e(t)}</p>" for t in sec["text"])
        body += "".join(_table(t["head"], t["rows"], t["caption"]) for t in sec["tables"])
        parts.append(f"<section class=\"rules\"><h2>{_e(sec['title'])}</h2>{body}</section>")
    return "".join(parts)


def _reel_tables(name: str, rs: dict) -> str:
    reels, w = range(len(rs["strips"])), rs["weights"]
    head = [f"reel {r + 1}" for r in reels]

    def cell(r, i):
        if i >= rs["lengths"][r]:
            return ""
        return rs["strips"][r][i] + (f" ({w[r][i]})" if w else "")

    strips = [(i, *[cell(r, i) for r in reels]) for i in range(max(rs["lengths"]))]
    counts = [(s, *[c if not w else f"{c} (w {rs['weight_totals'][s][r]})"
                    for r, c in enumerate(v)]) for s, v in rs["counts"].items()]
    counts.append(("total", *[n if not w else f"{n} (w {sum(w[r])})"
                              for r, n in enumerate(rs["lengths"])]))
    title = f"Reel strips: {name}" + (" (weight per stop)" if w else "")
    return (_table(["stop", *head], strips, title)
            + _table(["symbol", *[f"{h} (stops)" for h in head]], counts,
                     f"Symbol counts per reel: {name}"))


SOURCES = ("base_lines", "base_scatter", "free_games", "base_collect", "bonus")


def render_html(f: dict) -> str:
    ex, sim = f["exact"], f["simulated"]
    keys = [k for k in SOURCES if ex[k] or k == "base_lines"]
    sources = [(k.replace("_", " "), _pct(ex[k], 6), _pct(sim["breakdown"][k])) for k in keys]
    sources.append(("total", _pct(ex["rtp"], 6), _pct(sim["rtp"])))
    awards = [(a["symbol"], a["count"], _pct(a["base_rtp"], 6), _pct(a["free_games_rtp"], 6),
               _n(_one_in(a["per_round"]))) for a in ex["line_awards"]]
    scat = [(c, _pct(v, 6)) for c, v in enumerate(ex["scatter_rtp_by_count"]) if v]
    n = sim["rounds"]
    bands = [(k, f"{v:,}", f"{_pct(v / n)} ({_pct(lo)} .. {_pct(hi)})", _n(_one_in(v / n)))
             for (k, v), (lo, hi) in zip(sim["win_distribution"].items(),
                                         sim["win_distribution_ci95"])]
    reels = [f"reel {r + 1}" for r in range(len(f["paylines"][0]))]
    counts = sorted({int(c) for p in f["paytable"] for c in p["pays"]})
    pay = [(p["symbol"], p["name"], p["role"], *[p["pays"].get(str(c), "") for c in counts])
           for p in f["paytable"]]
    scatter_pays = [(s["symbol"], s["counting"],
                     ", ".join(f"{c}: {p}" for c, p in s["pays"].items()) or "none")
                    for s in f["scatters"]]
    wild_rules = [(w["rule"],) for w in f["wilds"]] + [
        (f"wild multipliers combine: {f['wild_multiplier_combine']}",),
        (f"pure-wild run vs substituted: {f['pure_wild_vs_substituted']}",)]
    draws = f.get("wild_draws")
    if draws:  # [wild_multipliers]: each wild in view draws its multiplier
        sticky, redrawn = draws.get("sticky", []), draws.get("redrawn", [])
        held = {True: "drawing a fresh multiplier on every free spin it shows",
                False: "with the one multiplier it drew as it filled"}
        wild_rules += [(f"wilds on reel set {name} draw x multiplier (weight): "
                        + ", ".join(f"x{m} ({w})" for m, w in table.items())
                        + f"; the draws on a paid line combine: {draws['combine']}"
                        + ("; a wild landing there fills its reel, which stays wild to the end of "
                           f"the free games {held[name in redrawn]}" if name in sticky else ""),)
                       for name, table in draws["weights"].items()]
    bet = f["bet"]
    cost = (f"{bet['total']:,} credits" if bet.get("mode", "base") == "base" else
            f"{bet['price']:,} credits (mode {bet['mode']}: {bet['price'] // bet['total']} stakes)")
    parts = [
        f"<h1>{_e(f['game_name'])} — PAR sheet</h1><p>{_e(f['description'])}</p>",
        _table(["", ""], [
            ("game id", f["game_id"]),
            ("bet", f"{bet['lines']} lines x {bet['bet_per_line']} credits = {bet['total']} credits "
                    "(the stake)"),
            ("cost of a round", cost),
            ("generated", f["generated"]), ("reelforge version", f["reelforge_version"]),
            ("Monte Carlo", f"{n:,} rounds, seed {f['seed']} (the streams of `reelforge simulate` "
                            "at its default chunk size)")]),
        f"<p>Reproduce: <code>{_e(f['command'])}</code></p>",
        "<p>Figures marked <b>exact</b> are computed from the reels and rules; figures marked "
        "<b>simulated</b> come from the Monte Carlo run, with a 95% CI where one applies. "
        "Units: RTPs in % of the cost of a round; wins, SD and VI in multiples of that cost "
        "(\"x cost\") or in credits; frequencies in rounds; line pays in multiples of the bet per "
        "line; scatter pays and cash values in multiples of the stake; the jackpot's seed in "
        "currency minor units. The JSON's <code>units</code> map names the unit of every amount.</p>",
        _table(["figure", "value", "unit", "basis"], _summary(f), "Summary"),
        _not_exact_note(f),
        _max_win_table(f),
        _volatility_table(f),
        _jackpot_html(f),
        "<div>" + "".join(_plots(f)) + "</div>",
        _table(["source", "RTP (exact, % of cost)", "RTP (simulated, % of cost)"], sources,
               "RTP by source"),
        _table(["symbol", "count (symbols)", "base RTP (% of stake)", "free-games RTP (% of stake)",
                "frequency (rounds)"], awards,
               "Line awards (exact; frequency per round, free games included)"),
        _table(["scatter count", "base RTP (% of stake)"], scat,
               "Scatter RTP by count (exact, base game)"),
        _free_spins_html(f),
        _table(["win band (x cost)", "rounds", "share (% of rounds, 95% CI)", "frequency (rounds)"],
               bands, f"Win distribution by band (simulated, {n:,} rounds; 95% CI binomial normal)"),
        _table(["symbol", "name", "role", *[f"{c} (x bet per line)" for c in counts]], pay,
               "Paytable (line pays, multiples of the bet per line)"),
        _table(["scatter", "counting", "pays (count: x stake)"], scatter_pays,
               "Scatter pays (multiples of the stake)"),
        _table(["line", *[f"{r} (row, 0 = top)" for r in reels]],
               [(i + 1, *line) for i, line in enumerate(f["paylines"])], "Paylines"),
        _table(["rule"], wild_rules, "Wild rules"),
        _rules_html(f),
    ]
    parts += [_reel_tables(name, rs) for name, rs in f["reels"].items()]
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(f["game_name"])} PAR'
            f"</title><style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def par_paths(out: Path, stem: str) -> tuple[Path, Path]:
    """<stem>-par.html and <stem>-par.json in the folder `out`, refused unless both resolve to
    files directly inside it: the stem comes from a game file (its id, a mode name), and the
    loader's name rules are not the only line of defence against writing elsewhere."""
    from reelforge.errors import InvalidArgument

    names = (f"{stem}-par.html", f"{stem}-par.json")
    for name in names:  # one plain name, not a link: it resolves to itself inside `out`
        if Path(name).name != name or (out / name).resolve() != out.resolve() / name:
            raise InvalidArgument(f"--out {str(out)!r}: PAR file name {name!r} would be "
                                  "written outside the folder")
    return out / names[0], out / names[1]


def write_par(figures: dict, out_dir) -> tuple[Path, Path]:
    """Write <id>-par.html and <id>-par.json into out_dir; returns both paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    figures = {**figures, "command": shlex.join(figures["reproduce"][:3] + ["--out", str(out)]
                                                + figures["reproduce"][3:])}
    mode = figures["bet"].get("mode", "base")
    stem = figures["game_id"] if mode == "base" else f"{figures['game_id']}-{mode}"
    html_path, json_path = par_paths(out, stem)
    html_path.write_text(render_html(figures), encoding="utf-8")
    json_path.write_text(json.dumps(figures, indent=1, allow_nan=False), encoding="utf-8")
    return html_path, json_path
