// The board Candy Jar shows before its first spin: the game's regular candies (the server's
// `info.symbols`, role "regular") in a fixed, varied arrangement where no two neighbouring
// cells match, so nothing on it reads as a cluster or a win. A recovered round's grid or the
// first spin's landing replaces it; it is decoration, never an outcome.
import type { GameInfo } from "../../net/types";

/** [col][row] ids: cell (c, r) starts at regular[(3c + 5r) mod n] and steps on to the next id
 * that matches neither its left nor its upper neighbour (always found with 3 or more ids). */
export function idleBoard(info: Pick<GameInfo, "symbols" | "window">): string[][] {
  const ids = info.symbols.filter((s) => s.role === "regular").map((s) => s.id);
  const { reels: cols, rows } = info.window;
  const board: string[][] = Array.from({ length: cols }, () => Array.from({ length: rows }, () => ""));
  if (!ids.length) return board;
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      const left = c > 0 ? board[c - 1]![r] : undefined;
      const up = r > 0 ? board[c]![r - 1] : undefined;
      let k = (3 * c + 5 * r) % ids.length;
      for (let tries = 0; tries < ids.length && (ids[k] === left || ids[k] === up); tries++) k = (k + 1) % ids.length;
      board[c]![r] = ids[k]!;
    }
  }
  return board;
}
