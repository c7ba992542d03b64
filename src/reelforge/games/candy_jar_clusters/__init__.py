"""Candy Jar Clusters: the jars, Free Spins modifiers, super spins and fixed jackpots.

Cluster pays, tumbles, wild multipliers and random multipliers are the generic cluster engine's
(`reelforge.engine.clusters`); this package adds only what is this game's: `rules` parses its
[features] table and compiles it, `kernel` plays the round. RULES.md maps the seed to both.
"""
