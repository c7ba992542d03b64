"""`reelforge ...`: the one entry point. Errors print one line naming the bad value, exit 2."""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.progress import bars

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Slot games from math to play: define, prove, simulate, play.")
# Exit status when the reader of standard output left early (`reelforge ... | head`): what a
# shell reports for a program that SIGPIPE ended (128 + 13), as `cat` or `grep` would be. Not 0,
# which would say the whole output was written; not 1 or 2, which mean "replay differs" and
# "error". Without `set -o pipefail` a pipeline's status is the reader's anyway.
READER_GONE = 141


class _Out(Console):
    """Standard output's console: a broken pipe ends the program with READER_GONE (rich's
    own answer is exit 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        _silence_stdout()
        raise SystemExit(READER_GONE)


# Tables keep one row per line when piped (CI logs): rich would wrap them at 80 columns.
out = _Out(width=None if sys.stdout.isatty() else 140)
err = Console(stderr=True)


MAX_ROUNDS = 10**15  # a trillion rounds per core-day: more is a typo, not a plan


def _count(text: str, option: str = "--rounds") -> int:
    """Round counts like 10000000, 1e7 or 10_000_000."""
    clean = text.replace("_", "")
    try:
        value = float(clean) if any(c in clean.lower() for c in ".e") else int(clean)
    except ValueError:
        raise InvalidArgument(f"{option} = {text!r}: not a number of rounds") from None
    if not math.isfinite(value) or value != int(value) or not 1 <= value <= MAX_ROUNDS:
        raise InvalidArgument(f"{option} = {text!r}: must be a whole number 1..{MAX_ROUNDS:.0e}")
    return int(value)


def _at_least(value: int | None, option: str, low: int = 1) -> None:
    if value is not None and value < low:
        raise InvalidArgument(f"{option} = {value!r}: must be >= {low}")


def _fail(exc: ReelforgeError) -> NoReturn:
    # plain write, not rich: one line however narrow the terminal
    sys.stderr.write(f"error: {exc}\n")
    raise typer.Exit(2)


def _game(ref: str):
    from reelforge.games import make

    return make(ref)


GameArg = Annotated[str, typer.Argument(help="A shipped game id (see `reelforge games`) or a game file")]
LinesOpt = Annotated[int | None, typer.Option("--lines", help="Lines bet (default: all)")]
BplOpt = Annotated[int | None, typer.Option("--bet-per-line", help="Credits per line (default: max)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object")]
ModeOpt = Annotated[str, typer.Option("--mode", help="Way to play the base game (e.g. fortune)")]


def _figures(g) -> dict:
    """The game's RTP figures by mode (`Game.rtp()`: exact, or a published estimate)."""
    import reelforge.analysis  # noqa: F401 - importing the analysis registers its exact figures

    try:
        return {f.mode: f for f in g.rtp()}
    except ReelforgeError as exc:
        _fail(exc)


