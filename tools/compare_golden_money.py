"""Golden outcomes of the envelope before issue 12 against the new ones: for every case of every game, matched by (seed, bet), every money figure
and every symbol shown must be the same.

Compared: total_win, uncapped_win, win_capped, breakdown (every key and amount), the bet
(lines, bet per line, mode, denomination, stake), counters (free, super, retriggers), each
spin's index, kind, reel set, multiplier, stops and win, every line / scatter / cluster win,
collection, cash value, trail step and parade, free-spin award, progressive and fixed
jackpot, Candy's jars / trigger / extra spins / wilds placed, and every window and grid
(old cluster grids [row][col] transposed to the new [column][row]).

A one-off check of the schema change, kept so that anyone can rerun it:
  mkdir -p /tmp/old && git archive 1de177e tests/golden | tar -x -C /tmp/old
  python tools/compare_golden_money.py /tmp/old/tests/golden tests/golden
"""

import json
import sys
from pathlib import Path

OLD, NEW = (Path(a) for a in sys.argv[1:3]) if len(sys.argv) == 3 else sys.exit(__doc__)


def key(case):
    b = case["bet"]
    return case["seed"], b["lines"], b["bet_per_line"], b["mode"], b["denomination"]


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def strip(e):
    return {k: v for k, v in e.items() if k != "type"}


def compare_lines(old, new, problems, where):
    flags = ["free_spins" if f == "free_games" else f for f in old["flags"]]
    check(problems, where, "flags", flags, new["flags"])
    check(problems, where, "counters", (old["free_spins_played"], old["retriggers"],
                                        old["bonus"]["spins"] if old["bonus"] else 0),
          (new["counters"]["free_spins_played"], new["counters"]["retriggers"],
           new["counters"]["bonus_spins"]))
    jackpots = [(j["spin"], j["line"], j["symbol"], j["count"]) for j in old["jackpots"]]
    got = [(s["index"], e["line"], e["symbol"], e["count"]) for s in new["spins"]
           for e in of(s["events"], "progressive_jackpot")]
    check(problems, where, "progressive jackpots", jackpots, got)
    awards = [(a["spin"], a["trigger_count"], a["spins_awarded"], a["spins_requested"],
               a["total_awarded"]) for a in old["awards"]]
    got = [(s["index"], e["trigger_count"], e["spins_awarded"], e["spins_requested"],
            e["total_awarded"]) for s in new["spins"] for e in of(s["events"], "free_spins_award")]
    check(problems, where, "awards", awards, got)
    bonus = [(old["bonus"]["trigger_count"], old["bonus"]["start_multiplier"])] if old["bonus"] else []
    got = [(e["trigger_count"], e["start_multiplier"]) for s in new["spins"]
           for e in of(s["events"], "bonus")]
    check(problems, where, "bonus", bonus, got)
    for so, sn in zip(old["spins"], new["spins"]):
        w = f"{where} spin {so['index']}"
        check(problems, w, "spin", (so["index"], so["mode"], so["reel_set"], so["multiplier"],
                                    so["stops"]),
              (sn["index"], sn["kind"], sn["reel_set"], sn["multiplier"], sn["stops"]))
        [window] = of(sn["events"], "window")
        check(problems, w, "window", so["window"], window["symbols"])
        win = (sum(x["win"] for x in so["line_wins"]) + sum(x["win"] for x in so["scatter_wins"])
               + (so["collection"]["win"] if so["collection"] else 0))
        check(problems, w, "spin win", win, sn["win"])
        check(problems, w, "line wins", so["line_wins"], [strip(e) for e in of(sn["events"], "line_win")])
        check(problems, w, "scatter wins", so["scatter_wins"],
              [strip(e) for e in of(sn["events"], "scatter_win")])
        check(problems, w, "cash", so["cash"], [strip(e) for e in of(sn["events"], "cash")])
        check(problems, w, "collection", [so["collection"]] if so["collection"] else [],
              [strip(e) for e in of(sn["events"], "collection")])
        trail, parade = of(sn["events"], "trail"), of(sn["events"], "parade")
        if so["trail"] is None:
            check(problems, w, "trail", [], trail + parade)
        else:
            t = so["trail"]
            check(problems, w, "trail counts", (t["robbers"], t["cops"]),
                  (trail[0]["robbers"], trail[0]["cops"]))
            # the old step showed the positions after the parade, if any
            last = parade[0] if parade else trail[0]
            check(problems, w, "trail positions", (t["robber"], t["cop"], t["parade"]),
                  (last["robber"], last["cop"], parade[0]["result"] if parade else None))


