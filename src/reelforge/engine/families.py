"""The family registry: the one place that maps a spec's family to the class that plays it.

Everything else holds a game through the `engine.protocol.Game` protocol and asks it, never
its family. A new family is a class satisfying that protocol and one entry here.
"""

from __future__ import annotations

import importlib

# family -> "module:class"; imported on first use, so a line game never loads the cluster engine
FAMILIES = {
    "lines": "reelforge.engine.game:LineGame",
    "clusters": "reelforge.engine.cluster_game:ClusterGame",
    "ways": "reelforge.engine.ways_game:WaysGame",
    "anywhere": "reelforge.engine.anywhere_game:AnywhereGame",
}


def family_class(family: str) -> type:
    """The class that plays games of `family` (the spec loader has checked the name)."""
    module, name = FAMILIES[family].split(":")
    return getattr(importlib.import_module(module), name)


def compile_game(spec):
    """The playable game of a spec: its family's class, compiled from it."""
    return family_class(spec.family).from_spec(spec)