def _figure_text(f) -> str:
    """'96.1234%' (exact) or '96.0012% (stratified MC, 95% CI ±0.048 pp)' (estimate)."""
    if f.source == "exact":
        return f"{f.value:.4%}"
    return f"{f.value:.4%} (stratified MC, 95% CI ±{f.ci95 * 100:.3f} pp)"


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
    played = f", mode {bet.mode} (price {g.price(bet) // bet.total} x stake)" if bet.mode != "base" else ""
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

    from reelforge.analysis.exact import analyze as exact
    from reelforge.analysis.moments import UNBOUNDED, NotExact, exact_moments, max_round_win

    moments, reason, top, note = None, None, None, None
    try:
        g = _game(game)
        if not g.exact_available:  # the command as it can be run: a file's id is no argument
            raise InvalidArgument(f"{g.id}: {g.no_exact_reason}; estimate it: "
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
    cost = result.bet.total * result.price
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

    from reelforge.analysis.par import PLOTS_MISSING

    try:
        n = _count(rounds)
        _at_least(seed, "--seed", 0)
        try:  # the sheet's plots are drawn last: without the extra, say so before the run
            importlib.import_module("matplotlib.figure")
        except ImportError:
            raise ReelforgeError(PLOTS_MISSING) from None
        g = _game(game)
        # the game names its PAR sheet's builder and writer ("module:function")
        build, write = (getattr(importlib.import_module(module), name)
                        for module, name in (ref.split(":") for ref in g.par_sheet))
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
        if g.exact_available:
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

    try:
        count = _count(rounds)
        g = _game(game)
        check_game(g, rounds=count)
        problems = rtp_above_one(g, count)
    except ReelforgeError as exc:
        _fail(exc)
    for problem in problems:
        sys.stderr.write(f"FAIL {problem}\n")  # one line each, however narrow the terminal
    if problems:
        raise typer.Exit(1)
    out.print(f"{g.id}: ok ({count:,} rounds at max bet, at the lowest bet and in every mode; "
              "no mode pays back more than it takes)")


@app.command()
def play(game: GameArg, lines: LinesOpt = None, bet_per_line: BplOpt = None, mode: ModeOpt = "base") -> None:
    """One live round (ChaCha20, fresh 256-bit seed); prints the Outcome JSON."""
    from reelforge.engine.round import play_live

    try:
        g = _game(game)
        print(play_live(g, g.bet(lines, bet_per_line, mode)).to_json(indent=2))
    except ReelforgeError as exc:
        _fail(exc)


@app.command()
def replay(
    outcome_file: Annotated[Path, typer.Argument(help="An Outcome JSON file")],
    game_file: Annotated[Path | None, typer.Option(
        "--game", help="The game file that played the round (default: the shipped game of the "
        "outcome's game_id)")] = None,
) -> None:
    """Replay a stored live round from its seed; exit 1 if it differs from the file.

    The game is found only among the shipped games, or at the path given with --game: never
    at a path taken from the outcome. It must be the very file that played the round (its
    SHA-256, recorded on the outcome).
    """
    from reelforge.analysis.checkpoint import read_json
    from reelforge.engine.round import replay as redo
    from reelforge.errors import quote
    from reelforge.games import shipped_games
    from reelforge.spec import valid_game_id

    try:
        stored = read_json(outcome_file, str(outcome_file))
        if not isinstance(stored, dict):
            raise ReelforgeError(f"{outcome_file}: not a stored outcome (a JSON {type(stored).__name__}, "
                                 "not an object)")
        game_id = stored.get("game_id")
        if not valid_game_id(game_id):  # refused before anything is opened by its name
            raise ReelforgeError(f"{outcome_file}: game_id = {quote(game_id)}: not a game id "
                                 "like 'cluedo-v1'; nothing was opened")
        if game_file is not None:
            g = _game(str(game_file))
        elif game_id in shipped_games():
            g = _game(game_id)
        else:
            raise ReelforgeError(f"{outcome_file}: game_id = {game_id!r}: not a shipped game; give "
                                 "the game file that played it with --game FILE")
        again = redo(g, stored)  # checks every field it reads: a malformed one is a ReelforgeError
    except ReelforgeError as exc:
        _fail(exc if str(exc).startswith(f"{outcome_file}:") else ReelforgeError(f"{outcome_file}: {exc}"))
    same = json.loads(again.to_json()) == stored
    print(again.to_json(indent=2))
    err.print("replay matches the stored outcome" if same else "REPLAY DIFFERS from the stored outcome")
    raise typer.Exit(0 if same else 1)


@app.command()
def schema(
    name: Annotated[str, typer.Argument(help="The schema: outcome")],
    out_file: Annotated[Path | None, typer.Option("--out", help="Write it to this file")] = None,
) -> None:
    """Print a published JSON Schema: `outcome`, what every stored round satisfies (the
    server and the client validate against it)."""
    from reelforge.engine.outcome import outcome_json_schema

    try:
        if name != "outcome":
            raise InvalidArgument(f"schema = {name!r}: the schemas are: outcome")
        text = json.dumps(outcome_json_schema(), indent=2) + "\n"
        if out_file is None:
            print(text, end="")
            return
        _check_writable(out_file)
        out_file.write_text(text, encoding="utf-8")
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out = {str(out_file)!r}: {exc.strerror}"))
    err.print(f"wrote {out_file}")


@app.command()
def report(
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Rounds per game")] = "10000000",
    seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
) -> None:
    """The main job: analyse every shipped game and print one table."""
    from reelforge.analysis.montecarlo import simulate as run
    from reelforge.games import shipped_games

    try:
        n = _count(rounds)
        _at_least(seed, "--seed", 0)
    except ReelforgeError as exc:
        _fail(exc)
    table = Table(title=f"reelforge: shipped games at max bet ({n:,} simulated rounds each, seed {seed})")
    for col in ("game", "RTP (exact or published)", "simulated RTP (95% CI)", "hit frequency", "feature frequency",
                "largest win seen"):
        table.add_column(col, justify="left" if col == "game" else "right")
    try:
        games = [(gid, _game(gid)) for gid in shipped_games()]
        figures = {gid: _figures(g) for gid, g in games}
        bets = [(gid, g, g.bet(mode=mode.name)) for gid, g in games for mode in g.modes]
        rows = []
        with bars() as progress:
            for i, (gid, g, bet) in enumerate(bets, 1):
                label = gid if bet.mode == "base" else f"{gid} ({bet.mode})"
                stats = run(gid, bet, n, seed, progress=progress(f"{i}/{len(bets)} {label}", n))
                f = figures[gid].get(bet.mode)
                rows.append((gid, bet, stats, "not published" if f is None else f"{f.value:.4%}"
                             + ("" if f.source == "exact" else " (strat.)")))
    except ReelforgeError as exc:
        _fail(exc)
    for game_id, bet, stats, figure in rows:
        low, high = stats.rtp_interval()
        triggers = stats.feature_triggers + stats.bonus_triggers  # free games or a bonus
        feature = f"1 in {stats.rounds / triggers:,.0f}" if triggers else "-"
        label = game_id if bet.mode == "base" else f"{game_id} ({bet.mode})"
        table.add_row(label, figure, f"{stats.rtp:.3%} ({low:.3%} .. {high:.3%})",
                      f"{stats.hit_frequency:.2%}", feature, f"{stats.max_win_x:,.1f} x bet")
    out.print(table)


def _check_writable(path: Path, option: str = "--out") -> None:
    """Refuse, before a long run, an output file that could not be written after it."""
    folder = path.parent
    if path.is_dir():
        raise InvalidArgument(f"{option} = {str(path)!r}: is a folder; give a file name")
    if not folder.is_dir():
        raise InvalidArgument(f"{option} = {str(path)!r}: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidArgument(f"{option} = {str(path)!r}: not writable")


@app.command()
def estimate(
    game: GameArg,
    ci: Annotated[float, typer.Option(
        "--ci", help="Target half-width of the 95% CI, in multiples of the bet (0.0005 = ±0.05 pp)")] = 0.0005,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the run (pilot included)")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes (default: one per core)")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write the published estimate (figures, command, sample) to this JSON file")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Stratified Monte Carlo RTP of a game without an exact analysis: any cluster game.

    Base spins and each Free Spins class are sampled apart, sized from a pilot for the CI
    asked; the trigger's drawn-grid part and the random multiplier are exact. A cluster game
    without a feature is its base game alone. See analysis/stratified.py for the method.
    """
    import shlex

    from reelforge.analysis.montecarlo import GameText, check_workers
    from reelforge.analysis.stratified import estimate as run
    from reelforge.analysis.stratified import published

    start = time.perf_counter()
    try:
        _at_least(seed, "--seed", 0)
        check_workers(workers)
        if out_file is not None:
            _check_writable(out_file)
        text = GameText.load(game)
        with bars(quiet=as_json) as progress:
            result = run(text, seed=seed, half_width=ci, workers=workers, progress=progress)
    except ReelforgeError as exc:
        _fail(exc)
    seconds = time.perf_counter() - start
    command = "reelforge estimate " + shlex.join([game, "--ci", repr(ci), "--seed", str(seed)])
    data = published(text, result, command, seconds)
    if out_file is not None:
        try:
            out_file.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(ReelforgeError(f"--out {str(out_file)!r}: {exc.strerror or exc}"))
    f = data["figures"]
    if as_json:
        print(json.dumps(f))
        return
    low, high = f["rtp_ci95"]
    table = Table(title=f"{result.game_id}: stratified estimate, seed {seed}, {seconds:.0f} s")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("RTP", f"{f['rtp']:.4%}  (95% CI {low:.4%} .. {high:.4%})")
    table.add_row("bound on the method's bias", f"{f['bias_bound']:.2e} x bet")
    table.add_row("base spins played", f"{f['base_spins']:,}")
    table.add_row("  RTP from the base game", f"{f['rtp_base']:.4%}")
    table.add_row("  base hit frequency", f"{f['base_hit_frequency']:.4%}")
    if f["feature_frequency"]:
        table.add_row("Free Spins frequency", f"1 in {1 / f['feature_frequency']:,.1f}")
    elif not f["feature_rounds"]:
        table.add_row("Free Spins", "none (the round is the base spin)")
    for name, rounds in f["feature_rounds"].items():
        table.add_row(f"  {name}: 1 in {1 / f['trigger_probability'][name]:,.0f}, mean "
                      f"{f['feature_mean_x'][name]:,.2f} x bet", f"RTP {f['rtp_features'][name]:.4%} "
                      f"({rounds:,} rounds)")
    table.add_row("standard deviation per round", f"{f['standard_deviation']:.2f} x bet")
    table.add_row("volatility index (90%)", f"{f['volatility_index']:.2f}")
    table.add_row("P(win >= 1000x)", f"1 in {1 / f['probability_1000x']:,.0f}" if f["probability_1000x"] else "-")
    table.add_row("P(win cut to the cap)", f"1 in {1 / f['probability_cap']:,.0f}" if f["probability_cap"] else "-")
    out.print(table)
    if out_file is not None:
        print(out_file)


@app.command()
def tune(
    game: GameArg,
    rtp: Annotated[float, typer.Option("--rtp", help="Target RTP as a fraction, e.g. 0.94")],
    mode: Annotated[list[str] | None, typer.Option(
        "--mode", help="Tune only this mode's reels (repeatable; default: every mode)")] = None,
    out_file: Annotated[Path | None, typer.Option("--out", help="The new game file (default: ./<id>.toml)")] = None,
    new_id: Annotated[str | None, typer.Option("--id", help="The new game's id (default: <game>-<rtp>-vN, e.g. cluedo-94-v1)")] = None,
    rounds: Annotated[str, typer.Option("--rounds", "-n", help="Simulated rounds per game and mode for the feel")] = "2000000",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the feel's simulated runs "
                                      "(cluster games: of the variant's verification estimate)")] = 1,
    ci: Annotated[float, typer.Option(
        "--ci", help="Cluster games: 95% CI half-width of the verification estimate")] = 0.0004,
) -> None:
    """A variant at a target RTP: only weights change.

    Line games: reel stop weights, exact RTP within 0.001 points. Cluster games (no exact
    analysis): the base random multiplier's weights, solved exactly on the source's published
    sample, then an independent stratified estimate of the variant (written beside it) whose
    95% CI must lie within ±0.1 points of the target.

    Prints the feel side by side (source, tuned) against its bands; a figure outside its band
    is a warning, a missed RTP an error (exit 1).
    """
    import shlex

    from reelforge.analysis import tune as tuning
    from reelforge.analysis.montecarlo import GameText
    from reelforge.spec import load_spec

    start = time.perf_counter()
    try:
        n = _count(rounds)
        _at_least(seed, "--seed", 0)
        if out_file is not None:
            _check_writable(out_file)
        source = GameText.load(game)
        if not _game(game).exact_available:  # tuned against its published estimate
            if mode:
                raise InvalidArgument(f"--mode {mode[0]!r}: a cluster game has one mode")
            return _tune_cluster(game, source, rtp, out_file, new_id, ci, seed, start)
        words = [game, "--rtp", repr(rtp)] + [w for m in mode or () for w in ("--mode", m)]
        target_id = new_id or tuning.variant_id(load_spec(source.source).id, rtp)
        command = "reelforge tune " + shlex.join(words + ["--id", target_id])
        with bars() as progress:
            result = tuning.tune_text(source.text, source.source, rtp, target_id,
                                      tuple(mode) if mode else None, command, progress=progress)
            path = out_file or Path(f"{result.spec.id}.toml")
            if path.resolve() == Path(source.source).resolve():
                raise InvalidArgument(f"--out {str(path)!r}: that is the source game; write the variant elsewhere")
            path.write_text(result.text, encoding="utf-8")
            written = load_spec(path)
            missed = [(row.mode, tuning.exact_rtp(written, row.mode)) for row in result.modes]
            missed = [(m, r) for m, r in missed if abs(r - rtp) > tuning.TOLERANCE]
            searched = time.perf_counter() - start
            feel = tuning.compare_feel(result, n, seed, progress=progress)
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out {str(out_file)!r}: {exc.strerror or exc}"))
    total = time.perf_counter() - start
    table = Table(title=f"{result.source.id} -> {result.spec.id}: RTP {rtp:.4%} (exact, max bet)")
    for col in ("mode", "figure", "source", "tuned", "change", "band", "check"):
        table.add_column(col, justify="left" if col in ("mode", "figure") else "right")
    for row in result.modes:
        ok = abs(row.rtp - rtp) <= tuning.TOLERANCE
        table.add_row(row.mode, "RTP (exact)", f"{row.source_rtp:.6%}", f"{row.rtp:.6%}",
                      f"{(row.rtp - row.source_rtp) * 100:+.4f} pp", "±0.001 pp",
                      "PASS" if ok else "[red]FAIL[/red]")
    def shown(figure: str, value: float, ci) -> str:
        if figure == "standard deviation":
            return f"{value:.3f}"
        text = f"1 in {1 / value:,.1f}" if figure != "hit frequency" else f"{value:.3%}"
        return text + (f" ± {(ci[1] - ci[0]) / 2:.3%}" if ci else "")

    for f in feel:
        kind = "exact" if f.source_ci is None and f.figure != "standard deviation" else "simulated"
        label = "SD per round, x cost" if f.figure == "standard deviation" else f.figure
        table.add_row(f.mode, f"{label} ({kind})", shown(f.figure, f.source, f.source_ci),
                      shown(f.figure, f.tuned, f.tuned_ci), f"{f.change:+.2%}", f"±{f.band:.0%}",
                      "PASS" if f.passed else "[yellow]FAIL[/yellow]")
    out.print(table)
    for row in result.modes:
        out.print(f"{row.mode}: [reels.{row.reel_set}] stops showing {', '.join(row.symbols)} weigh "
                  f"{row.scale:,} x source {row.delta:+,}, the others {row.scale:,} x source "
                  f"({row.evaluations} exact analyses)", markup=False, highlight=False)
    out.print(f"time: {searched:.1f} s to tune and check, {total - searched:.1f} s to measure the feel "
              f"({n:,} rounds x 2 per mode, seed {seed}); {total:.1f} s in all", highlight=False)
    print(path)
    outside = [f"{f.mode} {f.figure} {f.change:+.1%} (band ±{f.band:.0%})" for f in feel if not f.passed]
    if outside:
        sys.stderr.write(f"warning: the feel left its bands: {'; '.join(outside)}\n")
    if missed:
        sys.stderr.write("error: " + "; ".join(f"{path}: mode {m} is at {r:.6%}, not {rtp:.4%}"
                                               for m, r in missed) + "\n")
        raise typer.Exit(1)


def _tune_cluster(game: str, source, rtp: float, out_file, new_id, ci: float, seed: int, start: float):
    import shlex

    from reelforge.analysis import tune as tuning
    from reelforge.analysis.montecarlo import GameText
    from reelforge.analysis.stratified import estimate as run
    from reelforge.analysis.stratified import from_state, published
    from reelforge.analysis.tune_clusters import BAND, tune_cluster
    from reelforge.games import published_estimate
    from reelforge.spec import load_spec

    try:
        data = published_estimate(game)
        if data is None:
            raise InvalidArgument(f"{game}: tune needs the game's published estimate "
                                  "(<game>.rtp.json beside a shipped game: reelforge estimate --out)")
        target_id = new_id or tuning.variant_id(load_spec(source.source).id, rtp)
        command = "reelforge tune " + shlex.join([game, "--rtp", repr(rtp), "--id", target_id])
        result = tune_cluster(source.text, source.source, from_state(data["state"]), rtp, target_id, command)
        path = out_file or Path(f"{target_id}.toml")
        if path.resolve() == Path(source.source).resolve():
            raise InvalidArgument(f"--out {str(path)!r}: that is the source game; write the variant elsewhere")
        estimate_path = path.with_suffix(".rtp.json")
        _check_writable(estimate_path, "--out (its estimate beside it)")
        path.write_text(result.text, encoding="utf-8")
        solved = time.perf_counter() - start
        text = GameText(result.text, str(path))
        with bars() as progress:
            check = run(text, seed=seed, half_width=ci, progress=progress)
        seconds = time.perf_counter() - start
        estimate_command = "reelforge estimate " + shlex.join([str(path), "--ci", repr(ci), "--seed", str(seed)])
        record = published(text, check, estimate_command, seconds - solved)
        estimate_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    except ReelforgeError as exc:
        _fail(exc)
    except OSError as exc:
        _fail(ReelforgeError(f"--out {str(out_file)!r}: {exc.strerror or exc}"))
    source_f = data["figures"]
    mine = record["figures"]
    low, high = mine["rtp_ci95"]
    inside = rtp - BAND <= low and high <= rtp + BAND
    table = Table(title=f"{result.source_id} -> {result.new_id}: RTP {rtp:.4%} (stratified estimates)")
    for col in ("figure", "source", "tuned (source sample)", "tuned (own run)"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    tuned = result.sample.to_dict()
    table.add_row("RTP", f"{source_f['rtp']:.4%}", f"{tuned['rtp']:.4%}",
                  f"{mine['rtp']:.4%} ({low:.4%} .. {high:.4%}) " + ("PASS" if inside else "FAIL"))
    for key, label in (("base_hit_frequency", "base hit frequency"), ("feature_frequency", "Free Spins frequency")):
        table.add_row(label, f"{source_f[key]:.4%}", f"{tuned[key]:.4%}", f"{mine[key]:.4%}")
    table.add_row("SD per round, x bet", f"{source_f['standard_deviation']:.2f}",
                  f"{tuned['standard_deviation']:.2f}", f"{mine['standard_deviation']:.2f}")
    out.print(table)
    out.print(f"base multiplier weights {list(result.source_weights)} -> {list(result.weights)} "
              f"(value 1 = no multiplier); solved in {solved:.1f} s, verified in {seconds - solved:.0f} s",
              markup=False, highlight=False)
    print(path)
    print(estimate_path)
    if not inside:
        sys.stderr.write(f"error: {path}: its own estimate {low:.4%} .. {high:.4%} is not within "
                         f"{rtp:.2%} ± {BAND:.1%}\n")
        raise typer.Exit(1)


def _silence_stdout() -> None:
    """Point stdout at the null device: what it still buffers cannot be written, and the
    interpreter's last flush would fail again and print its own message."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


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

    from reelforge.analysis.par import PLOTS_MISSING
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


DbUrlOpt = Annotated[str | None, typer.Option(
    "--database-url", help="SQLAlchemy URL (default: $REELFORGE_DATABASE_URL, else SQLite "
    "var/reelforge.db); postgresql://... for PostgreSQL")]


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port")] = 8000,
    database_url: DbUrlOpt = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Operators and their games (TOML); default: the demo operators")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Server processes")] = 1,
) -> None:
    """Serve the games: the remote game server (migrates the database first)."""
    _at_least(workers, "--workers")
    if not 0 < port < 65536:
        _fail(InvalidArgument(f"--port = {port}: must be 1..65535"))
    from reelforge.server.main import serve as run_server

    try:
        run_server(host, port, database_url, config, workers)
    except ReelforgeError as exc:
        _fail(exc)


