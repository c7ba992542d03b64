"""The shipped games: `make("cluedo-v1")` like gymnasium's `make`, or a path to a game file."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reelforge.engine.game import compile_game
from reelforge.errors import UnknownGame
from reelforge.spec import load_spec

GAMES_DIR = Path(__file__).parent


def shipped_games() -> dict[str, Path]:
    """Game id -> file, for every game file shipped in this package."""
    found = {}
    for path in sorted(GAMES_DIR.glob("*/*.toml")):
        found[load_spec(path).id] = path
    return found


@lru_cache(maxsize=32)
def make(ref: str):
    """A shipped game by id, or any game file by path; compiled and ready to play."""
    games = shipped_games()
    if ref in games:
        return compile_game(load_spec(games[ref]))
    if Path(ref).is_file():
        return compile_game(load_spec(ref))
    known = ", ".join(games) or "none"
    raise UnknownGame(f"game {ref!r} is neither a shipped id ({known}) nor a game file")
