"""Data: TOML game definitions validated into frozen specs."""

from reelforge.spec.load import game_digest, load_spec, parse_spec, read_game_text
from reelforge.spec.model import GAME_ID_PATTERN, GAME_ID_RULE, GameSpec, valid_game_id, valid_name

__all__ = ["GAME_ID_PATTERN", "GAME_ID_RULE", "GameSpec", "game_digest", "load_spec", "parse_spec",
           "read_game_text", "valid_game_id", "valid_name"]
