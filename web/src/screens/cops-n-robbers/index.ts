// Cops n Robbers Big Money Christmas: its own symbols, the STAKE selector and Fortune Spins
// switch, the presents' values and the robber's collections, the Big Money trail with the cop
// chasing the robber, the ID parade, the bonus total and the win cap message, and its own
// choice screen: the cash and bonus wheels of the gamble and Spin Chance's meter.
import { copsAccount } from "./account";
import "./cops.css";
import { registerGame } from "../game/registry";
import { copsCard } from "./pitch";
import { copsBetControls } from "./controls";
import { copsHandlers, copsHooks, type CopsView } from "./handlers";
import { COPS_SYMBOLS } from "./symbols";
import { COPS_THEME } from "./theme";
import { CopsPixiView } from "./view";
import { copsChoices } from "./choices";

registerGame({
  key: "cops-n-robbers",
  status: "ready",
  card: copsCard, // the lobby's info card
  symbols: COPS_SYMBOLS,
  theme: COPS_THEME,
  handlers: (game) => copsHandlers(game),
  hooks: copsHooks(),
  createView: (deps) => new CopsPixiView(deps),
  betControls: copsBetControls,
  choices: copsChoices,
  // Fortune Spins' sign says what their reels hold while the switch is on
  betShown: (_bet, mode, view) => (view as CopsView).modeShown?.(mode),
  account: copsAccount,
  introStart: "PRESS TO START", // the intro card's button, as a cabinet's attract screen says (the playtest: a small LET'S PLAY)
  // the rule sheet's wild, bonus and trail rules (RULES.md), in a player's words
  symbolNotes: {
    ROBBER: "Wild: stands in for every symbol except the Bonus, and pays on a line of his own (above). In Fortune Spins and the Big Money Bonus he also collects the cash shown on every present in view; in the bonus each Robber moves him one step along the trail, and its multipliers multiply what he collects.",
    COP: "Wild, only in the Big Money Bonus; a line of Cops pays nothing. Each Cop moves the cop one step along the trail: when he catches the robber, the ID Parade decides whether the bonus ends.",
    BONUS: "Pays nothing itself. 3, 4 or 5 anywhere in view start the Big Money, Super Big Money or Mega Big Money Bonus, with a starting multiplier of 1x, 2x or 3x.",
  },
});
