"""Commands that publish figures: the report over every shipped game, the published estimate
of a game without exact analysis, and tuning to a target RTP."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from reelforge.cli.common import (
    GameArg,
    JsonOpt,
    _at_least,
    _check_writable,
    _count,
    _fail,
    _figures,
    _game,
    app,
    out,
)
from reelforge.engine.capabilities import TUNE_BASE_MULTIPLIER, TUNE_STOP_WEIGHTS
from reelforge.errors import InvalidArgument, ReelforgeError
from reelforge.progress import bars


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
            game_path = _game_path(game)
            if out_file.resolve() == game_path.with_suffix(".rtp.json").resolve():
                _write_top_beside(game_path, game)  # its top prize comes from this sample
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
    if f["feature_rounds"]:
        table.add_row("base spins played", f"{f['base_spins']:,}")
        table.add_row("  RTP from the base game", f"{f['rtp_base']:.4%}")
        table.add_row("  base hit frequency", f"{f['base_hit_frequency']:.4%}")
    else:  # one stratum: the whole round, any free spins inside it (pays anywhere)
        table.add_row("rounds played (one stratum: the whole round)", f"{f['base_spins']:,}")
        table.add_row("  hit frequency of the first spin", f"{f['base_hit_frequency']:.4%}")
    if f["feature_frequency"]:
        table.add_row("Free Spins frequency", f"1 in {1 / f['feature_frequency']:,.1f}")
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
        capabilities = _game(game).capabilities
        if TUNE_BASE_MULTIPLIER in capabilities:  # tuned against its published estimate
            if mode:
                raise InvalidArgument(f"--mode {mode[0]!r}: a cluster game has one mode")
            return _tune_cluster(game, source, rtp, out_file, new_id, ci, seed, start)
        if TUNE_STOP_WEIGHTS not in capabilities:  # on the exact RTP
            raise InvalidArgument(f"{game}: tune works on line and cluster games; a "
                                  f"{_game(game).family} game is tuned by editing its "
                                  "pays or strips (its exact RTP: reelforge analyze)")
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
        _write_top_beside(path, str(path))
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


@app.command("top-prize")
def top_prize(
    game: GameArg,
    write: Annotated[bool, typer.Option(
        "--out", help="Write the estimated figure beside the game file (<game>.top.json)")] = False,
    as_json: JsonOpt = False,
) -> None:
    """The top prize and its probability per round at the highest bet (F4, GlueStV 22a(3)).

    Exact for a ways game (the paytable's top award) and a hold-and-win game (the grand prize);
    for a game with a published stratified estimate, the win cap's probability estimated from
    that estimate's sample with its 95% CI (analysis/top_prize.py), written with --out beside
    the game file, tied to it and to the estimate by their SHA-256.
    """
    from reelforge.analysis import top_prize as tp
    from reelforge.engine.capabilities import STRATIFIED

    try:
        g = _game(game)
        path = _game_path(game)
        figure: dict | None
        if STRATIFIED in g.capabilities:
            record = tp.published(path, f"reelforge top-prize {game} --out")
            if write:
                _check_writable(path.with_suffix(tp.TOP_SUFFIX))
                _write_top_beside(path, game)
            figure = record["top_prize"]
        else:
            if write:
                raise InvalidArgument(f"{g.id}: its top prize is exact; --out writes estimates")
            figure = tp.top_prize(g)
            if figure is None:
                raise InvalidArgument(f"{g.id}: its top award is the PAR sheet's "
                                      "(reelforge par: exact_figures.top_award)")
    except ReelforgeError as exc:
        _fail(exc)
    if as_json:
        out.print_json(json.dumps(figure))
        return
    for key, value in figure.items():
        out.print(f"{key}: {value}")


def _game_path(game: str) -> Path:
    from reelforge.games import shipped_games

    return shipped_games().get(game) or Path(game)


def _write_top_beside(game_path: Path, ref: str) -> None:
    """The top prize estimated from the estimate just published beside `game_path`, written
    beside it too (`<game>.top.json`), so the two never disagree."""
    from reelforge.analysis import top_prize as tp

    record = tp.published(game_path, f"reelforge top-prize {ref} --out")
    game_path.with_suffix(tp.TOP_SUFFIX).write_text(
        json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
