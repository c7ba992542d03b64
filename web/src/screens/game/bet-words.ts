// A bet as the bet list names it, in the words of the game's rules: the stake in credits, then
// how it is made up. A coin game's rules speak of coins ("your bet is 50 coins of that value");
// its list said "50 credits (50 x 1)" beside them, so it names the coins too.
import { formatCredits } from "../../core/money";
import type { BetOption, GameInfo } from "../../net/types";

export function betOptionLabel(bet: Pick<BetOption, "stake_credits" | "lines" | "bet_per_line">, info: Pick<GameInfo, "pays">): string {
  const made = info.pays.unit === "coin" ? `${bet.lines} coins x ${bet.bet_per_line}` : `${bet.lines} x ${bet.bet_per_line}`;
  return `${formatCredits(bet.stake_credits)} credits (${made})`;
}
