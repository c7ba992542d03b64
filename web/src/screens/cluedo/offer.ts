// Cluedo's gamble offer, as the sheet has it: "Click the GAMBLE button after a win to Gamble an
// award". The offer itself (the win at stake, GAMBLE, TAKE WIN) is the games' shared one
// (game/gamble-offer.ts); what is Cluedo's: a guess (red or black) is the gamble, and its words.
import type { RoundView } from "../../net/types";
import { offerOf, type GambleOffer, type OfferWords } from "../game/gamble-offer";

/** A guess, red or black: what GAMBLE opens the cards for. */
export function isGuess(option: unknown): boolean {
  return option === "red" || option === "black";
}

/** The offer to show for `round`, or null where the card screen shows instead: a gamble step
 * has been taken (the server's state is set), the round stops at another choice, or the player
 * already pressed GAMBLE on this screen for this round (`opened`). */
export function gambleOffer(round: Pick<RoundView, "round_id" | "offers" | "choice" | "pending_win_credits">, opened?: ReadonlySet<string>): GambleOffer | null {
  return offerOf(round, "gamble", isGuess, opened);
}

/** The sheet's button for taking the whole win: "Click the TAKE WIN button to collect all of
 * your winnings" (the playtest read COLLECT, a word the sheet does not have on a button). */
export const TAKE_WIN = "TAKE WIN";

/** The offer's words: the award in credits alone (the rules: awards are shown in credits). */
export const OFFER_WORDS: OfferWords = { hint: "double it on red or black?", collect: TAKE_WIN };
