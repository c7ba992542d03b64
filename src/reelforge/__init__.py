"""reelforge: slot games from math to play."""

__version__ = "0.1.0"
