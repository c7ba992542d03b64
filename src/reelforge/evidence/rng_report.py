"""`reelforge rng-report`: the whole RNG evidence as one JSON-ready dict and one Markdown page.

Parts: the bounded ranges of the games (ranges.py), the scaled-output battery on them
(rng_battery.py), dieharder on the raw stream (dieharder.py), non-adaptivity (adaptivity.py)
and the seeding (seeding.py). The verdict is PASS when the battery, non-adaptivity and
dieharder (no FAILED; WEAK is reported, not failed) all pass; dieharder skipped is said so.
"""

from __future__ import annotations

import platform
from datetime import UTC, datetime

from reelforge import __version__
from reelforge.evidence import adaptivity, dieharder, rng_battery, seeding
from reelforge.evidence.ranges import inventory

DIEHARDER_CHOICES = ("subset", "full", "off")


def build(game_ids, draws: int = rng_battery.DEFAULT_DRAWS, per_key: int = rng_battery.PER_KEY,
          rounds: int = 1000, dieharder_run: str = "subset", command: str = "reelforge rng-report",
          tasks=None) -> dict:
    """Every part of the report for the ranges of `game_ids`."""
    game_ids = list(game_ids)
    ranges, no_draw = inventory(game_ids)
    advance = tasks("RNG battery: ranges", len(ranges)) if tasks else None
    battery = rng_battery.run_battery(ranges, draws, per_key, advance=advance)
    raw: dict
    if dieharder_run == "off":
        raw = {"skipped": "not asked for (--dieharder off)"}
    elif dieharder_run == "full":
        raw = dieharder.run(None, None, timeout=4 * 3600)
    else:
        raw = dieharder.run()
    adapt = adaptivity.run(game_ids, rounds)
    raw_ok = "skipped" in raw or raw["counts"]["FAILED"] == 0
    verdict = ("PASS" if battery["summary"]["verdict"] == "PASS" and adapt["verdict"] == "PASS"
               and raw_ok else "FAIL")
    return {"title": "RNG evidence", "command": command, "verdict": verdict,
            "generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "reelforge_version": __version__, "python": platform.python_version(),
            "games": game_ids, "battery": battery,
            "no_draw_ranges": [vars(s) for s in no_draw], "dieharder": raw,
            "adaptivity": adapt, "seeding": seeding.evidence()}


def _p(p) -> str:
    return "-" if p is None else f"{p:.3g}"


def _sources(sources: list[dict]) -> str:
    """Every source of a range, games grouped under each key: "key (code): game, game"."""
    keys: dict[tuple[str, str], list[str]] = {}
    for x in sources:
        keys.setdefault((x["key"], x["code"]), []).append(x["game_id"])
    return "; ".join(f"{key} (`{code}`): {', '.join(games)}" for (key, code), games in keys.items())


