"""Commands that play, replay and describe single rounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from reelforge.cli.common import (
    BplOpt,
    GameArg,
    LinesOpt,
    ModeOpt,
    _check_writable,
    _fail,
    _game,
    app,
    err,
)
from reelforge.errors import InvalidArgument, ReelforgeError


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
