// Cluedo MegaJackpots: its own symbols and bet controls (LINE BET, LINES, BET MAX); the round
// is still played by the generic handlers (TODO(game helper): lights out on the Mystery Bonus,
// golden reels, the free-spin counter and bonus total, the jackpot notice, the gamble's deck
// with its 14-card history).
import { genericHandlers } from "../game/handlers";
import { registerGame } from "../game/registry";
import { cluedoBetControls } from "./controls";
import { CLUEDO_SYMBOLS } from "./symbols";

registerGame({
  key: "cluedo",
  status: "todo",
  symbols: CLUEDO_SYMBOLS,
  handlers: (game) => genericHandlers(game),
  betControls: cluedoBetControls,
});