db_app = typer.Typer(no_args_is_help=True, help="The server's database.")
app.add_typer(db_app, name="db")
ledger_app = typer.Typer(no_args_is_help=True, help="The server's double-entry ledger.")
app.add_typer(ledger_app, name="ledger")
audit_app = typer.Typer(no_args_is_help=True, help="The server's hash-chained audit log.")
app.add_typer(audit_app, name="audit")
staff_app = typer.Typer(no_args_is_help=True, help="The back office's staff accounts.")
app.add_typer(staff_app, name="staff")


@db_app.command("upgrade")
def db_upgrade(database_url: DbUrlOpt = None) -> None:
    """Create or migrate the server's tables to the current revision (Alembic)."""
    from reelforge.server.commands import db_upgrade as upgrade

    try:
        print(f"database at revision {upgrade(database_url)}")
    except ReelforgeError as exc:
        _fail(exc)


@ledger_app.command("check")
def ledger_check(database_url: DbUrlOpt = None) -> None:
    """Prove the ledger's invariants; exit 1 and name each broken one."""
    from reelforge.server.commands import ledger_check as check

    try:
        problems, summary = check(database_url)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in summary.items():
        print(f"{key}: {value}")
    for problem in problems:
        print(f"FAIL {problem}")
    print("ledger OK" if not problems else f"ledger BROKEN: {len(problems)} problem(s)")
    raise typer.Exit(1 if problems else 0)


