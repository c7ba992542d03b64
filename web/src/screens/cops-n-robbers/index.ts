// Cops n Robbers Big Money Christmas: its own symbols, the STAKE selector and Fortune Spins
// switch, the presents' values and the robber's collections, the Big Money trail with the cop
// chasing the robber, the ID parade, the bonus total and the win cap message, and its own
// choice screen: the cash and bonus wheels of the gamble and Spin Chance's meter.
import { copsAccount } from "./account";
import "./cops.css";
import { registerGame } from "../game/registry";
import { copsBetControls } from "./controls";
import { copsHandlers, copsHooks } from "./handlers";
import { COPS_SYMBOLS } from "./symbols";
import { COPS_THEME } from "./theme";
import { CopsPixiView } from "./view";
import { copsChoices } from "./wheel";

registerGame({
  key: "cops-n-robbers",
  status: "ready",
  symbols: COPS_SYMBOLS,
  theme: COPS_THEME,
  handlers: (game) => copsHandlers(game),
  hooks: copsHooks(),
  createView: (deps) => new CopsPixiView(deps),
  betControls: copsBetControls,
  choices: copsChoices,
  account: copsAccount,
});
