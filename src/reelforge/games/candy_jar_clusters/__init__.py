"""Candy Jar Clusters: the jars, Free Spins modifiers, super spins and fixed jackpots.

Cluster pays, tumbles, wild multipliers and random multipliers are the generic cluster engine's
(`reelforge.engine.clusters`); this package adds only what is this game's, registered as the
rules "candy_jar" (`reelforge.spec.rules`): `spec` parses its [features] table (no numba, no
engine), `rules` compiles it, `kernel` plays the round and `game` is what the cluster engine
calls. RULES.md maps the seed to them.
"""
