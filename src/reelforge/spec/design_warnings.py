"""What `reelforge check` warns of in a game file that loads but cannot be what its designer
meant (an award no grid can show): one line each, naming the key. A family registers its
checks here by name, imported on first use."""

from __future__ import annotations

import importlib

# family -> "module:function", (spec) -> list of warning lines
WARNINGS: dict[str, str] = {
    "clusters": "reelforge.spec.cluster_features:feature_warnings",
}


def design_warnings(spec) -> list[str]:
    ref = WARNINGS.get(spec.family)
    if ref is None:
        return []
    module, name = ref.split(":")
    return list(getattr(importlib.import_module(module), name)(spec))
