"""The capabilities a game may declare (`Game.capabilities`): the words analysis, PAR sheets,
tuning and evidence dispatch on (`analysis.capabilities` holds the dispatch), so that nothing
asks a game which family or rules it is, or probes its model for a field.

A family class declares its own (its one analysis, its one PAR sheet, how it is tuned, how its
grid is drawn); a rules module adds what it brings in its `CAPABILITIES`
(engine/rules_protocol.py). `check_game` refuses a name that is not listed here, or a game
without exactly one analysis and one PAR sheet (`engine.check.check_capabilities`).
"""

from __future__ import annotations

# How a game's RTP is known: exactly one per game.
EXACT_LINES = "exact_lines"
EXACT_WAYS = "exact_ways"
EXACT_HOLDWIN = "exact_holdwin"
STRATIFIED = "stratified_estimate"
ANALYSES = {
    EXACT_LINES: "exact line analysis: RTP and breakdown (analysis.exact), SD and maximum win "
                 "(analysis.moments)",
    EXACT_WAYS: "exact ways analysis (analysis.ways_exact)",
    EXACT_HOLDWIN: "exact hold-and-win analysis: the ways base game and the respins' Markov "
                   "chain (analysis.holdwin_exact)",
    STRATIFIED: "stratified Monte Carlo estimate published beside the game file "
                "(analysis.stratified, over the game's `strata`)",
}
# Its PAR sheet: exactly one per game.
PAR_LINES = "par_lines"
PAR_WAYS = "par_ways"
PAR_HOLDWIN = "par_holdwin"
PAR_CLUSTERS = "par_clusters"
PAR_ANYWHERE = "par_anywhere"
PAR_SHEETS = {
    PAR_LINES: "the line PAR sheet (analysis.par, par_rules, par_html)",
    PAR_WAYS: "the ways PAR sheet (analysis.ways_exact)",
    PAR_HOLDWIN: "the hold-and-win PAR sheet (analysis.holdwin_exact)",
    PAR_CLUSTERS: "the cluster PAR sheet (analysis.par_clusters)",
    PAR_ANYWHERE: "the pays-anywhere PAR sheet (analysis.anywhere_par)",
}
# How `reelforge tune` moves its RTP (none: tuned by editing the file).
TUNE_STOP_WEIGHTS = "tune_stop_weights"  # the reels' stop weights, on the exact RTP
TUNE_BASE_MULTIPLIER = "tune_base_multiplier"  # the base random multiplier, on a stratified sample
# How the family's grid is drawn: the bounded draws the RNG evidence inventories.
LINE_DRAWS = "line_draws"  # a stop per reel, uniform over the strip or by stop weight
GRID_DRAWS = "grid_draws"  # a refill per column (strips) or per cell (weights)
HOLDWIN_DRAWS = "holdwin_draws"  # a stop per reel, prize values, a draw per empty cell per respin
# What a rules module brings.
BONUS = "bonus"  # it plays its bonus alone (engine.round.play_bonus: a gamble's prize)
TRAIL = "trail"  # its model is a Cops-style trail: exact trail figures (analysis.trail)
CANDY_JARS = "candy_jars"  # candy jars with modifiers: the PAR sheet's rules section
WILD_PLACEMENT = "wild_placement"  # wilds placed by a partial shuffle of the grid's cells

CAPABILITIES: dict[str, str] = {
    **ANALYSES,
    **PAR_SHEETS,
    TUNE_STOP_WEIGHTS: "reelforge tune moves the reels' stop weights (analysis.tune)",
    TUNE_BASE_MULTIPLIER: "reelforge tune moves the base random multiplier's weights "
                          "(analysis.tune_clusters)",
    LINE_DRAWS: "stops drawn per reel (evidence.ranges)",
    GRID_DRAWS: "cells refilled per column or per cell (evidence.ranges)",
    HOLDWIN_DRAWS: "stops per reel, prize values by weight and a prize chance per empty cell "
                   "per respin (evidence.ranges)",
    BONUS: "the rules play their bonus alone, the prize of a gamble (engine.round.play_bonus)",
    TRAIL: "a trail bonus: its exact figures (analysis.trail) and its PAR section",
    CANDY_JARS: "candy jars and their modifiers: the PAR sheet's rules section",
    WILD_PLACEMENT: "wilds placed by a partial shuffle of the cells (evidence.ranges)",
}

