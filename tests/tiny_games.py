"""Tiny game files shared by tests: each one exists to provoke one refusal."""

# Three reels, one line; the free reels show nothing but the trigger, so every free spin
# retriggers. Tests append the [features.free_games] retrigger rule they need: capped at
# 100,000 (a chain too large to solve), at 10**9 (above the engine's spin guard), ...
ALWAYS_RETRIGGER = """
[game]
id = "hang-v1"
name = "Hang"
reels = 3
rows = 1
[symbols]
A = { role = "regular" }
S = { role = "scatter" }
[paytable]
A = { 3 = 5 }
[lines]
paylines = [[0, 0, 0]]
[scatter.S]
pays = { 3 = 1 }
[reels.base]
strips = ["A S A", "A S A", "A S A"]
[reels.free]
strips = ["S", "S", "S"]
[bet]
max_bet_per_line = 1
[features.free_games]
trigger = "S"
award = { 3 = 10 }
reel_set = "free"
"""
