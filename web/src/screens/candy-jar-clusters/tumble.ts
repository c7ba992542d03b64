// Which candy falls where in a tumble (no Pixi: unit-tested against the real grids).

/** How a tumble moves a column: for each cell of the new column, the old row it falls from
 * (a survivor) or null (a refill dropping in). Null when the survivors are not the bottom of
 * the new column (then the column drops in whole). */
export function tumbleMoves(before: readonly string[], after: readonly string[], removedRows: ReadonlySet<number>): (number | null)[] | null {
  const survivors = before.map((s, row) => ({ s, row })).filter((c) => !removedRows.has(c.row));
  const refills = after.length - survivors.length;
  if (refills < 0) return null;
  const moves: (number | null)[] = [];
  for (let row = 0; row < after.length; row++) {
    if (row < refills) { moves.push(null); continue; }
    const from = survivors[row - refills];
    if (!from || from.s !== after[row]) return null;
    moves.push(from.row);
  }
  return moves;
}
