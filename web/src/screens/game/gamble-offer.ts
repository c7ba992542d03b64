// The gamble offer after a win, shared by the games whose gamble is entered with a press: the
// rule sheets offer the gamble after any win and present it (Cluedo's red/black cards, Cops n
// Robbers' two wheels) only "when the gamble is entered". While the round stops at the gamble
// and no step has been taken, the choice area shows only the win at stake with GAMBLE and
// COLLECT; GAMBLE draws the game's own gamble screen in its place (on this screen, no server
// call), COLLECT sends the server's collect. Playing on (PLAY, Space), autoplay and the
// operator's timeout collect too: the shell does that. What may be pressed is the server's
// `choice.choices`; the amount is its offer's.
import { creditsAndMoney } from "../../core/money";
import type { RoundView, StepChoice } from "../../net/types";
import { h } from "../../ui/dom";
import type { ChoiceScreen } from "./registry";

export interface GambleOffer {
  /** Credits at stake: the server's gamble offer (else its pending win). */
  amount: number;
  /** A gamble is allowed: GAMBLE opens the game's gamble screen. */
  canGamble: boolean;
  /** The server allows the collect. */
  canCollect: boolean;
}

/** Whether a step is the collect of a held win: `"collect"` (Cluedo) or `["collect"]` (Cops). */
export function isCollect(option: unknown): boolean {
  return option === "collect" || (Array.isArray(option) && option.length === 1 && option[0] === "collect");
}

/** Rounds whose gamble screen the player opened with GAMBLE in this tab: a failed step offers
 * the choice again, and it reopens on the gamble, not on the offer. Display only: a reload
 * forgets it, and with no step taken the server's round is the plain win, offered again. */
const opened = new Set<string>();

/** The offer to show for `round` at the gamble `kind`, or null where the game's gamble screen
 * shows instead: a step has been taken (the server's state is set), the round stops at another
 * choice, or the player already pressed GAMBLE for this round (`wasOpened`). `gambles` says
 * which of the server's options are a gamble (Cluedo's red or black, Cops' wheel spins). */
export function offerOf(
  round: Pick<RoundView, "round_id" | "offers" | "choice" | "pending_win_credits">,
  kind: string,
  gambles: (option: unknown) => boolean,
  wasOpened: ReadonlySet<string> = opened,
): GambleOffer | null {
  const choice = round.choice;
  if (!choice || choice.state !== null || wasOpened.has(round.round_id)) return null;
  const active = choice.active ?? Object.keys(choice.choices)[0];
  if (active !== kind) return null;
  const options = choice.choices[kind] ?? [];
  const offer = round.offers.find((o) => o.kind === kind);
  return { amount: offer?.amount ?? round.pending_win_credits, canGamble: options.some(gambles), canCollect: options.some(isCollect) };
}

export interface OfferWords {
  /** What the gamble is, beside the amount on a desktop ("double it on red or black?"). */
  hint: string;
  /** The amount's money beside its credits (Cops: the stake is chosen in money). */
  money?: (credits: number) => string;
  /** The collect button's word, as the game's rule sheet names it (Cluedo's "TAKE WIN");
   * COLLECT (Cops' sheet) where the game names none. */
  collect?: string;
}

/** Draw the offer into `host`: GAMBLE calls `open`, COLLECT (the game's word for it) sends the server's collect of
 * `kind`. The focus is left where it is: Space plays on (COLLECT & PLAY). */
export function drawOffer(host: HTMLElement, offer: GambleOffer, kind: string, collectChoice: StepChoice | null, words: OfferWords, open: () => void, send: (kind: string, choice: StepChoice) => void): void {
  const collect = h("button", {
    class: "gamble-collect", "data-testid": "gamble-collect", "data-kind": kind, "data-choice": JSON.stringify(collectChoice),
    disabled: !offer.canCollect || collectChoice === null,
    onclick: () => {
      if (collectChoice === null) return;
      host.querySelectorAll("button").forEach((b) => ((b as HTMLButtonElement).disabled = true));
      send(kind, collectChoice);
    },
  }, words.collect ?? "COLLECT");
  const gamble = h("button", { class: "gamble-open", "data-testid": "gamble-offer", disabled: !offer.canGamble, onclick: open }, "GAMBLE");
  host.append(h("div", { class: "gamble-offer", "data-testid": "gamble-offer-panel" },
    h("span", { class: "gamble-offer-win", "data-testid": "gamble-offer-amount", "data-amount": String(offer.amount) },
      "WIN ", h("strong", {}, creditsAndMoney(offer.amount, words.money)), words.money ? "" : " credits"),
    h("span", { class: "gamble-offer-hint" }, words.hint),
    h("span", { class: "gamble-offer-buttons" }, gamble, collect)));
}

/** A game's choice screen at its gamble: the offer (GAMBLE, COLLECT) until the player presses
 * GAMBLE or a step has been taken, then the game's own screen (`gamble`, drawn into `host`).
 * The step that screen sends is answered through it. */
export function offerFirst(
  host: HTMLElement, round: RoundView, kind: string, gambles: (option: unknown) => boolean, words: OfferWords,
  send: (kind: string, choice: StepChoice) => void, gamble: () => ChoiceScreen,
): ChoiceScreen {
  if (round.choice?.state) opened.delete(round.round_id); // from the first step the state decides
  const offer = offerOf(round, kind, gambles);
  if (!offer) return gamble();
  const collectChoice = ((round.choice?.choices[kind] ?? []).find(isCollect) ?? null) as StepChoice | null;
  let screen: ChoiceScreen | null = null;
  drawOffer(host, offer, kind, collectChoice, words, () => {
    opened.add(round.round_id);
    host.replaceChildren();
    screen = gamble();
    // the pressed GAMBLE is gone: the keyboard goes on in the gamble (where the game's screen
    // has not put the focus itself)
    if (!host.contains(document.activeElement)) host.querySelector<HTMLButtonElement>("button:not([disabled])")?.focus();
  }, send);
  return { answered: async (next) => { await screen?.answered?.(next); }, summary: (next) => screen?.summary?.(next) ?? null };
}
