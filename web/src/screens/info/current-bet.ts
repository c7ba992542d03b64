// The bet this tab last had selected in a game's screen, so that the game's information page
// shows the paytable at the current bet (kept per tab, like the session; a bet the game no
// longer offers falls back to its default).
import type { KeyValue } from "../../core/session";

export interface ChosenBet { lines: number; bet_per_line: number; mode: string }
const key = (game: string) => `reelforge.bet.${game}`;

export function rememberBet(storage: KeyValue, game: string, bet: ChosenBet): void {
  try {
    storage.setItem(key(game), JSON.stringify(bet));
  } catch { /* storage full or refused: the default bet is shown */ }
}

export function recallBet(storage: KeyValue, game: string): ChosenBet | null {
  try {
    const b = JSON.parse(storage.getItem(key(game)) ?? "null") as Partial<ChosenBet> | null;
    if (b && Number.isSafeInteger(b.lines) && Number.isSafeInteger(b.bet_per_line) && typeof b.mode === "string")
      return { lines: b.lines as number, bet_per_line: b.bet_per_line as number, mode: b.mode };
  } catch { /* a corrupt entry: none */ }
  return null;
}
