// The history page: the player's rounds from the server (newest first, paged), each openable:
// its stored outcome summarised (bet, win, spins, features, steps) and the server's replay
// check (verify). A game module may replay the round on screen through its `replay` hook.
import { formatCredits, formatMoney } from "../../core/money";
import { validateOutcome } from "../../core/outcome";
import type { GameView, RoundView } from "../../net/types";
import { clear, h, showError } from "../../ui/dom";
import type { AppContext, Screen } from "../context";
import { gameModule, moduleFor } from "../game/registry";
import { genericReplay } from "../game/replay";

function when(us: number): string {
  return new Date(Math.floor(us / 1000)).toISOString().replace("T", " ").slice(0, 19);
}

export async function mountHistory(host: HTMLElement, app: AppContext): Promise<Screen> {
  clear(host);
  const table = h("tbody");
  const more = h("button", { "data-testid": "history-more", hidden: true }, "More");
  const detail = h("div", { "data-testid": "history-detail" });
  host.append(h("section", { class: "page", "data-testid": "history" }, h("h1", {}, "Game history"),
    h("table", {}, h("thead", {}, h("tr", {}, ...["Time (UTC)", "Game", "Status", "Stake", "Win", ""].map((t) => h("th", {}, t)))), table), more, detail));
  let cursor: string | null = null;
  let cleanup: (() => void) | null = null;
  const load = async () => {
    const page = await app.api.history(20, cursor ?? undefined);
    for (const r of page.rounds) {
      table.append(h("tr", { "data-testid": "history-row", "data-round": r.round_id },
        h("td", {}, when(r.created_at_us)), h("td", {}, r.game), h("td", {}, r.status),
        h("td", {}, formatMoney(r.stake_minor, r.currency)), h("td", {}, r.win_minor === null ? "—" : formatMoney(r.win_minor, r.currency)),
        h("td", {}, h("button", { onclick: () => void open(r.round_id), "data-testid": "history-open" }, "Open"))));
    }
    cursor = page.next;
    more.hidden = cursor === null;
  };
  const open = async (id: string) => {
    cleanup?.();
    cleanup = null;
    clear(detail);
    try {
      const round = await app.api.round(id);
      detail.append(summary(round));
      const games = await app.games().catch(() => []);
      const game = games.find((g) => g.key === round.game);
      const module = game ? moduleFor(game) : gameModule(round.game);
      if (round.outcome && (module?.replay || game)) {
        const stage = h("div", { class: "replay", "data-testid": "replay", style: "position:relative;height:420px" });
        detail.append(stage);
        const outcome = validateOutcome(round.outcome);
        cleanup = module?.replay
          ? await module.replay(stage, round, game, outcome)
          : await genericReplay(stage, module, game as GameView, outcome, app.options.get().quality);
      }
      const verify = await app.api.verify(id);
      detail.append(h("p", { "data-testid": "history-verify" }, verify.matches ? "Replayed from its seeds: matches." : `Replay differs: ${verify.problems.join("; ")}`));
    } catch (exc) {
      const p = h("p", { class: "message" });
      showError(p, exc);
      detail.append(p);
    }
  };
  more.addEventListener("click", () => void load());
  await load();
  return { destroy() { cleanup?.(); } };
}

export function summary(round: RoundView): HTMLElement {
  const o = round.outcome ? validateOutcome(round.outcome) : null;
  const rows: [string, string][] = [
    ["Round", round.round_id], ["Game", `${round.game} (${round.game_id})`], ["Status", round.status],
    ["Bet", `${round.bet.lines} x ${round.bet.bet_per_line} (${round.bet.mode}) = ${formatMoney(round.stake_minor, round.currency)}`],
    ["Win", round.win_minor === null ? "—" : formatMoney(round.win_minor, round.currency)],
  ];
  if (o) {
    rows.push(["Outcome win", `${formatCredits(o.total_win)} credits${o.win_capped ? " (capped)" : ""}`]);
    rows.push(["Spins", o.spins.map((s) => `${s.kind} ${s.index}: ${formatCredits(s.win)}`).join(", ")]);
    if (o.flags.length) rows.push(["Features", o.flags.join(", ")]);
    const breakdown = Object.entries(o.breakdown).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${formatCredits(v)}`).join(", ");
    if (breakdown) rows.push(["Breakdown", breakdown]);
  }
  if (round.steps.length) rows.push(["Steps", round.steps.map((s) => `${s.kind} ${JSON.stringify(s.choice)}`).join(", ")]);
  return h("table", { "data-testid": "round-summary" }, ...rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v))));
}
