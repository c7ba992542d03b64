"""The back office's routes for jackpot claims and supervised corrections, added to routes.py's
router (the same door: a staff session cookie; changes need a manager)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, StringConstraints

from reelforge.server.backoffice import corrections, jackpot_control, staff
from reelforge.server.backoffice.cookie import StaffCookie
from reelforge.server.context import Context

Door = Callable[..., staff.Staff]
ClaimId = Annotated[int, Path(ge=1, le=2**62)]
Idx = Annotated[int, Path(ge=0, le=1000)]
CorrectionId = Annotated[int, Path(ge=1, le=2**62)]


class Proposal(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    operator: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    player: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    amount_minor: int
    reason: Annotated[str, StringConstraints(min_length=1, max_length=2000)]


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    note: Annotated[str, StringConstraints(max_length=2000)] | None = None


def add(api: APIRouter, ctx: Context, door: Door) -> None:
    """Register the routes on `api`; `door(token, action)` is routes.py's check of the cookie."""

    @api.get("/jackpots/claims")
    def claims(rf_staff: StaffCookie = None) -> dict:
        """Every jackpot claim, its verification and its instalments."""
        door(rf_staff)
        return {"claims": jackpot_control.claims(ctx)}

    @api.post("/jackpots/claims/{claim_id}/verify")
    def verify(claim_id: ClaimId, rf_staff: StaffCookie = None) -> dict:
        """A manager verifies a pending claim: its instalments fall due from now."""
        return jackpot_control.verify_claim(ctx, door(rf_staff, staff.CONTROL), claim_id)

    @api.post("/jackpots/claims/{claim_id}/instalments/{idx}/pay")
    def pay(claim_id: ClaimId, idx: Idx,
            rf_staff: StaffCookie = None) -> dict:
        """A manager pays a verified claim's next instalment, once due."""
        return jackpot_control.pay_instalment(ctx, door(rf_staff, staff.CONTROL), claim_id, idx)

    @api.get("/corrections")
    def listed(rf_staff: StaffCookie = None) -> dict:
        """Every supervised correction: proposed, applied or rejected."""
        door(rf_staff)
        return {"corrections": corrections.listed(ctx)}

    @api.post("/corrections")
    def propose(body: Proposal, rf_staff: StaffCookie = None) -> dict:
        """A manager proposes a change of a player's balance; another must approve it."""
        return corrections.propose(ctx, door(rf_staff, staff.CONTROL), body.operator,
                                   body.player, body.amount_minor, body.reason)

    @api.post("/corrections/{correction_id}/approve")
    def approve(correction_id: CorrectionId, body: Decision,
                rf_staff: StaffCookie = None) -> dict:
        """A manager other than the proposer approves: the ledger moves now."""
        return corrections.approve(ctx, door(rf_staff, staff.CONTROL), correction_id, body.note)

    @api.post("/corrections/{correction_id}/reject")
    def reject(correction_id: CorrectionId, body: Decision,
               rf_staff: StaffCookie = None) -> dict:
        """A manager other than the proposer rejects: nothing moves."""
        return corrections.reject(ctx, door(rf_staff, staff.CONTROL), correction_id, body.note)
