// The game's choice screens (GameModule.choices): the wheel gamble, or Spin Chance.
import type { GameView, RoundView, StepChoice } from "../../net/types";
import type { ChoiceScreen } from "../game/registry";
import { spinChance } from "./chance";
import { wheelGamble } from "./wheel";

export function copsChoices(host: HTMLElement, round: RoundView, send: (kind: string, choice: StepChoice) => void, game: GameView, setWin?: (credits: number) => void): ChoiceScreen | void {
  const active = round.choice?.active ?? Object.keys(round.choice?.choices ?? {})[0];
  if (active === "wheel_gamble") return wheelGamble(host, round, send, game, setWin);
  if (active === "spin_chance") return spinChance(host, round, send, game);
}
