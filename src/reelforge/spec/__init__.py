"""Data: TOML game definitions validated into frozen specs."""

from reelforge.spec.load import load_spec, parse_spec
from reelforge.spec.model import GameSpec

__all__ = ["GameSpec", "load_spec", "parse_spec"]
