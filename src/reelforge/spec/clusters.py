"""TOML -> ClusterGameSpec: the cluster-pays family (`family = "clusters"` in [game]).

A standard cluster game is data only: grid, symbols, pays by cluster size, wilds, refill reel
sets (integer weights per column, or strips), bet structure, a random multiplier per reel set
and a win cap; optionally a scatter's free spins and grid multipliers in `[features]`
(spec/cluster_features.py, still no code of its own). A game whose round has more (jars, modifiers, jackpots) names its rules in
`[game] rules` (registered in `spec.rules`): their spec part parses its own `[features]` table
(errors in the same `file: key = value: problem` form) and bounds a round's win; their game
part, which the engine loads, plays the round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reelforge.errors import SpecError
from reelforge.spec.cluster_features import feature_round_bound, parse_cluster_features
from reelforge.spec.limits import check_cluster_game
from reelforge.spec.model import BetSpec, ModeSpec, SymbolSpec
from reelforge.spec.parts import (
    column_weights,
    count_key,
    read_coin_bet,
    read_header,
    read_name,
    read_symbols,
    refuse_falling,
    refuse_silent_scatter,
    roles_of,
    symbol_pays,
    wild_substitutes,
)
from reelforge.spec.rules import RULES_PACKAGES, rules_module

CLUSTER_SECTIONS = ("game", "symbols", "clusters", "bet", "reels", "random_multiplier",
                    "features")
CLUSTER_ROLES = ("regular", "wild", "bonus", "scatter")


@dataclass(frozen=True)
class ClusterReelSet:
    name: str
    weights: tuple[tuple[str, tuple[int, ...]], ...] | None  # symbol -> weight per column
    strips: tuple[tuple[str, ...], ...] | None  # one strip per column, top to bottom


@dataclass(frozen=True)
class ClusterGameSpec:
    id: str
    name: str
    source: str
    description: str
    rows: int
    cols: int
    symbols: tuple[SymbolSpec, ...]
    wild_multipliers: tuple[tuple[str, int], ...]  # wild symbol -> multiplier it carries
    substitutes: tuple[tuple[str, frozenset[str]], ...]  # wild symbol -> symbols it replaces
    min_size: int
    pays: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # symbol -> (from size, pay)
    bet: BetSpec  # lines = the coins a stake is made of (fixed), bet per line = coin value
    max_win_x: int  # cap on one round's win in multiples of the total bet, 0 = none
    reel_sets: tuple[ClusterReelSet, ...]
    random_multipliers: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]  # set, values, weights
    rules: str | None
    features: Any  # the rules module's frozen spec, a standard game's ClusterFeatures, or None
    family: str = "clusters"
    modes: tuple = ()
    jackpot: None = None
    gamble: None = None
    sha256: str = field(default="", compare=False)  # of the file's bytes, as GameSpec.sha256

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    def mode(self, name: str) -> ModeSpec:
        """Cluster games have one way to play: "base", price 1."""
        if name == "base":
            return ModeSpec("base", self.reel_sets[0].name, Fraction(1), False)
        raise KeyError(name)

    def reel_set_index(self, name: str) -> int:
        return [rs.name for rs in self.reel_sets].index(name)


def build_cluster_spec(root, source: str) -> ClusterGameSpec:
    """Build from the root `Table` of a file whose [game] says family = "clusters"."""
    game = root.sub("game")
    game_id, name, description, rows, cols = read_header(game, "candy-jar-clusters-v1",
                                                         ("clusters",), ("rows", "cols"))
    rules = game.get("rules", str, None)
    if rules is not None and rules not in RULES_PACKAGES:
        raise game.fail("rules", rules, f"unknown rules module; expected one of {', '.join(RULES_PACKAGES)}")
    module = None if rules is None else rules_module(rules, part="spec")  # plain Python, no engine
    if module is not None and module.FAMILY != ClusterGameSpec.family:  # every rules spec part declares it
        raise game.fail("rules", rules, "not rules of a cluster game")
    game.finish()

    symbols_table = root.sub("symbols")
    multipliers = {}
    for sid in list(symbols_table.data):
        entry = symbols_table.data[sid]
        if isinstance(entry, dict) and "multiplier" in entry:
            multipliers[sid] = entry.pop("multiplier")
    symbols = read_symbols(symbols_table, CLUSTER_ROLES, "cluster")
    ids = {s.id for s in symbols}
    roles = roles_of(symbols)
    wild_mult = []
    for sid, value in multipliers.items():
        if roles[sid] != "wild" or isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise symbols_table.fail(f"{sid}.multiplier", value, "only a wild carries a multiplier, an integer >= 1")
        wild_mult.append((sid, value))

    clusters = root.sub("clusters")
    min_size = clusters.int("min_size", low=1)
    if min_size > rows * cols:
        raise clusters.fail("min_size", min_size, f"larger than the grid: {rows} x {cols} has only "
                            f"{rows * cols} cells")
    pays = symbol_pays(clusters.sub("pays"), roles, "cluster", "cannot pay in clusters",
                       lambda entry: _size_steps(entry, min_size, rows * cols))
    paying = frozenset(sid for sid, _ in pays)
    substitutes = [(sid, subs) for sid, subs, _ in
                   wild_substitutes(clusters, symbols, paying, ids, "unknown symbol")]
    clusters.finish()

    bet, max_win_x = read_coin_bet(root.sub("bet"), "coins")
    reel_sets = _cluster_reel_sets(root.sub("reels"), ids, cols)
    set_names = [rs.name for rs in reel_sets]
    random_multipliers = _random_multipliers(root.sub("random_multiplier", {}), set_names)
    spec = ClusterGameSpec(game_id, name, source, description, rows, cols, symbols,
                           tuple(wild_mult), tuple(substitutes), min_size, pays, bet, max_win_x,
                           reel_sets, random_multipliers, rules, None)
    features = root.sub("features", None)
    if module is None:
        if features is None:
            refuse_silent_scatter(root, "features.free_spins", roles)
            check_cluster_game(spec)
            return spec
        # the features a standard cluster game states as data (spec/cluster_features.py)
        spec = ClusterGameSpec(**{**spec.__dict__, "features": parse_cluster_features(features, spec)})
        check_cluster_game(spec, feature_round_bound(spec))
        return spec
    if any(s.role == "scatter" for s in symbols):
        raise symbols_table.fail(next(s.id for s in symbols if s.role == "scatter") + ".role", "scatter",
                                 f"rules {rules!r} play their own features; a scatter is a standard "
                                 "cluster game's ([features.free_spins])")
    if features is None:
        raise root.fail("features", None, f"rules {rules!r} needs a [features] table")
    parsed = module.parse_features(features, spec)
    features.finish()
    spec = ClusterGameSpec(**{**spec.__dict__, "features": parsed})
    check_cluster_game(spec, module.round_win_bound(spec))
    return spec


def _size_steps(entry, min_size, cells) -> list[tuple[int, int]]:
    """{6 = 5, 8 = 10, ...}: a cluster of n pays the pay of the largest listed size <= n
    (coins; the stake is [bet] coins coins), nothing below the smallest."""
    pairs = []
    for key in list(entry.data):
        size = count_key(key)
        if size is None or not min_size <= size <= cells:
            raise entry.fail(key, entry.data[key], f"cluster size must be {min_size}..{cells}")
        pairs.append((size, entry.int(key, low=0)))
    pairs.sort()
    refuse_falling(entry, [(str(size), pay) for size, pay in pairs], "clusters")
    return pairs


def _cluster_reel_sets(table, ids, cols) -> tuple[ClusterReelSet, ...]:
    out = []
    for name in list(table.data):
        entry = table.sub(read_name(table, name, "reel set"))
        if ("weights" in entry.data) == ("strips" in entry.data):
            raise SpecError(entry.source, entry.path, list(entry.data),
                            "give exactly one of weights and strips")
        if "weights" in entry.data:
            weights = column_weights(entry.sub("weights"), ids, cols, one_for_all=False)
            out.append(ClusterReelSet(name, weights, None))
        else:
            raw = entry.get("strips", list)
            if len(raw) != cols:
                raise entry.fail("strips", len(raw), f"expected one strip per column ({cols})")
            strips = []
            for i, s in enumerate(raw, 1):
                if not isinstance(s, list) or not s or any(x not in ids for x in s):
                    raise entry.fail(f"strips[{i}]", s, "need a non-empty list of known symbol ids")
                strips.append(tuple(s))
            out.append(ClusterReelSet(name, None, tuple(strips)))
        entry.finish()
    if not out:
        raise SpecError(table.source, table.path, {},
                        "a cluster game needs at least one reel set (the first is the base game's)")
    return tuple(out)


def _random_multipliers(table, set_names):
    out = []
    for name in list(table.data):
        if name not in set_names:  # blame the reel set the table names: a missing [reels.X]
            raise SpecError(table.source, f"reels.{name}", None,
                            f"is not a reel set of this file (missing), but [{table.key(name)}] "
                            f"names it (reel sets: {', '.join(set_names)})")
        entry = table.sub(name)
        values = entry.get("values", list)
        weights = entry.get("weights", list)
        ok = len(values) == len(weights) >= 1 and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values) and all(
            isinstance(w, int) and not isinstance(w, bool) and w >= 0 for w in weights)
        if not ok or not 0 < sum(weights) < 2**32:
            raise entry.fail("weights", weights, "need as many integer weights >= 0 as values "
                             "(integers >= 1; 1 = no multiplier), summing to 1..2**32-1")
        entry.finish()
        out.append((name, tuple(values), tuple(weights)))
    return tuple(out)
