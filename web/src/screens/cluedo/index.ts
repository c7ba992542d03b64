// Cluedo MegaJackpots: its own symbols, scene, frame and logo (theme.ts, cluedo.css), its bet
// controls (LINE BET, LINES, BET MAX), the meter bar, winning lines with their amounts and the doubling wild, the lights going out on the
// Mystery Bonus, the golden reels with the free-spin counter and the bonus total, the jackpot
// notice from the round's claim, and its own choice screen: the red/black gamble.
import { cluedoAccount } from "./account";
import "./cluedo.css";
import { registerGame } from "../game/registry";
import { cluedoCard } from "./pitch";
import { cluedoBetControls } from "./controls";
import { cluedoChoices } from "./gamble";
import { TAKE_WIN } from "./offer";
import { cluedoHandlers, cluedoHooks, jackpotNotice, type CluedoView } from "./handlers";
import { CLUEDO_SYMBOLS } from "./symbols";
import { CLUEDO_THEME } from "./theme";
import { CluedoPixiView } from "./view";

let told = ""; // the round whose jackpot notice was shown as it ended (not again as it settles)

registerGame({
  key: "cluedo",
  status: "ready",
  card: cluedoCard, // the lobby's info card
  units: "credits", // the rules: "Awards are shown in credits, except the Jackpot"
  collectWord: TAKE_WIN, // PLAY at the offer: TAKE WIN & PLAY
  introStart: "PRESS TO START", // the intro card's button, as a cabinet's attract screen says
  symbols: CLUEDO_SYMBOLS,
  theme: CLUEDO_THEME,
  handlers: (game) => cluedoHandlers(game),
  hooks: cluedoHooks(),
  createView: (deps) => new CluedoPixiView(deps),
  betControls: cluedoBetControls,
  choices: cluedoChoices,
  account: cluedoAccount,
  // The meter bar's BET from the first screen: the credits of the bet the console shows.
  betShown: (bet, _mode, view) => (view as CluedoView).setBet(bet.stake_credits),
  roundShown: (round, view) => {
    const v = view as CluedoView;
    if (round.outcome) v.setBet(round.outcome.bet.stake);
    // In the gamble the WIN meters show what is still at stake (after TAKE HALF the banked half
    // is already in the balance; the panel shows it apart).
    if (round.choice) v.setWin(round.pending_win_credits);
    const notice = jackpotNotice(round);
    if (notice && told !== round.round_id) v.jackpotNotice(notice);
  },
  // The jackpot is told as soon as its line has played, before any count-up of the round's
  // lines: its moment, then its notice (a playtest waited ~35 s of line wins for it).
  roundPlayed: async (round, view) => {
    const notice = jackpotNotice(round);
    if (!notice) return false;
    told = round.round_id;
    await (view as CluedoView).jackpotNotice(notice);
    return true;
  },
});
