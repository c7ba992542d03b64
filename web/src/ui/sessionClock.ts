// The UK session line (standards.md C6, UKGC RTS 2E / 13C): the time since the session started
// (hh:mm:ss, ticking every second) and the net position of its rounds (what they won less what
// they staked, in currency). Both figures are the server's (GET /api/v1/session: session
// started_at_us and net_minor); the net is read again whenever a round's answer moves the
// balance. Shown only where the operator's jurisdiction is GB.
import { formatMoney } from "../core/money";
import type { AppContext } from "../screens/context";
import { h } from "./dom";

const MINUS = "\u2212";

/** Whole seconds elapsed as "hh:mm:ss" (hours go past 99 rather than wrap); negative is 0. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(total / 3600))}:${two(Math.floor(total / 60) % 60)}:${two(total % 60)}`;
}

/** A net position with its sign: -320 EUR -> "−€3.20", 150 GBP -> "+£1.50", 0 -> "£0.00". */
export function formatNet(minor: number, currency: string): string {
  const sign = minor < 0 ? MINUS : minor > 0 ? "+" : "";
  return sign + formatMoney(Math.abs(minor), currency);
}

export function sessionLine(elapsedMs: number, netMinor: number, currency: string): string {
  return `Session ${formatElapsed(elapsedMs)} · Net ${formatNet(netMinor, currency)}`;
}

export interface SessionClock {
  element: HTMLElement;
  destroy(): void;
}

/** The line, inserted into `parent` before `before`, or null outside GB. */
export function mountSessionClock(app: AppContext, parent: HTMLElement, before: Node | null,
                                  now: () => number = Date.now): SessionClock | null {
  const state = app.session.state;
  if (!state || state.jurisdiction.name !== "GB") return null;
  const currency = state.currency;
  const element = h("output", { class: "session-clock", "data-testid": "session-clock", "aria-label": "Session time and net position" });
  parent.insertBefore(element, before);
  let startedMs: number | null = null, netMinor = 0, seenBalance: number | null = null;
  let reading = false, again = false, gone = false;
  const show = () => {
    element.textContent = startedMs === null ? "" : sessionLine(now() - startedMs, netMinor, currency);
  };
  const read = async () => {
    if (reading) { again = true; return; }
    reading = true;
    try {
      do {
        again = false;
        const view = await app.api.session();
        if (gone) return;
        startedMs = Math.floor(view.session.started_at_us / 1000);
        netMinor = view.session.net_minor;
        show();
      } while (again);
    } catch (exc) {
      console.error("session line: GET /api/v1/session failed, figures kept", exc);
    } finally {
      reading = false;
    }
  };
  const ticker = setInterval(show, 1000);
  const unsubscribe = app.session.subscribe((s) => {
    if (s.balanceMinor === seenBalance) return;
    seenBalance = s.balanceMinor;
    void read();
  });
  return {
    element,
    destroy() {
      gone = true;
      clearInterval(ticker);
      unsubscribe();
      element.remove();
    },
  };
}
