// The game's choice screens (GameModule.choices): the wheel gamble, or Spin Chance. After a win
// the gamble is offered compactly first (the win, GAMBLE, COLLECT: game/gamble-offer.ts), as the
// rule sheet has it: "any winnings ... will offer the gamble feature", and "When the gamble is
// ENTERED, two wheels are presented". A reload at the offer, or with the wheels open before a
// spin, shows the offer again (nothing was gambled: the server's round is the plain win); once
// a step was taken (the server's state is set) a reload comes back to the wheels.
import { creditsMoney } from "../../core/money";
import type { GameView, RoundView, StepChoice } from "../../net/types";
import { offerFirst } from "../game/gamble-offer";
import type { ChoiceScreen } from "../game/registry";
import { spinChance } from "./chance";
import { wheelGamble } from "./wheel";

/** A spin of either wheel, ("cash", i) or ("bonus", b): what GAMBLE opens the wheels for. */
export function isWheelSpin(option: unknown): boolean {
  return Array.isArray(option) && (option[0] === "cash" || option[0] === "bonus");
}

/** What the offer says beside the win on a desktop: the two wheels' prizes, in short. */
export const OFFER_HINT = "spin for more cash or a Big Money Bonus?";

export function copsChoices(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin?: (credits: number) => void): ChoiceScreen | void {
  const active = round.choice?.active ?? Object.keys(round.choice?.choices ?? {})[0];
  if (active === "wheel_gamble") {
    return offerFirst(host, round, "wheel_gamble", isWheelSpin, { hint: OFFER_HINT, money: creditsMoney(game) }, send,
      () => wheelGamble(host, round, send, game, setWin));
  }
  if (active === "spin_chance") return spinChance(host, round, send, game);
}
