"""Commands that analyse one game: list, simulate, exact analysis, PAR sheet, benchmark, check."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from reelforge.cli.common import (
    BplOpt,
    GameArg,
    JsonOpt,
    LinesOpt,
    ModeOpt,
    _at_least,
    _count,
    _fail,
    _figure_text,
    _figures,
    _game,
    app,
    out,
)
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.progress import bars


@app.command()
def games() -> None:
    """List the shipped game ids with their RTP per base-game mode: exact, or the published
    estimate of a game without an exact analysis."""
    from reelforge.games import shipped_games
    from reelforge.spec import load_spec

    for game_id, path in shipped_games().items():
        g = _game(game_id)
        rtps = [_figure_text(f) + ("" if mode == "base" else f" ({mode})")
                for mode, f in _figures(g).items()] or ["not published (run reelforge estimate)"]
        out.print(f"{game_id}\t{load_spec(path).name}\tRTP {', '.join(rtps)}", markup=False,
                  highlight=False)


@app.command()
def simulate(
    game: GameArg,
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Rounds to play, e.g. 1e7")] = "1000000",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run")] = 1,
    chunk_size: Annotated[str, typer.Option(
        "--chunk-size", help="Rounds per chunk, e.g. 1e7 on a cluster; with the seed it fixes "
        "the result")] = "100000",
    workers: Annotated[int | None, typer.Option(
        "--workers", help="Worker processes: the local pool's, or with --dask the local Dask cluster's "
        "(default: one per core)")] = None,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Run on a local Dask cluster (one thread per worker process) instead of "
        "the process pool")] = False,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="Run on an existing Dask cluster, e.g. tcp://host:8786; its workers need "
        "this reelforge installed, not the game file")] = None,
    checkpoint: Annotated[Path | None, typer.Option(
        "--checkpoint", help="Save progress to this JSON file (replaced atomically) as the run goes "
        "and when it stops")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the run saved in --checkpoint: only its missing chunks are played")] = False,
    checkpoint_seconds: Annotated[float, typer.Option(
        "--checkpoint-seconds", help="Seconds between checkpoints (also every 1000 chunks)")] = 30.0,
    lines: LinesOpt = None,
    bet_per_line: BplOpt = None,
    mode: ModeOpt = "base",
    as_json: JsonOpt = False,
) -> None:
    """Monte Carlo: RTP with its 95% CI, hit and feature frequency, win distribution.

    A seed and chunk size give the same figures, bit for bit, on any backend, resumed or not.
    """
    from reelforge.analysis.montecarlo import check_workers
    from reelforge.analysis.montecarlo import simulate as run

    try:
        n = _count(rounds)
        size = _count(chunk_size, "--chunk-size")
        _at_least(seed, "--seed", 0)
        check_workers(workers)
        if scheduler is not None and workers is not None:
            raise InvalidArgument(f"--workers = {workers}: the cluster at --scheduler has its own workers; "
                                  "drop one of the two")
        if not 0 < checkpoint_seconds < float("inf"):
            raise InvalidArgument(f"--checkpoint-seconds = {checkpoint_seconds!r}: must be a positive number")
        g = _game(game)
        bet = g.bet(lines, bet_per_line, mode)
        with bars() as progress:
            stats = run(game, bet, n, seed, size, workers, progress(g.id, n),
                        cluster=scheduler or ("local" if dask else None), checkpoint=checkpoint,
                        resume=resume, checkpoint_seconds=checkpoint_seconds)
    except ReelforgeError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        saved = f"; progress saved in {checkpoint}: add --resume to continue" if checkpoint else ""
        sys.stderr.write(f"interrupted{saved}\n")
        raise typer.Exit(130) from None
    data = {"game": g.id, "seed": seed, "chunk_size": size,
            "bet": {"lines": bet.lines, "bet_per_line": bet.bet_per_line, "mode": bet.mode,
                    "price": g.price(bet)}, **stats.to_dict()}
    if as_json:
        print(json.dumps(data))
        return
    low, high = stats.rtp_interval()
    played = f", mode {bet.mode} (price {g.spec.mode(bet.mode).price} x stake)" if bet.mode != "base" else ""
    table = Table(title=f"{g.spec.name} ({g.id}), {n:,} rounds, seed {seed}{played}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("RTP", f"{stats.rtp:.4%}  (95% CI {low:.4%} .. {high:.4%})")
    table.add_row("standard error", f"{stats.rtp_standard_error:.4%}")
    table.add_row("standard deviation per round", f"{stats.standard_deviation:.3f} x bet")
    one_in = f"  (1 in {1 / stats.hit_frequency:.2f})" if stats.hits else ""
    table.add_row("hit frequency", f"{stats.hit_frequency:.4%}{one_in}")
    words = g.labels
    for name, value in data["breakdown"].items():
        if value or name == "base_lines":
            table.add_row(f"  RTP from {words.breakdown.get(name, name.replace('_', ' '))}", f"{value:.4%}")
    if stats.feature_triggers:
        table.add_row(f"{words.feature} frequency", f"1 in {1 / stats.feature_frequency:,.1f}")
        table.add_row(f"mean {words.feature} award", f"{stats.mean_feature_award:.2f} x bet, {data['mean_free_spins']:.2f} spins")
    if stats.bonus_triggers:
        table.add_row(words.bonus_frequency, f"1 in {stats.rounds / stats.bonus_triggers:,.1f}")
        table.add_row(words.bonus_mean, f"{data['mean_bonus_spins']:.2f}")
    if words.fixed_jackpots:
        table.add_row("fixed jackpots won", f"{stats.jackpot_hits:,} in {stats.jackpot_rounds:,} rounds")
    if stats.cap_hits:
        table.add_row("rounds cut to the win cap", f"{stats.cap_hits:,}")
    if g.spec.jackpot:
        table.add_row("jackpot hits", f"{stats.jackpot_hits}")
    table.add_row("largest win", f"{stats.max_win_x:,.2f} x bet")
    for label, count in data["win_distribution"].items():
        table.add_row(f"  wins {label}", f"{count:,}")
    out.print(table)


@app.command()
def analyze(game: GameArg, lines: LinesOpt = None, bet_per_line: BplOpt = None, mode: ModeOpt = "base",
            as_json: JsonOpt = False) -> None:
    """Exact RTP and its breakdown, computed combinatorially; exact SD, volatility and maximum win."""
    import shlex

    from reelforge.analysis.capabilities import exact_available, no_exact_reason
    from reelforge.analysis.exact import analyze as exact
    from reelforge.analysis.moments import UNBOUNDED, NotExact, exact_moments, max_round_win

    moments, reason, top, note = None, None, None, None
    try:
        g = _game(game)
        if not exact_available(g):  # the command as it can be run: a file's id is no argument
            raise InvalidArgument(f"{g.id}: {no_exact_reason(g)}; estimate it: "
                                  f"reelforge estimate {shlex.quote(game)}")
        bet = g.bet(lines, bet_per_line, mode)
        result = exact(g, bet, cap_bound=True)
        try:
            moments = exact_moments(g, bet)
        except NotExact as exc:
            reason = str(exc)
            try:  # the maximum may still be exact where the moments are not
                top = max_round_win(g, bet)
                note = "exact" if top is not None else UNBOUNDED
            except NotExact:
                pass
    except ReelforgeError as exc:
        _fail(exc)
    cost = result.bet.total * float(result.price)
    if moments is not None:
        top, note = moments.max_round_win, moments.max_round_win_note
        figures = moments.to_dict()
        extra = {k: figures[k] for k in ("standard_deviation", "volatility_index",
                                         "base_standard_deviation", "base_volatility_index",
                                         "max_round_win", "max_round_win_x", "max_round_win_note",
                                         "max_base_win", "max_base_win_x")}
        extra["moments"] = figures
    else:
        extra = {"standard_deviation": None, "volatility_index": None,
                 "max_round_win": top, "max_round_win_x": None if top is None else top / cost,
                 "max_round_win_note": note, "moments": {"label": "not exact", "reason": reason}}
    if as_json:
        print(json.dumps({"exact": True, **result.to_dict(), **extra}))
        return
    title = f"{g.spec.name} ({g.id}), exact, bet {result.bet.lines} x {result.bet.bet_per_line}"
    if mode != "base":
        title += f", mode {mode} (price {result.price} x stake)"
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("RTP (without progressive)" if g.spec.jackpot else "RTP", f"{result.rtp:.6%}")
    for name, value in result.to_dict()["breakdown"].items():
        if value or name in ("base_lines",):
            table.add_row(f"  {g.labels.breakdown.get(name, name.replace('_', ' '))}", f"{value:.6%}")
    if result.cap_loss_bound:
        table.add_row("round cap takes at most", f"{result.cap_loss_bound:.3e} (RTP >= {result.rtp - result.cap_loss_bound:.6%})")
    if result.base_hit_frequency is not None:
        table.add_row("base-spin hit frequency", f"{result.base_hit_frequency:.6%}")
    if result.bonus_probability:
        table.add_row("bonus frequency", f"1 in {1 / result.bonus_probability:,.2f}")
        table.add_row("mean bonus spins", f"{result.mean_bonus_spins:.4f}")
    if result.feature_probability:
        table.add_row("free-game frequency", f"1 in {1 / result.feature_probability:,.2f}")
        table.add_row("mean free spins per trigger", f"{result.mean_free_spins:.4f}")
    if result.jackpot_probability:
        table.add_row("jackpot", f"1 in {1 / result.jackpot_probability:,.0f} rounds")
    unit = "total bet" if result.price == 1 else "cost"
    if moments is not None:
        label = moments.sd_label  # "exact (uncapped round)" where the round cap can bind
        table.add_row("standard deviation per round", f"{moments.round_standard_deviation:.4f} x {unit} ({label})")
        table.add_row("volatility index (1.645 SD)", f"{moments.volatility_index():.4f} ({label})")
        table.add_row("base-spin standard deviation", f"{moments.base_standard_deviation:.4f} x {unit} (exact)")
        table.add_row("base-spin volatility index", f"{moments.base_volatility_index():.4f} (exact)")
        if moments.cap_variance_bound:
            table.add_row("  (uncapped; the round cap moves the variance by at most)",
                          f"{moments.cap_variance_bound:.3g} (x {unit})^2")
        table.add_row("maximum base-spin win", f"{moments.max_base_win:,} credits "
                                               f"({moments.max_base_win / cost:,.2f} x {unit}, exact)")
    if top is not None:
        how = "exact" if note == "exact" else f"exact: {note}"
        table.add_row("maximum round win", f"{top:,} credits ({top / cost:,.2f} x {unit}, {how})")
    elif note == UNBOUNDED:
        table.add_row("maximum round win", "unbounded (guard only)")
    out.print(table)
    if reason is not None:
        out.print(f"standard deviation: not exact: {reason}", markup=False, highlight=False)


@app.command()
def par(
    game: GameArg,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder for <id>-par.html and <id>-par.json")],
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Simulated rounds, e.g. 2e6")] = "2000000",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the simulated run")] = 1,
    lines: LinesOpt = None,
    bet_per_line: BplOpt = None,
    mode: ModeOpt = "base",
) -> None:
    """PAR sheet: self-contained HTML page and JSON, exact and simulated figures labelled."""
    import importlib

    from reelforge.analysis.capabilities import par_sheet
    from reelforge.analysis.par_html import PLOTS_MISSING

    try:
        n = _count(rounds)
        _at_least(seed, "--seed", 0)
        try:  # the sheet's plots are drawn last: without the extra, say so before the run
            importlib.import_module("matplotlib.figure")
        except ImportError:
            raise ReelforgeError(PLOTS_MISSING) from None
        g = _game(game)
        build, write = par_sheet(g)  # as the game's analysis capability names them
        with bars() as progress:
            figures = build(g, g.bet(lines, bet_per_line, mode), n, seed, ref=game, tasks=progress)
            writing = progress(f"{g.id}: writing the HTML page and JSON (plots)", 1)
            paths = write(figures, out_dir)
            writing(1)
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out {str(out_dir)!r}: {exc.strerror or exc}"))
    for path in paths:
        print(path)


@app.command()
def bench(
    game: GameArg,
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Rounds per repeat")] = "2000000",
    repeats: Annotated[int, typer.Option("--repeats", help="Timed repeats; the median is reported")] = 5,
    mode: ModeOpt = "base",
    as_json: JsonOpt = False,
) -> None:
    """Full rounds per second on one core (median of repeats, compile excluded)."""
    from reelforge.analysis.montecarlo import play_rounds
    from reelforge.engine.rng import chunk_generator

    try:
        n = _count(rounds)
        _at_least(repeats, "--repeats")
        g = _game(game)
        bet = g.bet(mode=mode)
    except ReelforgeError as exc:
        _fail(exc)
    from reelforge.analysis.capabilities import exact_available
    from reelforge.analysis.exact import analyze as exact

    with bars(quiet=as_json) as progress:
        # the bar moves between timed repeats only: nothing of it runs inside a timing
        loading = progress(f"{g.id}: compiling or loading the kernels", 1)
        play_rounds(g, bet, chunk_generator(0, 0), 1000)
        loading(1)
        played = progress(f"{g.id}: {repeats} x {n:,} rounds", repeats * n)
        rates = []
        for i in range(repeats):
            rng = chunk_generator(i + 1, 0)
            start = time.perf_counter()
            play_rounds(g, bet, rng, n)
            rates.append(n / (time.perf_counter() - start))
            played(n)
        exact_s = None
        if exact_available(g):
            analysed = progress(f"{g.id}: exact analysis, 1 + {repeats} runs", repeats + 1)
            exact(g, bet)  # warm
            analysed(1)
            timings = []
            for _ in range(repeats):
                start = time.perf_counter()
                exact(g, bet)
                timings.append(time.perf_counter() - start)
                analysed(1)
            exact_s = statistics.median(timings)
    median = statistics.median(rates)
    if as_json:
        print(json.dumps({"game": g.id, "mode": mode, "rounds_per_second": median, "rounds": n,
                          "repeats": repeats, "all_rates": rates, "exact_analysis_seconds": exact_s}))
    else:
        label = g.id if mode == "base" else f"{g.id} ({mode})"
        exact_text = "no exact analysis" if exact_s is None else f"exact analysis {exact_s:.3f} s (median)"
        out.print(f"{label}: {median:,.0f} full rounds/s on one core (median of {repeats} x {n:,}); "
                  f"{exact_text}")


@app.command()
def check(game: GameArg, rounds: Annotated[str, typer.Option("--rounds", help="Rounds to sample, e.g. 2000 or 1e4")] = "2000") -> None:
    """check_game: data sanity, determinism and win bounds over a sample of rounds; then each
    mode's RTP, which must not be above 100%. Exit 1 naming each problem."""
    from reelforge.analysis.sanity import rtp_above_one
    from reelforge.engine.check import check_game
    from reelforge.spec.design_warnings import design_warnings

    try:
        count = _count(rounds)
        g = _game(game)
        check_game(g, rounds=count)
        problems = rtp_above_one(g, count)
    except ReelforgeError as exc:
        _fail(exc)
    for warning in design_warnings(g.spec):
        sys.stderr.write(f"warning: {warning}\n")
    for problem in problems:
        sys.stderr.write(f"FAIL {problem}\n")  # one line each, however narrow the terminal
    if problems:
        raise typer.Exit(1)
    out.print(f"{g.id}: ok ({count:,} rounds at max bet, at the lowest bet and in every mode; "
              "no mode pays back more than it takes)")
