// The bet list's words against the rules' own: a coin game's bet named in coins, as its help
// says ("your bet is 50 coins of that value"); a line game's as before.
import { describe, expect, it } from "vitest";
import { betOptionLabel } from "../../src/screens/game/bet-words";
import { fixture, GAME_KEYS } from "./fixtures";

describe("bet list words", () => {
  for (const key of GAME_KEYS) {
    it(`${key}: the bet named in the unit its rules use`, () => {
      const { info } = fixture(key);
      const coins = info.pays.coins ?? 20;
      const label = betOptionLabel({ stake_credits: coins * 3, lines: coins, bet_per_line: 3 }, info);
      expect(label).toBe(info.pays.unit === "coin" ? `${coins * 3} credits (${coins} coins x 3)` : `${coins * 3} credits (${coins} x 3)`);
    });
  }
});
