"""The manifest: SHA-256 of every game file and every source file that plays a round.

ROUND_SOURCES is the one list (the certification bundle writes it, the server's `/version`
answers it), as patterns relative to the `reelforge` package: the engine, the spec loader,
every game package (game files, rules code, RULES.md, published estimates), the errors the
engine raises, and the server services that play, step, price and pay a round. A lab hashes
what runs and compares: `sha256sum -c manifest.sha256` inside the installed package's folder
checks every line, and `manifest_sha256` is the SHA-256 of that file's text.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from reelforge import __version__

PACKAGE = Path(__file__).resolve().parent.parent
ROUND_SOURCES = (
    "__init__.py",
    "errors.py",
    "engine/*.py",
    "spec/*.py",
    "games/*.py",
    "games/*/*.py",
    "games/*/*.toml",
    "games/*/*.json",
    "games/*/*.md",
    "server/services/round*.py",  # rounds.py, its rows, views and the group commit
    "server/services/bet_*.py",  # a bet's checks, its decision and the writer
    "server/services/placement.py",  # a bet checked and drawn
    "server/services/transitions.py",
    "server/services/step_decision.py",  # a step decided
    "server/services/steps.py",
    "server/services/catalog.py",
    "server/services/jackpot.py",
    "server/services/ledger.py",
    "server/services/common.py",
    "server/wallets/rounds.py",
    "server/wallets/outbox.py",
)


def round_files(root: Path = PACKAGE) -> list[Path]:
    """Every file ROUND_SOURCES names under `root`, sorted; a pattern matching nothing is an
    error (a renamed module must not drop out of the manifest silently)."""
    found: set[Path] = set()
    for pattern in ROUND_SOURCES:
        matched = [p for p in root.glob(pattern) if p.is_file()]
        if not matched:
            raise FileNotFoundError(f"manifest pattern {pattern!r} matches no file under {root}")
        found.update(matched)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sha256sum_text(files: dict[str, str]) -> str:
    """The manifest in `sha256sum` format: "<hash>  <path>" per line."""
    return "".join(f"{digest}  {name}\n" for name, digest in files.items())


def build(root: Path = PACKAGE) -> dict:
    """{reelforge_version, patterns, files: {package path: sha256}, manifest_sha256}."""
    files = {p.relative_to(root).as_posix(): sha256_file(p) for p in round_files(root)}
    text = sha256sum_text(files)
    return {"reelforge_version": __version__, "patterns": list(ROUND_SOURCES), "files": files,
            "manifest_sha256": hashlib.sha256(text.encode()).hexdigest()}


@lru_cache(maxsize=1)
def at_start() -> dict:
    """The manifest as this process first read it (the server's `/version`): the files that
    were loaded, not ones edited later."""
    return build()
