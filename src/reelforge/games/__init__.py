"""The shipped games: `make("cluedo-v1")` like gymnasium's `make`, or a path to a game file.

The engine is imported inside `make`, not here: importing a game package's spec part (as the
spec loader does for a rules module) must not load numba.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from reelforge.errors import UnknownGame
from reelforge.spec import load_spec

GAMES_DIR = Path(__file__).parent


def shipped_games() -> dict[str, Path]:
    """Game id -> file, for every game file shipped in this package."""
    return dict(_shipped_games())


@lru_cache(maxsize=1)
def _shipped_games() -> dict[str, Path]:
    # Read once a process: the package's files do not change under it, and each scan parses
    # every game file (a server's start made 201 parses, 2.8 s of its 5 CPU s, for 14 games).
    found: dict[str, Path] = {}
    for path in sorted(GAMES_DIR.glob("*/*.toml")):
        game_id = load_spec(path).id
        if game_id in found:
            raise UnknownGame(f"{path}: game id {game_id!r} is already the id of {found[game_id]}")
        found[game_id] = path
    return found


@lru_cache(maxsize=32)
def make(ref: str):
    """A shipped game by id, or any game file by path: a `Game` (engine/protocol.py),
    compiled and ready to play."""
    from reelforge.engine.families import compile_game
    from reelforge.engine.protocol import register_rtp_source

    register_rtp_source(published_figures)
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
    path = shipped_games().get(ref)
    return None if path is None else estimate_beside(path)


def estimate_beside(path: Path) -> dict | None:
    """The published estimate `<stem>.rtp.json` beside the game file `path`, or None; refused
    when it belongs to another version of the file."""
    import json

    from reelforge.errors import ReelforgeError

    found = path.with_suffix(".rtp.json")
    if not found.is_file():
        return None
    data = json.loads(found.read_text(encoding="utf-8"))
    if data.get("game_sha256") != load_spec(path).sha256:
        raise ReelforgeError(f"{found}: estimate of another version of {path.name}; rerun: "
                             f"{data.get('command', 'reelforge estimate')}")
    return data


def published_figures(game) -> tuple:
    """The RTP source of published estimates (registered by `make`): the estimate shipped
    beside the game's file, as an RtpFigure of its base mode; () where there is none."""
    from reelforge.engine.protocol import RtpFigure

    path = Path(game.spec.source)
    data = estimate_beside(path) if path.is_file() else None
    if data is None:
        return ()
    f = data["figures"]
    low, high = f["rtp_ci95"]
    return (RtpFigure("base", f["rtp"], "estimate", (high - low) / 2,
                      data.get("command", "reelforge estimate")),)
