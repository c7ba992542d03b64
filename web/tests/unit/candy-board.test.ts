// Candy Jar's idle board (before the first spin) and its jackpot ladder's amounts: the board from
// the shipped game's description (tests/fixtures/candy-jar-clusters.json), the ladder from the
// information pages the server serves (candy-jar-clusters-help.json), checked against the game
// file's own jackpot table exported beside them.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { GameInfo } from "../../src/net/types";
import { idleBoard } from "../../src/screens/candy-jar-clusters/idle";
import { jackpotMoment, jackpotMultiples, ladderAmounts } from "../../src/screens/candy-jar-clusters/ladder";
import { JACKPOTS } from "../../src/screens/candy-jar-clusters/handlers";
import { fixture } from "./fixtures";

const here = dirname(fileURLToPath(import.meta.url));
const shipped = fixture("candy-jar-clusters");
const described = JSON.parse(readFileSync(join(here, "..", "fixtures", "candy-jar-clusters-help.json"), "utf8")) as { help: GameInfo["help"]; game_file_jackpots: { name: string; pays_x: number }[] };

describe("candy idle board", () => {
  const board = idleBoard(shipped.info);
  const regular = shipped.info.symbols.filter((s) => s.role === "regular").map((s) => s.id);

  it("fills the whole window with the game's regular candies only", () => {
    expect(board.length).toBe(shipped.info.window.reels);
    for (const col of board) {
      expect(col.length).toBe(shipped.info.window.rows);
      for (const id of col) expect(regular).toContain(id);
    }
  });

  it("implies no win: no two neighbouring cells match, so no group reaches the minimum cluster", () => {
    for (let c = 0; c < board.length; c++) for (let r = 0; r < board[c]!.length; r++) {
      if (c > 0) expect(board[c]![r]).not.toBe(board[c - 1]![r]);
      if (r > 0) expect(board[c]![r]).not.toBe(board[c]![r - 1]);
    }
    expect(shipped.info.min_cluster).toBeGreaterThan(1);
  });

  it("is varied (every regular candy appears) and fixed (the same board each time)", () => {
    expect(new Set(board.flat())).toEqual(new Set(regular));
    expect(idleBoard(shipped.info)).toEqual(board);
  });

  it("shows no pattern: no row (or column) is the one before it shifted along", () => {
    // the reviewer spotted (3c + 5r) mod n at once as a placeholder: each row the last moved by one
    const rows = Array.from({ length: board[0]!.length }, (_, r) => board.map((col) => col[r]!));
    const shifted = (a: string[], b: string[]) => a.some((_, s) => a.every((id, i) => id === b[(i + s) % b.length]));
    let repeats = 0;
    for (let r = 1; r < rows.length; r++) if (shifted(rows[r - 1]!, rows[r]!)) repeats++;
    for (let c = 1; c < board.length; c++) if (shifted(board[c - 1]!, board[c]!)) repeats++;
    expect(repeats).toBe(0);
  });

  it("with only three regular symbols still has no matching neighbours", () => {
    const three = idleBoard({ window: { reels: 7, rows: 7 }, symbols: ["A", "B", "C", "W"].map((id) => ({ id, name: id, role: id === "W" ? "wild" : "regular" })) });
    for (let c = 0; c < 7; c++) for (let r = 0; r < 7; r++) {
      if (c > 0) expect(three[c]![r]).not.toBe(three[c - 1]![r]);
      if (r > 0) expect(three[c]![r]).not.toBe(three[c]![r - 1]);
      expect(three[c]![r]).not.toBe("W");
    }
  });
});

describe("candy jackpot ladder", () => {
  const fromHelp = jackpotMultiples({ help: described.help });

  it("reads each jackpot's multiple of the total bet from the server's information pages, as the game file has it", () => {
    expect([...fromHelp.keys()]).toEqual([...JACKPOTS]);
    for (const j of described.game_file_jackpots) expect(fromHelp.get(j.name)).toBe(j.pays_x);
  });

  it("prefers the description's own jackpot table when it carries one", () => {
    const own = jackpotMultiples({ help: described.help, jackpots: [{ name: "MINI", pays_x: 7 }] });
    expect([...own]).toEqual([["MINI", 7]]);
  });

  it("knows no jackpot the description does not name", () => {
    expect(jackpotMultiples({ help: { sections: [] } }).size).toBe(0);
  });

  it("amounts: the multiple x the stake in credits x the denomination, following the bet", () => {
    for (const stake of [20, 60, 400]) {
      const amounts = ladderAmounts(fromHelp, { stake_credits: stake }, 1);
      for (const j of described.game_file_jackpots) expect(amounts.get(j.name)).toBe(j.pays_x * stake);
    }
    expect(ladderAmounts(fromHelp, { stake_credits: 20 }, 5).get("GRAND")).toBe(2000 * 20 * 5);
  });
});

// A jackpot's moment said its win as a bare figure ("MINI JACKPOT / 200") beside a ladder that
// reads money ("MINI €2.00"): a player read two amounts. Now it says the credits and their money,
// pictures the jackpot's coin with its multiple of the bet (the server's), and names the
// multiplier that grew it.
describe("a jackpot's moment", () => {
  it("says the win in credits and in money, and the jackpot's multiple of the bet", () => {
    const m = jackpotMoment("MINI", 200, 1, { money: "€2.00", multiple: 10 });
    expect(m.title).toBe("MINI JACKPOT");
    expect(m.amount(200)).toBe("200 credits");
    expect(m.lines).toEqual(["€2.00"]);
    expect(m.item).toEqual({ name: "MINI", line: "10× the total bet" });
  });
  it("names the multiplier that grew it, and pictures no multiple the server did not give", () => {
    const m = jackpotMoment("GRAND", 160_000, 4, { money: "€1,600.00", multiple: null });
    expect(m.amount(160_000)).toBe("160,000 credits");
    expect(m.lines).toEqual(["€1,600.00 · with the x4 multiplier"]);
    expect(m.item).toEqual({ name: "GRAND", line: "" });
  });
});
