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
