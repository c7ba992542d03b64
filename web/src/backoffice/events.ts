// The significant-events log (standards.md H4): the periods when no server process was up, then
// every significant event of the day (sign-ins refused, switches, decommissioned games, voids,
// corrections, claims, refused tokens, server errors, clock changes, starts and stops) and the
// large wins, newest first. Each event's payload is shown as the server wrote it.
import { clear, h } from "../ui/dom";
import { formatMoney } from "../core/money";
import { call, type EventsView } from "./api";

const LARGE_X = 100;

function when(us: number): string {
  return new Date(us / 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

/** A payload in one line: its keys and values, nested objects as compact JSON. */
export function summary(payload: Record<string, unknown>): string {
  return Object.entries(payload).map(([k, v]) => `${k}: ${typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)}`).join(" · ");
}

export async function showEvents(section: HTMLElement, day: string): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-events-h" }, `Significant events (${day}, UTC)`));
  try {
    const found = await call<EventsView>("GET", `/events?from=${day}&to=${day}&min_x=${LARGE_X}`);
    const gaps = found.unavailable.map((g) => h("li", { "data-testid": "office-unavailable" },
      `${when(g.from_us)} to ${g.to_us === null ? "now" : when(g.to_us)} (${Math.round(g.seconds)} s): no server process was up; ${g.ended_by}`));
    section.append(h("h3", {}, "Periods of unavailability"),
      gaps.length ? h("ul", {}, ...gaps) : h("p", { class: "office-note" }, "None today."));
    const rows = [
      ...found.events.map((e) => ({ at: e.at_us, kind: e.kind, where: e.chain, what: summary(e.payload) })),
      ...found.large_wins.map((w) => ({ at: w.at_us, kind: `large win (${Math.round(w.x)}x)`, where: `${w.operator}/${w.player}`,
        what: `${w.game}: ${formatMoney(w.win_minor, w.currency)}, round ${w.round_id}` })),
    ].sort((a, b) => b.at - a.at);
    const headings = ["At", "Event", "Where", "What"];
    section.append(h("h3", {}, "Events"), rows.length
      ? h("div", { class: "office-scroll" }, h("table", { "data-testid": "office-events-table" },
        h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, ...rows.map((r) => h("tr", { "data-kind": r.kind },
          ...[when(r.at), r.kind, r.where, r.what].map((c, i) => h("td", { "data-label": headings[i] }, c)))))))
      : h("p", { class: "office-note" }, "None today."));
    if (found.truncated) section.append(h("p", { class: "office-note" }, "More events than one page shows: ask for a shorter period."));
  } catch (exc) {
    section.append(h("p", { class: "office-error", role: "alert" }, (exc as Error).message));
  }
}