@ledger_app.command("reconcile")
def ledger_reconcile(
    operator: Annotated[str, typer.Option("--operator", help="The seamless operator's id")],
    config: Annotated[Path | None, typer.Option("--config", help="The server's operators "
                                                "(TOML): the wallet's URL and key")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Compare the server's ledger and outbox with a seamless operator wallet's own records,
    transaction by transaction, to the cent; exit 1 and name each mismatch."""
    from reelforge.server.commands import ledger_reconcile as reconcile

    try:
        found = reconcile(database_url, operator, config)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in found.summary.items():
        print(f"{key}: {value}")
    for line in found.pending:
        print(f"PENDING {line}")
    for line in found.mismatches:
        print(f"MISMATCH {line}")
    print("reconciled OK" + (f" ({len(found.pending)} pending)" if found.pending else "")
          if not found.mismatches else f"reconcile FAILED: {len(found.mismatches)} mismatch(es)")
    raise typer.Exit(1 if found.mismatches else 0)


@audit_app.command("verify")
def audit_verify(database_url: DbUrlOpt = None) -> None:
    """Check the audit log's hash chains; exit 1 and name each edited, inserted or deleted row."""
    from reelforge.server.commands import audit_verify as verify

    try:
        problems = verify(database_url)
    except ReelforgeError as exc:
        _fail(exc)
    for problem in problems:
        print(f"FAIL {problem}")
    print("audit log OK" if not problems else f"audit log BROKEN: {len(problems)} problem(s)")
    raise typer.Exit(1 if problems else 0)


@app.command("backup")
def backup_command(
    out: Annotated[Path, typer.Option("--out", help="The new file to write the backup to")],
    database_url: DbUrlOpt = None,
) -> None:
    """Back up the server's database while it serves: SQLite's online backup API, or pg_dump's
    custom format for PostgreSQL. Restore it with `reelforge restore`."""
    from reelforge.server.commands import backup

    try:
        size = backup(database_url, out)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"backup written to {out} ({size:,} bytes)")


@app.command("restore")
def restore_command(
    source: Annotated[Path, typer.Argument(help="A file written by reelforge backup")],
    database_url: DbUrlOpt = None,
) -> None:
    """Restore a backup into an empty database (a new SQLite file, a PostgreSQL database with
    no tables), then prove its ledger and audit chain; exit 1 if either is broken."""
    from reelforge.server.commands import restore

    try:
        restored = restore(source, database_url)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"restored into {restored.url} at revision {restored.revision}")
    for key, value in restored.summary.items():
        print(f"{key}: {value}")
    for problem in restored.ledger_problems + restored.audit_problems:
        print(f"FAIL {problem}")
    print("ledger OK, audit log OK" if restored.ok else "restored database BROKEN")
    raise typer.Exit(0 if restored.ok else 1)