def compare_clusters(old, new, problems, where):
    check(problems, where, "flags", old["flags"], new["flags"])
    check(problems, where, "modifiers", old["modifiers"], new["modifiers"])
    check(problems, where, "counters", (old["free_spins_played"], old["super_spins_played"]),
          (new["counters"]["free_spins_played"], new["counters"]["super_spins_played"]))
    for so, sn in zip(old["spins"], new["spins"]):
        w = f"{where} spin {so['index']}"
        check(problems, w, "spin", (so["index"], so["kind"], so["reel_set"], so["random_multiplier"],
                                    so["win"]),
              (sn["index"], sn["kind"], sn["reel_set"], sn["multiplier"], sn["win"]))
        check(problems, w, "stops", [], sn["stops"])
        grids = [(g["tumble"], g["refilled"], [list(col) for col in zip(*g["grid"])]) for g in so["grids"]]
        check(problems, w, "grids", grids, [(e["tumble"], e["refilled"], e["symbols"])
                                            for e in of(sn["events"], "grid")])
        check(problems, w, "cluster wins", so["clusters"],
              [strip(e) for e in of(sn["events"], "cluster_win")])
        drawn = [(so["random_multiplier"],)] if so["random_multiplier"] != 1 else []
        check(problems, w, "random multiplier", drawn,
              [(e["value"],) for e in of(sn["events"], "random_multiplier") if e["value"] != 1])
        placed = ([(so["wilds_placed"], so["golden_wild_multiplier"])]
                  if so["wilds_placed"] or so["golden_wild_multiplier"] else [])
        check(problems, w, "wilds placed", placed, [(e["count"], e["golden_multiplier"])
                                                    for e in of(sn["events"], "wilds_placed")])
        names = {"jars": "jars", "free_spins_triggered": "free_spins_triggered",
                 "extra_free_spins": "extra_free_spins", "jackpot": "jackpot"}
        old_events = [(e["event"], {k: v for k, v in e.items() if k != "event"}) for e in so["events"]]
        new_events = [(e["type"], strip(e)) for e in sn["events"] if e["type"] in names]
        check(problems, w, "rules events (jars, trigger, extra spins, jackpots)", old_events, new_events)


def check(problems, where, what, old, new):
    if json.loads(json.dumps(old)) != json.loads(json.dumps(new)):
        problems.append(f"{where}: {what}: old {old!r} new {new!r}")


def main():
    total_cases = total_problems = 0
    for path in sorted(OLD.glob("*.json")):
        old_cases = json.loads(path.read_text())
        new_cases = json.loads((NEW / path.name).read_text())
        old_by, new_by = {key(c): c for c in old_cases}, {key(c): c for c in new_cases}
        problems = []
        for k in old_by.keys() - new_by.keys():
            problems.append(f"case {k} missing from the new goldens")
        for k in new_by.keys() - old_by.keys():
            problems.append(f"case {k} new in the new goldens")
        spins = 0
        for k in sorted(old_by.keys() & new_by.keys(), key=str):
            old, new = old_by[k], new_by[k]
            where = f"seed {int(k[0], 16)} bet {k[1:]}"
            check(problems, where, "total_win", old["total_win"], new["total_win"])
            check(problems, where, "breakdown", old["breakdown"], new["breakdown"])
            check(problems, where, "win_capped", old["win_capped"], new["win_capped"])
            check(problems, where, "uncapped_win", old.get("uncapped_win"),
                  new["uncapped_win"] if "uncapped_win" in old else None)
            check(problems, where, "stake", old["bet"]["total_bet"], new["bet"]["stake"])
            check(problems, where, "spins", len(old["spins"]), len(new["spins"]))
            check(problems, where, "spin wins add up", new["total_win"] if not new["win_capped"] or
                  "modifiers" in old else new["uncapped_win"], sum(s["win"] for s in new["spins"]))
            spins += len(new["spins"])
            (compare_clusters if "modifiers" in old else compare_lines)(old, new, problems, where)
        total_cases += len(old_by.keys() & new_by.keys())
        total_problems += len(problems)
        print(f"{path.stem}: {len(old_by.keys() & new_by.keys())} of {len(old_cases)} old cases "
              f"compared ({spins} spins), {len(problems)} differences")
        for p in problems[:20]:
            print("   ", p)
    print(f"TOTAL: {total_cases} cases, {total_problems} differences")
    return 1 if total_problems else 0


if __name__ == "__main__":
    sys.exit(main())
