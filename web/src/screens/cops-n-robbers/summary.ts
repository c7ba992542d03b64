// The banner over a Cops round's win cycle, in words (view.ts shows it): what the last spin's
// lines and the robber's collections pay and, after a bonus, what the spins before it paid. The
// WIN meter shows the round's total: "4 winning lines pay 125" beside WIN 130 left the other 5
// unexplained. In credits: beside the wins' labels there is no room for their money on a phone
// (view.ts); the WIN meter says it.
import { creditsAndMoney, formatCredits } from "../../core/money";

/** The win cycle's labels, each with the money of its `credits` beside it ("Line 6 pays 125
 * (€1.25)") where each is named alone; beside a summary (many wins) in credits as they are: the
 * summary and a label with money wrapped onto two lines at 390 px, and the WIN meter says the
 * money. A label without credits (undefined) stays as it is. */
export function labelsWithMoney<T extends { label: string }>(wins: readonly { win: T; credits: number | undefined }[], summary: string | null, money?: (credits: number) => string): T[] {
  return wins.map(({ win, credits }) => (summary || !money || credits === undefined ? win : { ...win, label: `${win.label} (${money(credits)})` }));
}

/** `lines` and `collections` are the last spin's, `total` what they pay; `earlier` what the
 * round's spins before it paid. null: no banner of the game's own (a single win names itself,
 * several lines keep the generic summary). After a bonus (`earlier` > 0) two lines: the
 * round's total first ("BONUS TOTAL 43", or "TOTAL WIN" where the spin that started the bonus
 * paid too: `bonusOnly` false), then its parts (cops.css sets the first line big). The
 * playtest read "Last spin: 1 winning line and the robber's collection pay 14 · the spins
 * before: 29" in a crowded pill and had to add it up. */
export function copsWinSummary(lines: number, collections: number, total: number, earlier: number, bonusOnly = true): string | null {
  const words = [lines ? `${lines} winning line${lines === 1 ? "" : "s"}` : "", collections > 1 ? `${collections} collections` : collections ? "the robber's collection" : ""].filter(Boolean).join(" and ");
  const pay = lines + collections === 1 ? "pays" : "pay";
  if (earlier > 0) return `${bonusOnly ? "BONUS TOTAL" : "TOTAL WIN"} ${formatCredits(total + earlier)}\nlast spin ${formatCredits(total)} · the spins before ${formatCredits(earlier)}`;
  if (collections && lines + collections > 1) return `${words} ${pay} ${formatCredits(total)}`;
  return null;
}