def render_markdown(r: dict) -> str:
    """The report as Markdown (docs/rng-report.md)."""
    b, s = r["battery"], r["battery"]["summary"]
    lines = [f"# {r['title']}: {r['verdict']}", "",
             f"Produced by `{r['command']}` on {r['generated']} (reelforge {r['reelforge_version']},"
             f" Python {r['python']}). Games: {', '.join(r['games'])}.", "",
             "## Scaled-output battery", "",
             f"Every bounded range the games draw from ({len(b['ranges'])} distinct n), "
             f"{b['draws_per_range']:,} draws each from the live generator (ChaCha20, a fresh "
             f"256-bit os.urandom key every {b['per_key']} draws, as rounds are keyed) through "
             "the engine's own `draw_below`. Tests: chi-square uniformity, serial pairs, runs "
             "above/below the median, gaps, poker, birthday spacings (where a sample fits).", "",
             f"- **{s['verdict']}** at {s['confidence']:.0%} battery confidence: {s['tests']} "
             f"p-values, correction **{s['correction']}** (each p compared with "
             f"{1 - s['confidence']:.2f} / {s['tests']} = {s['threshold']:.3g}).",
             f"- smallest p-value {_p(s['smallest_p'])}; {s['below_0.01']} of {s['tests']} "
             f"below 0.01 (about {s['tests'] / 100:.1f} expected by chance).",
             f"- time: {b['seconds']:.1f} s.", ""]
    for f in s["failed"]:
        lines.append(f"- FAILED: {f['test']} p = {f['p_value']:.3g} ({f['detail']})")
    lines += ["| n | tests (smallest p) | drawn by |", "|---|---|---|"]
    for row in b["ranges"]:
        low = min(row["tests"], key=lambda t: t["p_value"])
        lines.append(f"| {row['n']:,} | {len(row['tests'])} ({low['test']} {_p(low['p_value'])}) "
                     f"| {_sources(row['sources'])} |")
    d = r["dieharder"]
    lines += ["", "## dieharder on the raw stream", ""]
    if "skipped" in d:
        lines.append(f"Skipped: {d['skipped']}.")
    else:
        c = d["counts"]
        lines += [f"{d['stream']}. {len(d['rows'])} results: {c['PASSED']} PASSED, {c['WEAK']} WEAK, "
                  f"{c['FAILED']} FAILED ({d['seconds']:.0f} s). WEAK (p in the outer 0.5% "
                  "of either tail) is expected now and then among many p-values; "
                  "dieharder reruns it with `-Y 1`.", "",
                  "| test | ntup | psamples | p-value | assessment |", "|---|---|---|---|---|"]
        lines += [f"| {x['test']} | {x['ntup']} | {x['psamples']} | {x['p_value']:.6f} | "
                  f"{x['assessment']} |" for x in d["rows"]]
        lines += ["", "Commands: " + "; ".join(f"`{c}`" for c in d["commands"][:3])
                  + (" ..." if len(d["commands"]) > 3 else "")]
    lines += ["", f"The full battery (every test, `dieharder -g 200 -a`; more than 25 minutes on "
              f"two cores): `{dieharder.FULL_COMMAND.split('#')[0].strip()}`.", ""]
    a = r["adaptivity"]
    lines += ["## Non-adaptivity (A7)", "",
              f"**{a['verdict']}**: {len(a['tests'])} chi-square homogeneity tests, "
              f"{a['rounds_per_group']} rounds per group, Bonferroni at 99% (threshold "
              f"{a['threshold']:.3g}); smallest p {_p(a['smallest_p'])}. Rounds are played as "
              "the server plays them: `game.play(bet, live_generator(seed), seed)` with a fresh "
              "`new_live_seed()`. `game.play` takes only: "
              + "; ".join(f"{g}: ({', '.join(p)})" for g, p in a["play_inputs"].items()) + ".", "",
              "| game | condition | histogram | rounds | dof | p |", "|---|---|---|---|---|---|"]
    lines += [f"| {t['game_id']} | {t['condition']} | {t['histogram']} | {t['rounds']} | "
              f"{t['dof']} | {_p(t['p_value'])} |" for t in a["tests"]]
    lines += ["", "Offers at balances (none, 0, 1, price - 1, price, 10 x price) after the same "
              "round: " + "; ".join(f"{o['game_id']} {o['rounds']} rounds "
                                    f"{'PASS' if o['passed'] else 'FAIL'}" for o in a["offers"])
              + " (gamble offers identical, Spin Chance exactly when 0 < balance < price, every "
              "payback exactly 1).", ""]
    sd = r["seeding"]
    sm = sd["sample"]
    lines += ["## Seeding", "",
              f"Every live round and choice step is keyed by {sd['seed_bits']} bits from the "
              "operating system's CSPRNG:", "", "```python", sd["new_live_seed"].rstrip(), "",
              sd["live_generator"].rstrip(), "```", "", "Called by the server at:", ""]
    lines += [f"- `{c['file']}:{c['line']}`: `{c['code']}`" for c in sd["call_sites"]]
    lines += ["", f"A sample of {sm['seeds']:,} fresh seeds: {sm['distinct']:,} distinct, all "
              f"below 2**256 ({sm['below_2_256']}), largest bit length {sm['largest_bit_length']}, "
              f"each bit position set in {sm['ones_share_min']:.3f} to {sm['ones_share_max']:.3f} "
              f"of them (chi-square {sm['bit_balance_chi2']:.1f} on {sm['bit_balance_dof']} dof, "
              f"p = {_p(sm['bit_balance_p'])}).", ""]
    return "\n".join(lines)
