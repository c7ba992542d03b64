"""The facts of a game file that its information pages (`help.md`) may name: `{lines}`,
`{free_games.spins}`, `{trail.multipliers}` ... (docs/game-format.md, "Information pages").

Each family says what its game files have to say about their grid and pays (`FAMILY_FACTS`,
one module per family, imported on first use like `engine.families`), and a rules package may
add its own in an optional `facts` part (`spec.rules`), so a new family or rules package brings
its facts with it and the server, which fills the pages, knows none of them. The server adds
the facts that are not the file's: the title, symbols, modes, RTP, maximum win and top prize.
"""

from __future__ import annotations

import importlib
from typing import Any

from reelforge.spec.facts.values import Fact, Money, Percent, Times, numeral, uniform, words
from reelforge.spec.rules import optional_rules_module

__all__ = ["FAMILY_FACTS", "Fact", "Money", "Percent", "Times", "game_file_facts", "numeral", "uniform",
           "words"]

# family -> "module:function(spec) -> dict[str, Fact]"
FAMILY_FACTS = {
    "lines": "reelforge.spec.facts.lines:line_facts",
    "clusters": "reelforge.spec.facts.clusters:cluster_facts",
    "ways": "reelforge.spec.facts.ways:ways_facts",
    "anywhere": "reelforge.spec.facts.anywhere:anywhere_facts",
    "holdwin": "reelforge.spec.facts.holdwin:holdwin_facts",
}


def game_file_facts(spec: Any) -> dict[str, Fact]:
    """The facts of the game file `spec`: its family's, then its rules package's (`facts(spec)`
    of the package's `facts` part, where it has one)."""
    ref = FAMILY_FACTS.get(spec.family)
    if ref is None:
        raise ValueError(f"{spec.name}: no help facts for game files of family {spec.family!r}"
                         f" (add them to FAMILY_FACTS in {__name__})")
    module, name = ref.split(":")
    out = getattr(importlib.import_module(module), name)(spec)
    rules = None if spec.rules is None else optional_rules_module(spec.rules, "facts")
    if rules is not None:
        out.update(rules.facts(spec))
    return out
