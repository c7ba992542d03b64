// What the history account tests share: a stored round view around a fixture's outcome (as
// GET /api/v1/rounds/{id} gives it), the game description around a fixture's `info`, and the
// words the tests build their expected lines with (credits as the client writes them).
import type { GameInfo, GameView, RoundView, StepView } from "../../src/net/types";
import type { AccountLine } from "../../src/screens/game/registry";

export function roundOf(outcome: Record<string, unknown> | null, extra: Partial<RoundView> = {}): RoundView {
  const bet = (outcome?.bet ?? { lines: 1, bet_per_line: 1, mode: "base" }) as { lines: number; bet_per_line: number; mode: string };
  return {
    round_id: "0b6f5a9e-7c1d-4e2a-9f3b-5d8c7e6a1b2c", request_id: "r", game: "g", game_id: "g-v1", status: "closed", currency: "EUR", denomination: 1,
    bet: { lines: bet.lines, bet_per_line: bet.bet_per_line, mode: bet.mode }, stake_minor: 100, win_minor: 0, funded_by: null,
    outcome: outcome as RoundView["outcome"], offers: [], pending_win_credits: 0, capped_from_minor: null, choice: null, steps: [],
    next_round_id: null, jackpot_claim: null, created_at_us: 0, closed_at_us: 0, balance_minor: 0, ...extra,
  };
}

export function gameOf(key: string, info: GameInfo, modes: GameView["modes"] = [{ name: "base", title: "Base game", price: 1 }]): GameView {
  return { key, game_id: `${key}-v1`, title: key, family: "", currency: "EUR", denomination: 1, modes, bets: [], default_bet: null, gamble: "on", win_cap_minor: null, jackpot: false, rtp: [], max_win: { credits: 0, x: 0, enforced: "" }, jurisdiction: {} as GameView["jurisdiction"], enabled: true, info };
}

export function stepOf(index: number, kind: string, choice: unknown, result: Record<string, unknown>): StepView {
  return { index, request_id: `s${index}`, kind, choice, seed: "00", result, created_at_us: 0 };
}

/** "1 credit", "12,345 credits", written here independently of the client's money code. */
export function credits(n: number): string {
  return `${n.toLocaleString("en")} credit${n === 1 ? "" : "s"}`;
}

export const texts = (lines: AccountLine[]) => lines.map((l) => (l.heading ? `# ${l.text}` : l.text));
