"""The capabilities a game may declare (`Game.capabilities`): the words analysis, PAR sheets,
tuning and evidence dispatch on (`analysis.capabilities` holds the dispatch), so that nothing
asks a game which family or rules it is, or probes its model for a field.

A family class declares its own (its one analysis, how its grid is drawn); a rules module adds
what it brings in its `CAPABILITIES` (engine/rules_protocol.py). `check_game` refuses a name
that is not listed here, or a game with no analysis or with two (`check_capabilities`).
"""

from __future__ import annotations

# How a game's RTP is known: exactly one per game.
EXACT_LINES = "exact_lines"
EXACT_WAYS = "exact_ways"
STRATIFIED = "stratified_estimate"
ANALYSES = {
    EXACT_LINES: "exact line analysis: RTP and breakdown (analysis.exact), SD and maximum win "
                 "(analysis.moments), the line PAR sheet, the stop-weight tuner",
    EXACT_WAYS: "exact ways analysis and its PAR sheet (analysis.ways_exact)",
    STRATIFIED: "stratified Monte Carlo estimate published beside the game file "
                "(analysis.stratified), the cluster PAR sheet and tuner",
}
# How the family's grid is drawn: the bounded draws the RNG evidence inventories.
LINE_DRAWS = "line_draws"  # a stop per reel, uniform over the strip or by stop weight
GRID_DRAWS = "grid_draws"  # a refill per column (strips) or per cell (weights)
# What a rules module brings.
BONUS = "bonus"  # it plays its bonus alone (engine.round.play_bonus: a gamble's prize)
TRAIL = "trail"  # its model is a Cops-style trail: exact trail figures (analysis.trail)
CANDY_JARS = "candy_jars"  # candy jars with modifiers: the PAR sheet's rules section
WILD_PLACEMENT = "wild_placement"  # wilds placed by a partial shuffle of the grid's cells

CAPABILITIES: dict[str, str] = {
    **ANALYSES,
    LINE_DRAWS: "stops drawn per reel (evidence.ranges)",
    GRID_DRAWS: "cells refilled per column or per cell (evidence.ranges)",
    BONUS: "the rules play their bonus alone, the prize of a gamble (engine.round.play_bonus)",
    TRAIL: "a trail bonus: its exact figures (analysis.trail) and its PAR section",
    CANDY_JARS: "candy jars and their modifiers: the PAR sheet's rules section",
    WILD_PLACEMENT: "wilds placed by a partial shuffle of the cells (evidence.ranges)",
}

