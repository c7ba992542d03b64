"""Commands that produce a test lab's evidence: the RNG report and the certification bundle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from reelforge.cli.common import (
    JsonOpt,
    _at_least,
    _check_writable,
    _count,
    _fail,
    app,
    out,
)
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.progress import bars


@app.command("rng-report")
def rng_report(
    draws: Annotated[str, typer.Option("--draws", help="Draws per bounded range, e.g. 1e6")] = "200000",
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write the report as Markdown here (and its JSON beside it, .json)")] = None,
    as_json: JsonOpt = False,
    rounds: Annotated[int, typer.Option(
        "--rounds", help="Non-adaptivity: live rounds per group and condition")] = 1000,
    dieharder: Annotated[str, typer.Option(
        "--dieharder", help="dieharder on the raw stream: subset, full (-a, over 25 min) or off")] = "subset",
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="Only this shipped game's ranges (repeatable; default: every shipped game)")] = None,
) -> None:
    """RNG evidence: a battery on every bounded range the games draw from (live ChaCha20 and
    the engine's draw_below), dieharder on the raw stream, non-adaptivity, the seeding.

    Exit 1 when the verdict is FAIL.
    """
    import shlex

    from reelforge.evidence import rng_report as report
    from reelforge.games import shipped_games

    try:
        n = _count(draws, "--draws")
        _at_least(rounds, "--rounds", 10)
        if n < 10_000:
            raise InvalidArgument(f"--draws = {draws!r}: the battery needs at least 10000 draws per range")
        if dieharder not in report.DIEHARDER_CHOICES:
            raise InvalidArgument(f"--dieharder = {dieharder!r}: one of {', '.join(report.DIEHARDER_CHOICES)}")
        known = shipped_games()
        for g in game or ():
            if g not in known:
                raise InvalidArgument(f"--game = {g!r}: not a shipped game id ({', '.join(known)})")
        if out_file is not None:
            _check_writable(out_file)
        words = ["reelforge", "rng-report", "--draws", str(n), "--rounds", str(rounds),
                 "--dieharder", dieharder] + [w for g in game or () for w in ("--game", g)]
        with bars(quiet=as_json) as progress:
            data = report.build(game or list(known), n, rounds=rounds, dieharder_run=dieharder,
                                command=shlex.join(words), tasks=progress)
        if out_file is not None:
            out_file.write_text(report.render_markdown(data), encoding="utf-8")
            out_file.with_suffix(".json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out {str(out_file)!r}: {exc.strerror or exc}"))
    if as_json:
        print(json.dumps(data))
    else:
        s, a, d = data["battery"]["summary"], data["adaptivity"], data["dieharder"]
        raw = d.get("skipped") or ", ".join(f"{v} {k}" for k, v in d["counts"].items())
        out.print(f"RNG evidence: {data['verdict']}", markup=False, highlight=False)
        out.print(f"battery: {s['verdict']}, {s['tests']} tests on {len(data['battery']['ranges'])} "
                  f"ranges x {n:,} draws, {s['correction']} at {s['confidence']:.0%} (threshold "
                  f"{s['threshold']:.3g}, smallest p {s['smallest_p']:.3g})", markup=False, highlight=False)
        out.print(f"non-adaptivity: {a['verdict']}, {len(a['tests'])} tests (smallest p "
                  f"{a['smallest_p']:.3g})", markup=False, highlight=False)
        out.print(f"dieharder: {raw}", markup=False, highlight=False)
        if out_file is not None:
            print(out_file)
    if data["verdict"] != "PASS":
        raise typer.Exit(1)


@app.command()
def certify(
    game: Annotated[str, typer.Argument(help="A shipped game id: its folder's RTP variants are certified")],
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for the bundle (index.html and its parts)")],
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Simulated rounds per PAR sheet")] = "2000000",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the PAR sheets' simulated runs")] = 1,
    draws: Annotated[str, typer.Option("--draws", help="RNG battery: draws per bounded range")] = "200000",
    adapt_rounds: Annotated[int, typer.Option(
        "--adapt-rounds", help="Non-adaptivity: live rounds per group and condition")] = 1000,
    dieharder: Annotated[str, typer.Option(
        "--dieharder", help="dieharder on the raw stream: subset, full or off")] = "subset",
) -> None:
    """Certification bundle of a game family: for every RTP variant and mode the PAR sheet,
    RTP and method, maximum win; the payback proofs, RNG report, RULES.md, manifest and
    requirements matrix; one index.html linking every part."""
    import importlib

    from reelforge.analysis.par_html import PLOTS_MISSING
    from reelforge.evidence import rng_report
    from reelforge.evidence.certify import certify as run

    try:
        n = _count(rounds)
        d = _count(draws, "--draws")
        _at_least(seed, "--seed", 0)
        _at_least(adapt_rounds, "--adapt-rounds", 10)
        if d < 10_000:
            raise InvalidArgument(f"--draws = {draws!r}: the battery needs at least 10000 draws per range")
        if dieharder not in rng_report.DIEHARDER_CHOICES:
            raise InvalidArgument(f"--dieharder = {dieharder!r}: one of {', '.join(rng_report.DIEHARDER_CHOICES)}")
        try:
            importlib.import_module("matplotlib.figure")
        except ImportError:
            raise ReelforgeError(PLOTS_MISSING) from None
        with bars() as progress:
            bundle = run(game, out_dir, n, seed, d, adapt_rounds, dieharder, tasks=progress)
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out {str(out_dir)!r}: {exc.strerror or exc}"))
    out.print(f"{game}: {len(bundle['variants'])} variants, RNG {bundle['rng']['verdict']}, paybacks "
              f"exactly 1: {bundle['paybacks']['all_exactly_1']}, {bundle['seconds']:.0f} s",
              markup=False, highlight=False)
    print(out_dir / "index.html")
