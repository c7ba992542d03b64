// The words on a generic symbol tile (no Pixi here, so the unit tests run it): the game file's
// name for the symbol. An id's initials alone made Wolf, Wild and Wild x2 all "W" and the
// scatter (Star) and Sapphire both "S".

/** A name in capitals, a word to a line ("WILD" over "x2"), a multiplier's "x" kept small. */
function nameLabel(name: string): string {
  return name.trim().split(/\s+/).map((w) => (/^x\d+$/i.test(w) ? w.toLowerCase() : w.toUpperCase())).join("\n");
}

/** Each symbol's label from its name (else its id); a label two symbols would share falls back
 * to the id, so no two tiles of a game read alike. */
export function symbolLabels(symbols: readonly { id: string; name?: string }[]): Map<string, string> {
  const labels = symbols.map((s) => nameLabel(s.name || s.id));
  return new Map(symbols.map((s, i) => {
    const label = labels[i]!;
    return [s.id, labels.indexOf(label) === i && labels.lastIndexOf(label) === i ? label : s.id];
  }));
}

/** A generic tile's label, as parts of the tile's side `s`: set large in the display face, then
 * shrunk to fit. The playtest found "SAPPHIRE" and "AMETHYST" at about an eighth of a small
 * tile (set at 0.2 in a wide serif, then shrunk to 0.76 of it): too small to read. */
export const LABEL_FIT = { size: 0.34, width: 0.9, height: 0.7 } as const;

/** The scale that fits a label drawn `width` x `height` px (at LABEL_FIT.size) into a tile of
 * side `s`: never above 1, the label within LABEL_FIT's share of the tile. */
export function labelScale(width: number, height: number, s: number): number {
  return Math.min(1, (s * LABEL_FIT.width) / Math.max(1, width), (s * LABEL_FIT.height) / Math.max(1, height));
}
