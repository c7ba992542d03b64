"""`reelforge certify GAME --out DIR`: the certification bundle of a game family.

The bundle covers every shipped game whose file lies in GAME's folder (its RTP variants:
`cops-n-robbers-v1` -> `cops-n-robbers-v1`, `-94-v1`, `-96-v1`). For every variant and mode
the bundle holds the PAR sheet (analysis/par.py or the cluster sheet, as the game names it),
the RTP figure with its source and method (`Game.rtp()`) and the maximum win with how it is
enforced (`Game.max_win()`); once for the family the payback proofs of its choices
(proofs.py), the RNG report on its ranges (rng_report.py), its RULES.md, the manifest
(manifest.py) and the requirements matrix (requirements.toml). `index.html` links every part.

Every output path is built here from validated names: game ids (the loader's id rule,
checked again), mode names (the PAR writer refuses a name that leaves its folder) and fixed
file names; nothing read from a file names a path.
"""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
import time
import tomllib
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

from reelforge import __version__
from reelforge.analysis.capabilities import par_sheet
from reelforge.errors import InvalidArgument
from reelforge.evidence import manifest, proofs, rng_report
from reelforge.spec.model import price_value

ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*-v[0-9]+")
REQUIREMENTS = Path(__file__).with_name("requirements.toml")
ENFORCED = {
    "cap": "the round's win is cut at the cap and the round ends there (the engine's cap_round, "
           "or the rules kernel's cap), and the rules can reach it; the exact RTP is of the "
           "uncapped rules and `reelforge analyze GAME` bounds what the cap takes from it "
           "('round cap takes at most'); a published estimate plays the cap",
    "exact": "the rules' exact, attainable maximum (analysis/moments.py), below any cap",
    "bound": "an upper bound of the rules (spec/limits.py): no exact maximum is known; the "
             "loader refuses a file whose bound could pass 2**62 credits",
    "unbounded": "only the engine's spin guard ends a round",
}
STYLE = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
         "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:"
         "3px 8px;text-align:left;vertical-align:top}th{background:#eee}pre{white-space:pre-wrap}")


def family(game_id: str) -> list[str]:
    """The shipped ids in GAME's folder, GAME first, then the others sorted."""
    from reelforge.games import shipped_games

    games = shipped_games()
    if game_id not in games:
        raise InvalidArgument(f"game {game_id!r}: certify takes a shipped game id "
                              f"({', '.join(games)})")
    folder = games[game_id].parent
    return [game_id] + sorted(g for g, p in games.items() if p.parent == folder and g != game_id)


def _inside(out: Path, *parts: str) -> Path:
    """out/parts..., refused unless every part is a plain name and it stays inside `out`."""
    path = out.joinpath(*parts)
    if any(Path(p).name != p or p in ("", ".", "..") for p in parts) or \
            not path.resolve().is_relative_to(out.resolve()):
        raise InvalidArgument(f"--out {str(out)!r}: {'/'.join(parts)!r} would leave the folder")
    return path


def _variant_dir(out: Path, game_id: str) -> Path:
    if not ID.fullmatch(game_id):
        raise InvalidArgument(f"game id {game_id!r} is not a valid game id")
    return _inside(out, game_id)


def _figure(f) -> dict:
    value = f.value
    return {"mode": f.mode, "value": float(value), "exact_fraction": str(value) if
            isinstance(value, Fraction) else None, "source": f.source, "ci95": f.ci95,
            "method": f.method}


def _max_win(game, bet) -> dict:
    top = game.max_win(bet)
    return {"bet": f"{bet.lines} x {bet.bet_per_line}", "mode": bet.mode, "credits": top.credits,
            "x_stake": float(top.x), "enforced": top.enforced, "how": ENFORCED[top.enforced],
            "cap_credits": game.round_cap(bet) or None,
            "file_cap_minor": game.spec.bet.max_win_minor}


def variant_part(game, out: Path, rounds: int, seed: int, tasks=None) -> dict:
    """The PAR sheets, RTP figures and maximum wins of one variant, every mode."""
    folder = _variant_dir(out, game.id)
    par_dir = _inside(folder, "par")
    build, write = par_sheet(game)
    figures = {f.mode: _figure(f) for f in game.rtp()}
    modes = []
    for mode in game.modes:
        top = game.bet(mode=mode.name)
        low = game.bet(game.min_bet.lines, game.min_bet.bet_per_line, mode.name)
        sheet = build(game, top, rounds, seed, ref=game.id, tasks=tasks)
        html_path, json_path = write(sheet, par_dir)
        modes.append({"mode": mode.name, "title": mode.title, "price": price_value(mode.price),
                      "rtp": figures.get(mode.name),
                      "max_win": [_max_win(game, low), _max_win(game, top)],
                      "par_html": html_path.relative_to(out).as_posix(),
                      "par_json": json_path.relative_to(out).as_posix()})
    part = {"game_id": game.id, "title": game.title, "game_file": Path(game.spec.source).name,
            "game_sha256": game.spec.sha256, "modes": modes}
    _inside(folder, "figures.json").write_text(json.dumps(part, indent=1), encoding="utf-8")
    return part