@app.command("export")
def export_command(
    what: Annotated[str, typer.Argument(help="rounds or ledger")],
    out: Annotated[Path, typer.Option("--out", help="The new file to write")],
    fmt: Annotated[str, typer.Option("--format", help="csv or parquet")] = "csv",
    since: Annotated[str | None, typer.Option("--since", help="First UTC day, YYYY-MM-DD")] = None,
    until: Annotated[str | None, typer.Option("--until", help="Last UTC day, YYYY-MM-DD")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Export the rounds or the ledger entries of a span of days for an auditor, as CSV or
    Parquet: integer minor units with their currency, times in UTC."""
    from reelforge.server.commands import export

    try:
        rows = export(database_url, what, out, fmt, since, until)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"{rows:,} {what} rows written to {out}")

@app.command("retention")
def retention_command(
    apply: Annotated[bool, typer.Option("--apply", help="Remove them (default: a dry run "
                                        "that only lists)")] = False,
    config: Annotated[Path | None, typer.Option(
        "--config", help="The server's configuration: its [retention] days per jurisdiction "
        "(default: each jurisdiction's required minimum)")] = None,
    database_url: DbUrlOpt = None,
) -> None:
    """Remove the ledger entries and rounds older than their jurisdiction's retention (J9),
    never a younger one; the ledger's proofs still hold after. A dry run unless --apply."""
    from reelforge.server.commands import retention

    try:
        found = retention(database_url, config, apply)
    except ReelforgeError as exc:
        _fail(exc)
    for key, value in found.summary().items():
        print(f"{key}: {value}")
    verb = "removed" if apply else "would remove (dry run; --apply to remove)"
    print(f"retention {verb}: {found.entries} ledger entries of {found.txns} txns, "
          f"{len(found.rounds)} rounds")


@staff_app.command("add")
def staff_add(
    name: Annotated[str, typer.Argument(help="The staff member's sign-in name")],
    role: Annotated[str, typer.Option("--role", help="viewer, manager or auditor")],
    database_url: DbUrlOpt = None,
) -> None:
    """Create a back-office account. The password is asked twice at a terminal, or read as
    the first line of standard input (never an argument: it would stay in the shell's
    history and the process list)."""
    from reelforge.server.commands import staff_add as add

    if sys.stdin.isatty():
        import getpass

        password = getpass.getpass(f"password for {name}: ")
        if getpass.getpass("again: ") != password:
            _fail(InvalidArgument(f"the two passwords typed for {name!r} differ"))
    else:
        password = sys.stdin.readline().rstrip("\r\n")
    try:
        staff_id = add(database_url, name, role, password)
    except ReelforgeError as exc:
        _fail(exc)
    print(f"staff {name!r} added as {role} (id {staff_id})")


def main() -> None:
    """The `reelforge` program: `app`, and one line instead of a traceback when the output
    cannot be written (a full disk, a closed device) or another file operation fails. A
    reader that left (a broken pipe) is no error: the program ends quietly, READER_GONE."""
    stdout = sys.stdout
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # a full disk shows here, while it can still be told
    except SystemExit:
        # typer answers a broken pipe met inside a command by swapping stdout for a wrapper
        # that ignores it and exiting 1: the same event, so the same status
        if sys.stdout is not stdout:
            sys.stdout = stdout
            _silence_stdout()
            raise SystemExit(READER_GONE) from None
        raise
    except BrokenPipeError:
        _silence_stdout()
        raise SystemExit(READER_GONE) from None
    except OSError as exc:
        what = exc.filename if exc.filename is not None else "standard output"
        sys.stderr.write(f"error: {what}: {exc.strerror or exc}\n")
        _silence_stdout()
        raise SystemExit(2) from None


if __name__ == "__main__":  # pragma: no cover
    main()
