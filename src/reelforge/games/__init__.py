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
    found: dict[str, Path] = {}
    for path in sorted(GAMES_DIR.glob("*/*.toml")):
        game_id = load_spec(path).id
        if game_id in found:
            raise UnknownGame(f"{path}: game id {game_id!r} is already the id of {found[game_id]}")
        found[game_id] = path
    return found


@lru_cache(maxsize=32)
def make(ref: str):
    """A shipped game by id, or any game file by path; compiled and ready to play."""
    games = shipped_games()
    if ref in games:
        return compile_game(load_spec(games[ref]))
    path = Path(ref)
    if path.is_file():
        return compile_game(load_spec(ref))
    if path.exists():  # a directory, a device ...: load_spec's one line says which
        load_spec(path)
    known = ", ".join(games) or "none"
    raise UnknownGame(f"game {ref!r} is neither a shipped id ({known}) nor a game file")


def published_estimate(ref: str) -> dict | None:
    """The published stratified RTP of a shipped game without an exact analysis: the file
    `<game file stem>.rtp.json` beside it (written by `reelforge estimate --out`), or None.
    Its `game_sha256` must match the game file: a stale estimate is refused."""
    import json

    from reelforge.errors import ReelforgeError

    path = shipped_games().get(ref)
    if path is None:
        return None
    found = path.with_suffix(".rtp.json")
    if not found.is_file():
        return None
    data = json.loads(found.read_text(encoding="utf-8"))
    if data.get("game_sha256") != load_spec(path).sha256:
        raise ReelforgeError(f"{found}: estimate of another version of {path.name}; rerun: "
                             f"{data.get('command', 'reelforge estimate')}")
    return data