def requirements() -> list[dict]:
    return tomllib.loads(REQUIREMENTS.read_text(encoding="utf-8"))["requirement"]


def _e(x) -> str:
    return html.escape(str(x))


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>{body}</body></html>")


def _table(head: list[str], rows: list[list[str]]) -> str:
    """Cells are HTML already (escaped by the caller)."""
    return ("<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
            + "</table>")


def _link(href: str, text: str) -> str:
    return f'<a href="{_e(href)}">{_e(text)}</a>'


def _requirements_html(items: list[dict]) -> str:
    rows = [[_e(r["id"]), _e(r["title"]), _e(r["status"]),
             "<br>".join(_e(p) for p in r["evidence"]), _e(r.get("note", ""))] for r in items]
    return _page("Requirements matrix (standards sections A to J)",
                 _table(["id", "requirement", "status", "test or code", "note"], rows))


def _paybacks_html(rows: list[dict], summary: dict) -> str:
    body = (f"<p>{summary['rows']} exact expected payouts (Fractions), kinds "
            f"{_e(', '.join(summary['kinds']) or 'none')}: every payback exactly 1: "
            f"<b>{summary['all_exactly_1']}</b>. The wheel gamble's bonuses count at the game "
            "file's bonus_prices.</p>")
    return _page("Gamble and Spin Chance payback proofs", body + _table(
        ["game", "kind", "bet", "amount", "policy", "expected payout", "payback"],
        [[_e(r["game_id"]), _e(r["kind"]), _e(r["bet"]), _e(r["amount"]), _e(r["policy"]),
          _e(r["expected_payout"]), _e(r["payback"])] for r in rows]))


def _index(b: dict) -> str:
    rows = []
    for v in b["variants"]:
        for m in v["modes"]:
            f = m["rtp"]
            rtp = "-" if f is None else (
                f"{f['value']:.6%} ({_e(f['source'])}"
                + (f", 95% CI ±{f['ci95'] * 100:.3f} pp" if f["ci95"] else "")
                + f")<br><small>{_e(f['method'])}</small>")
            wins = "<br>".join(f"{w['credits']:,} credits ({w['x_stake']:,.2f} x stake) at "
                               f"{_e(w['bet'])}: {_e(w['enforced'])}" for w in m["max_win"])
            rows.append([_e(v["game_id"]), _e(f"{m['mode']} (x{m['price']})"), rtp, wins,
                         _link(m["par_html"], "PAR sheet") + " · " + _link(m["par_json"], "JSON")])
    how = "".join(f"<li><b>{_e(k)}</b>: {_e(t)}</li>" for k, t in ENFORCED.items())
    p, r, q = b["paybacks"], b["rng"], b["requirements"]
    body = (f"<p>Family of {_e(b['game'])}: {_e(', '.join(v['game_id'] for v in b['variants']))}"
            f". Generated {_e(b['generated'])} by <code>{_e(b['command'])}</code> (reelforge "
            f"{_e(b['reelforge_version'])}, {b['seconds']:.0f} s). Manifest SHA-256 "
            f"<code>{_e(b['manifest_sha256'])}</code>, also served at <code>GET /version</code>"
            "</p><h2>RTP, maximum win and PAR sheet, every variant and mode</h2>"
            + _table(["variant", "mode (price)", "RTP and method", "maximum win (lowest, "
                      "highest bet)", "PAR"], rows)
            + f"<p>How a maximum win is enforced:</p><ul>{how}</ul>"
            + "<h2>Parts</h2><ul>"
            + f"<li>{_link('paybacks.html', 'Gamble and Spin Chance payback proofs')} "
              f"({_link('paybacks.json', 'JSON')}): {p['rows']} exact rows, every payback "
              f"exactly 1: {p['all_exactly_1']}</li>"
            + f"<li>{_link('rng/rng-report.html', 'RNG report')} ({_link('rng/rng-report.md', 'Markdown')}"
              f", {_link('rng/rng-report.json', 'JSON')}): {_e(r['verdict'])}, {r['tests']} "
              f"battery tests, {_e(r['correction'])}; dieharder {_e(r['dieharder'])}</li>"
            + f"<li>{_link('RULES.md', 'RULES.md')} ({_link('RULES.html', 'HTML')}): the game's rules</li>"
            + f"<li>{_link('manifest.json', 'Manifest')} ({_link('manifest.sha256', 'sha256sum -c')}): "
              f"{b['manifest_files']} files</li>"
            + f"<li>{_link('requirements.html', 'Requirements matrix')} "
              f"({_link('requirements.toml', 'TOML')}): "
            + _e(", ".join(f"{n} {s}" for s, n in q.items())) + "</li>"
            + f"<li>{_link('bundle.json', 'bundle.json')}: this index as data</li></ul>")
    return _page(f"Certification bundle: {b['game']}", body)


