"""Where a round goes once its outcome or a choice is known, decided in Python alone from the
round's own rules (`served`, pinned in its row) and the balance: held for a choice, or
credited and closed or offering a choice on the balance. Nothing here touches the database."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reelforge.engine.outcome import Outcome
from reelforge.server.services.catalog import ServedGame


@dataclass(frozen=True)
class Transition:
    """Where a round goes next and what its audit row says: decided in Python alone, then
    written by the bet writer (`bet_writer.apply`, `apply_steps`)."""

    status: str
    audit_kind: str
    audit_body: dict
    closed: bool = False
    win_minor: int | None = None
    said: tuple[str, ...] = ()


def hold_for_choice(served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
                    phase: dict) -> Transition | None:
    """The win held for a choice the round offers (a gamble), or None: credit it now."""
    offers = served.game.offers(outcome, None)  # without a balance: only what the win offers
    if not offers:
        return None
    phase.update(offers=[o.to_dict() for o in offers], balance=None, gamble_settled=False,
                 from_step=0, pending_credits=outcome.total_win)
    return Transition("outcome_committed", "round.outcome",
                      audit_body(round_id, price_minor, None, offers=[o.kind for o in offers]))


def wagers_balance(served: ServedGame) -> bool:
    """Whether a round's end may offer a choice on the player's balance (Spin Chance: its
    remaining credit wagered at odds). That is a gamble of the player's own funds: a profile
    that allows no gamble (DE, standards.md D6 and I9) offers none, so the game is asked
    without a balance."""
    return served.profile.gamble


def capped_payment(served: ServedGame, credits: int, phase: dict) -> int:
    """`credits` of win in minor units, cut to the operator's cap (the phase says from what)."""
    win_minor = credits * served.denomination
    cap = served.settings.win_cap_minor
    paid = win_minor if cap is None else min(win_minor, cap)
    if paid != win_minor:
        phase["capped_from_minor"] = win_minor
    return paid


def after_credit(served: ServedGame, outcome: Outcome, round_id: str, price_minor: int,
                 paid: int, after: int, phase: dict, from_step: int) -> Transition:
    """Once `paid` is credited and the balance is `after`: Spin Chance where that balance calls
    for it, else the round closes."""
    phase["balance_after_minor"] = after  # the funds at the round's end, for its history
    balance_credits = after // served.denomination
    offers = served.game.offers(outcome, balance_credits if wagers_balance(served) else None,
                                gamble_settled=True)
    if offers:
        phase.update(offers=[o.to_dict() for o in offers], balance=balance_credits,
                     gamble_settled=True, from_step=from_step, pending_credits=0)
        return Transition("credited", "round.credited",
                          audit_body(round_id, price_minor, paid,
                                      offers=[o.kind for o in offers]),
                          win_minor=paid, said=("credited",))
    phase.update(offers=[], pending_credits=0)
    return Transition("closed", "round.closed", audit_body(round_id, price_minor, paid),
                      closed=True, win_minor=paid, said=("credited", "closed"))


def audit_body(round_id: str, stake: int, win: int | None, **more: Any) -> dict:
    return {"round_id": round_id, "stake_minor": stake, "win_minor": win, **more}
