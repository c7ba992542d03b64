"""A jurisdiction's minimum RTP (standards.md E2: Malta, at least 92%, LN 131/2016 reg. 46A):
under the MT profile a mode whose RTP is below the minimum is not offered (left out of the
game's description, its bets refused), and a game whose base mode is below it is not offered
at all. The figures are the games' own (`Game.rtp()`); which modes fall below is worked out
here from them with plain fractions, not taken from the server.

In process: the catalog's functions, no server started.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import reelforge.analysis  # noqa: F401 - registers the exact RTP figures, as the server does
from reelforge.server.errors import ApiError
from reelforge.server.services import catalog
from reelforge.server.settings import JURISDICTIONS, Jurisdiction, load_settings

MALTA = Fraction(92, 100)
COPS = "cops-n-robbers-v1"  # Fortune Spins: 91.99994%, the one shipped mode below 92%
COPS_94 = "cops-n-robbers-94-v1"


def _operator(tmp_path: Path, jurisdiction: str, games: dict[str, str]):
    key = tmp_path / "launch.key"
    key.write_text("k" * 64)
    body = "".join(f'[[operators.games]]\nkey = "{k}"\ngame_id = "{g}"\n' for k, g in games.items())
    path = tmp_path / "operators.toml"
    path.write_text(f'[[operators]]\nid = "mga"\ncurrency = "EUR"\njurisdiction = "{jurisdiction}"'
                    f'\nsecret_file = "{key}"\ndemo_balance_minor = 100000\n{body}')
    return load_settings(path, tmp_path).operators[0]


def _below(game_id: str, minimum: Fraction) -> set[str]:
    """The modes whose exact RTP is under `minimum`, from the game's figures alone."""
    game = catalog.configured_game(game_id, "on")
    return {f.mode for f in game.rtp() if f.source == "exact" and Fraction(f.value) < minimum}


def test_malta_is_a_profile_with_the_92_percent_minimum():
    assert JURISDICTIONS["MT"].min_rtp == MALTA
    assert all(JURISDICTIONS[j].min_rtp is None for j in ("default", "GB", "DE"))


def test_under_malta_a_mode_below_92_percent_is_not_offered(tmp_path):
    assert _below(COPS, MALTA) == {"fortune"} and _below(COPS_94, MALTA) == set()
    op = _operator(tmp_path, "MT", {"cops": COPS, "cops-94": COPS_94})
    served = catalog.served_game(op, "cops")
    assert dict(served.barred_modes).keys() == {"fortune"}
    described = served.describe(None)
    assert [m["name"] for m in described["modes"]] == ["base"]
    assert all(set(b["cost_minor"]) == {"base"} for b in described["bets"])
    assert {r["mode"] for r in described["rtp"]} == {"base"}
    option = next(iter(served.game.bets())).bet
    with pytest.raises(ApiError) as refused:
        served.check_bet(option.lines, option.bet_per_line, "fortune", None)
    assert refused.value.code == "STAKE_NOT_OFFERED"
    assert "91.99994%" in str(refused.value) and "92.00%" in str(refused.value)
    assert served.check_bet(option.lines, option.bet_per_line, "base", None).mode == "base"
    # the 94% variant keeps Fortune Spins under the same profile
    other = catalog.served_game(op, "cops-94")
    assert other.barred_modes == ()
    assert {m["name"] for m in other.describe(None)["modes"]} == {"base", "fortune"}
    assert other.check_bet(option.lines, option.bet_per_line, "fortune", None).mode == "fortune"


def test_without_a_minimum_the_same_mode_is_offered(tmp_path):
    op = _operator(tmp_path, "default", {"cops": COPS})
    served = catalog.served_game(op, "cops")
    assert served.barred_modes == ()
    option = next(iter(served.game.bets())).bet
    assert served.check_bet(option.lines, option.bet_per_line, "fortune", None).mode == "fortune"


def test_a_game_whose_base_mode_is_below_the_minimum_is_not_offered(tmp_path, monkeypatch):
    strict = Jurisdiction("MT", autoplay=True, turbo=True, min_round_interval_ms=0,
                          max_stake_minor=None, jackpots=True, gamble=True,
                          one_game_at_a_time=False, min_rtp=Fraction(97, 100))
    monkeypatch.setitem(JURISDICTIONS, "MT", strict)
    assert "base" in _below(COPS_94, strict.min_rtp)  # 94% < 97%
    op = _operator(tmp_path, "MT", {"cops-94": COPS_94})
    with pytest.raises(ApiError) as refused:
        catalog.served_game(op, "cops-94")
    assert refused.value.code == "GAME_NOT_ALLOWED" and "97.00%" in str(refused.value)
    assert catalog.games_of(op) == []  # left out of the lobby


def test_under_malta_the_information_pages_do_not_present_fortune_spins(tmp_path):
    """A mode the jurisdiction does not offer is not presented on the pages the player reads
    (`info.help`): no Fortune Spins RTP, price or rule; its section says it is not offered
    here and why. The 94% variant, which keeps the mode, still presents it."""
    op = _operator(tmp_path, "MT", {"cops": COPS, "cops-94": COPS_94})

    def page(key: str) -> dict[str, str]:
        help_ = catalog.served_game(op, key).describe(None)["info"]["help"]
        return {s["id"]: json.dumps(s) for s in help_["sections"]}

    barred, kept = page("cops"), page("cops-94")
    fortune_rtp = next(f for f in catalog.configured_game(COPS, "on").rtp() if f.mode == "fortune")
    shown = float(fortune_rtp.value)
    assert all(str(shown) not in text for text in barred.values())
    fortune = json.loads(barred["fortune-spins"])
    assert [b["kind"] for b in fortune["blocks"]] == ["p"]
    said = "".join(fortune["blocks"][0]["parts"])
    assert said.startswith("Fortune Spins is not offered here") and "92.00%" in said
    assert "With Fortune Spins on, a round costs" not in "".join(barred.values())
    assert "In Fortune Spins the RTP is" not in barred["general-information"]
    # the normal game's RTP is still stated, and the variant that keeps the mode presents it
    assert "in the normal game" in barred["general-information"]
    assert "In Fortune Spins the RTP is" in kept["general-information"]
    assert "With Fortune Spins on, a round costs" in kept["fortune-spins"]