def certify(game_id: str, out: Path, rounds: int, seed: int, draws: int, adapt_rounds: int,
            dieharder_run: str, tasks=None) -> dict:
    """Write the bundle into `out`; returns its summary (bundle.json)."""
    import reelforge.analysis  # noqa: F401 - registers the exact RTP and maximum-win sources
    from reelforge.games import make

    start = time.perf_counter()
    ids = family(game_id)
    for g in ids:
        _variant_dir(out, g)
    out.mkdir(parents=True, exist_ok=True)
    words = ["reelforge", "certify", game_id, "--out", str(out), "--rounds", str(rounds),
             "--seed", str(seed), "--draws", str(draws), "--dieharder", dieharder_run]
    variants = [variant_part(make(g), out, rounds, seed, tasks) for g in ids]
    rows = [row for g in ids for row in proofs.prove(make(g))]
    pay = proofs.summary(rows)
    _inside(out, "paybacks.json").write_text(json.dumps({"summary": pay, "rows": rows}, indent=1),
                                             encoding="utf-8")
    _inside(out, "paybacks.html").write_text(_paybacks_html(rows, pay), encoding="utf-8")
    rng_dir = _inside(out, "rng")
    rng_dir.mkdir(exist_ok=True)
    report = rng_report.build(ids, draws, rounds=adapt_rounds, dieharder_run=dieharder_run,
                              command=shlex.join(["reelforge", "rng-report", "--draws", str(draws),
                                                  "--rounds", str(adapt_rounds), "--dieharder",
                                                  dieharder_run]
                                                 + [w for g in ids for w in ("--game", g)]),
                              tasks=tasks)
    markdown = rng_report.render_markdown(report)
    _inside(rng_dir, "rng-report.md").write_text(markdown, encoding="utf-8")
    _inside(rng_dir, "rng-report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    _inside(rng_dir, "rng-report.html").write_text(
        _page("RNG evidence", f"<pre>{_e(markdown)}</pre>"), encoding="utf-8")
    rules = Path(make(game_id).spec.source).parent / "RULES.md"
    shutil.copyfile(rules, _inside(out, "RULES.md"))
    _inside(out, "RULES.html").write_text(
        _page(f"Rules: {game_id}", f"<pre>{_e(rules.read_text(encoding='utf-8'))}</pre>"),
        encoding="utf-8")
    found = manifest.build()
    _inside(out, "manifest.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
    _inside(out, "manifest.sha256").write_text(manifest.sha256sum_text(found["files"]),
                                               encoding="utf-8")
    items = requirements()
    shutil.copyfile(REQUIREMENTS, _inside(out, "requirements.toml"))
    _inside(out, "requirements.html").write_text(_requirements_html(items), encoding="utf-8")
    statuses: dict[str, int] = {}
    for item in items:
        statuses[item["status"]] = statuses.get(item["status"], 0) + 1
    dh = report["dieharder"]
    bundle = {"game": game_id, "command": shlex.join(words), "reelforge_version": __version__,
              "generated": datetime.now(UTC).isoformat(timespec="seconds"),
              "variants": variants, "paybacks": pay,
              "rng": {"verdict": report["verdict"], **{k: report["battery"]["summary"][k]
                                                       for k in ("tests", "correction")},
                      "dieharder": dh.get("skipped") or ", ".join(
                          f"{n} {k}" for k, n in dh["counts"].items())},
              "manifest_sha256": found["manifest_sha256"], "manifest_files": len(found["files"]),
              "requirements": statuses, "seconds": time.perf_counter() - start}
    _inside(out, "bundle.json").write_text(json.dumps(bundle, indent=1), encoding="utf-8")
    _inside(out, "index.html").write_text(_index(bundle), encoding="utf-8")
    return bundle
