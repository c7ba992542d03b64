// The back office's jackpot claims (verify, pay the instalments due) and supervised corrections
// (propose; another manager approves or rejects). Every sentence shown comes from the server,
// which decides who may do what; the buttons only save a manager a refused click.
import { clear, h } from "../ui/dom";
import { formatMoney } from "../core/money";
import { call } from "./api";

export interface Instalment { idx: number; amount_minor: number; due?: string; due_at_us: number | null; paid_at_us: number | null; paid_by: string | null; txn: string | null }
export interface ClaimRow {
  id: number; pool: string; round_id: string; player_id: number; amount_minor: number; status: string;
  created_at_us: number; verified_by: string | null; verified_at_us: number | null; instalments: Instalment[];
}
export interface CorrectionRow {
  id: number; operator: string; player: string; amount_minor: number; reason: string; status: string;
  proposed_by: string; proposed_at_us: number; decided_by: string | null; decided_at_us: number | null;
  note: string | null; balance_before_minor: number | null; balance_after_minor: number | null;
}

function day(us: number | null): string {
  return us === null ? "—" : new Date(us / 1000).toISOString().slice(0, 10);
}

/** The pool's currency: the key is "<game name>/<currency>". */
export function poolCurrency(pool: string): string {
  return pool.slice(pool.lastIndexOf("/") + 1);
}

/** The next instalment a manager may pay, if it is due at `nowUs`: its index, else null. */
export function nextDue(claim: ClaimRow, nowUs: number): number | null {
  if (claim.status !== "verified") return null;
  const next = claim.instalments.find((i) => i.paid_at_us === null);
  return next && next.due_at_us !== null && next.due_at_us <= nowUs ? next.idx : null;
}

/** An instalment's state in words. */
export function instalmentState(i: Instalment): string {
  if (i.paid_at_us !== null) return `paid ${day(i.paid_at_us)} by ${i.paid_by ?? "?"}`;
  return i.due_at_us === null ? `due ${i.due ?? "after verification"}` : `due ${day(i.due_at_us)}`;
}

function failure(): HTMLElement {
  return h("p", { class: "office-error", role: "alert", hidden: true });
}

function fail(where: HTMLElement, exc: unknown): void {
  where.textContent = (exc as Error).message;
  where.hidden = false;
}

function cells(headings: string[], values: (string | Node)[], attrs: Record<string, string> = {}): HTMLElement {
  return h("tr", attrs, ...values.map((c, i) => h("td", { "data-label": headings[i] }, c)));
}

function grid(testid: string, headings: string[], rows: HTMLElement[]): HTMLElement {
  return h("div", { class: "office-scroll" }, h("table", { "data-testid": testid },
    h("thead", {}, h("tr", {}, ...headings.map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, ...rows)));
}

const CLAIM_HEADINGS = ["Claim", "Pool", "Round", "Amount", "Status", "Verified", ""];
const INSTALMENT_HEADINGS = ["#", "Amount", "State", ""];

export async function showClaims(section: HTMLElement, mayControl: boolean): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-claims-h" }, "Jackpot claims"));
  const error = failure();
  try {
    const { claims } = await call<{ claims: ClaimRow[] }>("GET", "/jackpots/claims");
    if (!claims.length) {
      section.append(h("p", { class: "office-note", role: "status" }, "No jackpot claims."));
      return;
    }
    const act = (label: string, testid: string, path: string) => {
      const b = h("button", { type: "button", "data-testid": testid, disabled: !mayControl,
        title: mayControl ? undefined : "Only a manager may verify a claim or pay an instalment" }, label);
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await call("POST", path);
          await showClaims(section, mayControl);
        } catch (exc) {
          fail(error, exc);
          b.disabled = false;
        }
      });
      return b;
    };
    const now = Date.now() * 1000;
    for (const c of claims) {
      const currency = poolCurrency(c.pool);
      const verify = c.status === "pending_verification" ? act("Verify", `office-claim-verify-${c.id}`, `/jackpots/claims/${c.id}/verify`) : "";
      section.append(grid(`office-claim-${c.id}`, CLAIM_HEADINGS, [cells(CLAIM_HEADINGS, [String(c.id), c.pool, c.round_id,
        formatMoney(c.amount_minor, currency), c.status, c.verified_by ? `${c.verified_by}, ${day(c.verified_at_us)}` : "—", verify],
      { "data-state": c.status })]));
      const due = nextDue(c, now);
      section.append(h("details", { "data-testid": `office-claim-instalments-${c.id}` },
        h("summary", {}, `${c.instalments.length} instalments`),
        grid(`office-instalments-${c.id}`, INSTALMENT_HEADINGS, c.instalments.map((i) => cells(INSTALMENT_HEADINGS, [
          String(i.idx), formatMoney(i.amount_minor, currency), instalmentState(i),
          i.idx === due ? act("Pay", `office-instalment-pay-${c.id}-${i.idx}`, `/jackpots/claims/${c.id}/instalments/${i.idx}/pay`) : ""])))));
    }
    section.append(error);
  } catch (exc) {
    section.append(error);
    fail(error, exc);
  }
}

