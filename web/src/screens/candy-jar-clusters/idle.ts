// The board Candy Jar shows before its first spin: the game's regular candies (the server's
// `info.symbols`, role "regular") in a fixed, varied arrangement where no two neighbouring
// cells match, so nothing on it reads as a cluster or a win. A recovered round's grid or the
// first spin's landing replaces it; it is decoration, never an outcome.
import type { GameInfo } from "../../net/types";

/** A fixed stream of numbers in [0, 1) (mulberry32 on a constant seed): the same board every
 * visit, with no pattern a player reads as a placeholder (an earlier (3c + 5r) mod n board was
 * each row the last shifted by one). Decoration only: never a draw of the game. */
function fixedStream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** [col][row] ids: each cell a candy from the fixed stream among those matching neither its
 * left nor its upper neighbour (always some with 3 or more ids). */
export function idleBoard(info: Pick<GameInfo, "symbols" | "window">): string[][] {
  const ids = info.symbols.filter((s) => s.role === "regular").map((s) => s.id);
  const { reels: cols, rows } = info.window;
  const board: string[][] = Array.from({ length: cols }, () => Array.from({ length: rows }, () => ""));
  if (!ids.length) return board;
  const next = fixedStream(0x5eed);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      const left = c > 0 ? board[c - 1]![r] : undefined;
      const up = r > 0 ? board[c]![r - 1] : undefined;
      const open = ids.filter((id) => id !== left && id !== up);
      board[c]![r] = open[Math.floor(next() * open.length)] ?? ids[0]!;
    }
  }
  return board;
}
