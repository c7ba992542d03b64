// Cluedo's gamble offer, as the sheet has it: "Click the GAMBLE button after a win to Gamble an
// award". When a round stops at the gamble and no step has been taken yet, the choice area
// shows only the win at stake with GAMBLE and COLLECT; the red/black cards open on GAMBLE (on
// this screen, no server call), COLLECT sends the server's "collect". Playing on (PLAY, Space)
// or the operator's timeout collects too: the shell does that. What may be pressed is the
// server's `choice.choices`; the amount is its offer's.
import { formatCredits } from "../../core/money";
import type { GameView, RoundView, StepChoice } from "../../net/types";
import { h } from "../../ui/dom";

export interface GambleOffer {
  /** Credits at stake: the server's gamble offer (else its pending win). */
  amount: number;
  /** A guess (red or black) is allowed: GAMBLE opens the cards. */
  canGamble: boolean;
  /** The server allows "collect". */
  canCollect: boolean;
}

/** The offer to show for `round`, or null where the card screen shows instead: a gamble step
 * has been taken (the server's state is set), the round stops at another choice, or the player
 * already pressed GAMBLE on this screen for this round (`opened`). */
export function gambleOffer(round: Pick<RoundView, "round_id" | "offers" | "choice" | "pending_win_credits">, opened: ReadonlySet<string> = new Set()): GambleOffer | null {
  const choice = round.choice;
  if (!choice || choice.state !== null || opened.has(round.round_id)) return null;
  const active = choice.active ?? Object.keys(choice.choices)[0];
  if (active !== "gamble") return null;
  const allowed = new Set((choice.choices.gamble ?? []).map(String));
  const offer = round.offers.find((o) => o.kind === "gamble");
  return {
    amount: offer?.amount ?? round.pending_win_credits,
    canGamble: allowed.has("red") || allowed.has("black"),
    canCollect: allowed.has("collect"),
  };
}

/** Draw the offer into `host`: GAMBLE calls `open` (the caller draws the cards in its place),
 * COLLECT sends ("gamble", "collect"). The focus is left where it is: Space plays on. */
export function drawOffer(host: HTMLElement, offer: GambleOffer, _game: Pick<GameView, "denomination" | "currency">, open: () => void, send: (kind: string, choice: StepChoice) => void): void {
  const collect = h("button", {
    class: "gamble-collect", "data-testid": "gamble-collect", "data-kind": "gamble", "data-choice": JSON.stringify("collect"),
    disabled: !offer.canCollect,
    onclick: () => {
      host.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
      send("gamble", "collect");
    },
  }, "COLLECT");
  const gamble = h("button", { class: "gamble-open", "data-testid": "gamble-offer", disabled: !offer.canGamble, onclick: open }, "GAMBLE");
  host.append(h("div", { class: "gamble-offer", "data-testid": "gamble-offer-panel" },
    h("span", { class: "gamble-offer-win", "data-testid": "gamble-offer-amount", "data-amount": String(offer.amount) },
      "WIN ", h("strong", {}, formatCredits(offer.amount)), " credits"),
    h("span", { class: "gamble-offer-hint" }, "double it on red or black?"),
    h("span", { class: "gamble-offer-buttons" }, gamble, collect)));
}
