"""The family registry: the one place that maps a spec's family to the class that plays it.

Everything else holds a game through the `engine.protocol.Game` protocol and asks it, never
its family. A new family is:
1. a class satisfying `Game` and `Analysable` (engine/protocol.py), one entry here;
2. its `capabilities` (vocabulary in `engine.capabilities`; add a name where none fits): one
   analysis (`ANALYSES`: STRATIFIED with a `strata` property, or an exact one of its own), one
   PAR sheet (`PAR_SHEETS`), how `reelforge tune` moves it (`TUNE_*`, or none), how its grid
   is drawn (`LINE_DRAWS`, `GRID_DRAWS`, or a new name with its drawer in
   `evidence.ranges.GRID_DRAWERS`);
3. in `analysis.capabilities`, the entries of any new name: `EXACT` (or `NO_EXACT` with the
   reason) for an analysis, `PAR_SHEETS` for a sheet;
4. its spec builder in `spec/load.py` (picked by `[game] family`);
5. the facts its information pages may name, in `spec/facts/` (`FAMILY_FACTS`).
`check_game` refuses a game whose capabilities are unknown, or that has other than one
analysis and one PAR sheet.
"""

from __future__ import annotations

import importlib

# family -> "module:class"; imported on first use, so a line game never loads the cluster engine
FAMILIES = {
    "lines": "reelforge.engine.game:LineGame",
    "clusters": "reelforge.engine.cluster_game:ClusterGame",
    "ways": "reelforge.engine.ways_game:WaysGame",
    "anywhere": "reelforge.engine.anywhere_game:AnywhereGame",
    "holdwin": "reelforge.engine.holdwin_game:HoldWinGame",
}


def family_class(family: str) -> type:
    """The class that plays games of `family` (the spec loader has checked the name)."""
    module, name = FAMILIES[family].split(":")
    return getattr(importlib.import_module(module), name)


def compile_game(spec):
    """The playable game of a spec: its family's class, compiled from it."""
    return family_class(spec.family).from_spec(spec)