const CORRECTION_HEADINGS = ["#", "Operator", "Player", "Amount", "Reason", "Status", "Proposed", "Decided", ""];

export async function showCorrections(section: HTMLElement, mayControl: boolean, me: string): Promise<void> {
  clear(section);
  section.append(h("h2", { id: "office-corrections-h" }, "Corrections (two managers)"));
  const error = failure();
  if (mayControl) {
    const operator = h("input", { id: "office-corr-operator", required: true, maxlength: 64 });
    const player = h("input", { id: "office-corr-player", required: true, maxlength: 128 });
    const amount = h("input", { id: "office-corr-amount", required: true, inputmode: "numeric", pattern: "-?[0-9]+" });
    const reason = h("input", { id: "office-corr-reason", required: true, minlength: 10, maxlength: 2000 });
    const form = h("form", { class: "office-bar", "data-testid": "office-correction-form" },
      h("label", { for: "office-corr-operator" }, "Operator"), operator,
      h("label", { for: "office-corr-player" }, "Player"), player,
      h("label", { for: "office-corr-amount" }, "Amount (minor units, − to take)"), amount,
      h("label", { for: "office-corr-reason" }, "Reason"), reason,
      h("button", { type: "submit", "data-testid": "office-correction-propose" }, "Propose"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        await call("POST", "/corrections", { operator: operator.value, player: player.value, amount_minor: Number.parseInt(amount.value, 10), reason: reason.value });
        await showCorrections(section, mayControl, me);
      } catch (exc) {
        fail(error, exc);
      }
    });
    section.append(form);
  }
  try {
    const [{ corrections }, { games }] = await Promise.all([
      call<{ corrections: CorrectionRow[] }>("GET", "/corrections"),
      call<{ games: { operator: string; currency: string }[] }>("GET", "/games")]);
    const currencies = new Map(games.map((g) => [g.operator, g.currency]));
    const decide = (c: CorrectionRow, verb: "approve" | "reject") => {
      const mine = c.proposed_by === me;
      const b = h("button", { type: "button", class: verb === "reject" ? "office-quiet" : undefined,
        "data-testid": `office-correction-${verb}-${c.id}`, disabled: !mayControl || mine,
        title: !mayControl ? "Only a manager may decide a correction" : mine ? "Another manager must decide what you proposed" : undefined },
      verb === "approve" ? "Approve" : "Reject");
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await call("POST", `/corrections/${c.id}/${verb}`, {});
          await showCorrections(section, mayControl, me);
        } catch (exc) {
          fail(error, exc);
          b.disabled = false;
        }
      });
      return b;
    };
    if (corrections.length) section.append(grid("office-corrections-table", CORRECTION_HEADINGS, corrections.map((c) => {
      const currency = currencies.get(c.operator) ?? "XXX";
      const decided = c.decided_by ? `${c.decided_by}, ${day(c.decided_at_us)}` : "—";
      const actions = c.status === "proposed" ? h("span", {}, decide(c, "approve"), " ", decide(c, "reject")) : "";
      return cells(CORRECTION_HEADINGS, [String(c.id), c.operator, c.player, formatMoney(c.amount_minor, currency), c.reason,
        c.status, `${c.proposed_by}, ${day(c.proposed_at_us)}`, decided, actions], { "data-state": c.status });
    })));
    else section.append(h("p", { class: "office-note", role: "status" }, "No corrections."));
  } catch (exc) {
    fail(error, exc);
  }
  section.append(error);
}
