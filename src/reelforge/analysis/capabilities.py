"""The registry the analysis dispatches on: which implementation serves each capability a
game declares (`Game.capabilities`, vocabulary in `engine.capabilities`). Nothing else in the
analysis asks a game's family or probes its model; a new family or rules module adds its
capability names to the vocabulary and its implementations here.

Implementations are named "module:function" and imported on first use, so a line game never
loads the cluster analysis.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from reelforge.engine import capabilities as cap
from reelforge.errors import InvalidArgument

# analysis -> the exact analysis: (game, bet, cap_bound) -> ExactResult
EXACT: dict[str, str] = {
    cap.EXACT_LINES: "reelforge.analysis.exact:analyze_lines",
    cap.EXACT_WAYS: "reelforge.analysis.ways_exact:analyze_ways",
    cap.EXACT_HOLDWIN: "reelforge.analysis.holdwin_exact:analyze_holdwin",
}
# analysis -> why there is no exact analysis (`reelforge estimate` publishes an estimate)
NO_EXACT: dict[str, str] = {
    cap.STRATIFIED: "a tumbling grid game has no exact analysis (tumbles refill the grid "
                    "until nothing wins)",
}
# PAR sheet -> its builder (game, bet, rounds, seed, ref, tasks) -> figures, and its writer
# (figures, folder) -> (html path, json path)
PAR_SHEETS: dict[str, tuple[str, str]] = {
    cap.PAR_LINES: ("reelforge.analysis.par:build_par", "reelforge.analysis.par_html:write_par"),
    cap.PAR_WAYS: ("reelforge.analysis.ways_exact:build_ways_par",
                   "reelforge.analysis.ways_exact:write_ways_par"),
    cap.PAR_HOLDWIN: ("reelforge.analysis.holdwin_exact:build_holdwin_par",
                      "reelforge.analysis.holdwin_exact:write_holdwin_par"),
    cap.PAR_CLUSTERS: ("reelforge.analysis.par_clusters:build_cluster_par",
                       "reelforge.analysis.par_clusters:write_cluster_par"),
    cap.PAR_ANYWHERE: ("reelforge.analysis.anywhere_par:build_anywhere_par",
                       "reelforge.analysis.anywhere_par:write_anywhere_par"),
}


def _named(ref: str) -> Callable[..., Any]:
    module, name = ref.split(":")
    return getattr(importlib.import_module(module), name)


def analysis_of(game) -> str:
    """The one analysis capability the game declares (`check_game` makes sure there is one)."""
    found = sorted(game.capabilities & cap.ANALYSES.keys())
    if len(found) != 1:
        raise InvalidArgument(f"{game.id}: declares the analyses {found}: must be exactly one "
                              f"of {sorted(cap.ANALYSES)}")
    return found[0]


def exact_available(game) -> bool:
    """Whether the game's RTP is computed exactly (else it is a published estimate)."""
    return analysis_of(game) in EXACT


def no_exact_reason(game) -> str:
    """Why the game has no exact analysis ("" where it has one)."""
    return NO_EXACT.get(analysis_of(game), "")


def exact_analyzer(game) -> Callable[..., Any]:
    """The game's exact analysis, (game, bet, cap_bound) -> ExactResult; InvalidArgument naming
    the reason where it has none."""
    kind = analysis_of(game)
    if kind not in EXACT:
        raise InvalidArgument(f"{game.id}: {NO_EXACT[kind]}; estimate it: "
                              f"reelforge estimate {game.id}")
    return _named(EXACT[kind])


def par_sheet(game) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The builder and writer of the one PAR sheet the game declares."""
    found = sorted(game.capabilities & PAR_SHEETS.keys())
    if len(found) != 1:
        raise InvalidArgument(f"{game.id}: declares the PAR sheets {found}: must be exactly one "
                              f"of {sorted(PAR_SHEETS)}")
    build, write = PAR_SHEETS[found[0]]
    return _named(build), _named(write)
