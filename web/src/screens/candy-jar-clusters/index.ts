// Candy Jar Clusters: its 7x7 grid and candy symbols drawn in code, bet +/- with the bet menu,
// and a handler for every event its outcomes carry (the grid landing, cluster wins with their
// amounts, tumbles, random multipliers, the jars and their modifiers, free and super spins,
// placed and golden wilds, extra free spins, the fixed jackpots, the bonus total, the win cap).
import type { Handlers, SpinHooks } from "../../core/player";
import { registerGame, type SlotView } from "../game/registry";
import { candyCard } from "./pitch";
import { candyAccount } from "./account";
import { candyBetControls } from "./controls";
import { validateOutcome } from "../../core/outcome";
import { candyHandlers, candyHooks, jarsOf } from "./handlers";
import { CANDY_SYMBOLS } from "./symbols";
import { CANDY_THEME } from "./theme";
import { CandyJarView } from "./view";

registerGame({
  key: "candy-jar-clusters",
  status: "ready",
  card: candyCard, // the lobby's info card
  symbols: CANDY_SYMBOLS,
  // The handlers call the CandyView methods: createView always makes a CandyJarView (the game
  // screen and the history replay both use createView).
  handlers: (game) => candyHandlers(game) as unknown as Handlers<SlotView>,
  hooks: candyHooks as unknown as SpinHooks<SlotView>,
  createView: (deps) => new CandyJarView(deps),
  betControls: candyBetControls,
  account: candyAccount,
  // the jackpot ladder follows the bet the console shows
  betShown: (bet, _mode, view) => (view as CandyJarView).setBet(bet),
  // the jars as the round's first spin filled them, on a round shown again after a reload too
  // (its free spins, played or not yet, keep what that spin collected; they read 0 / 3)
  roundShown: (round, view) => {
    const jars = round.outcome ? jarsOf(validateOutcome(round.outcome)) : null;
    if (jars) (view as CandyJarView).showJars(jars.counts, jars.lit);
  },
  // the shop's scene is candy.css's; the grid draws its own wafer frame (grid.ts)
  theme: CANDY_THEME,
});
