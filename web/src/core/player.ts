// The round player: an outcome's events, played strictly one at a time, each by the handler
// registered for its type. An event type with no handler is an error (the round stops and says
// which), and every handler runs under a deadline, so a lost animation callback cannot hang the
// game. Handlers draw nothing themselves: they call the game's View (render/ or a fake in tests).
import type { Outcome, OutcomeEvent, Spin } from "./outcome";
import { withinOrLate, withTimeout, type TimeoutError } from "./timing";

export class UnknownEvent extends Error {
  constructor(readonly eventType: string) {
    super(`no handler for outcome event type ${JSON.stringify(eventType)}`);
    this.name = "UnknownEvent";
  }
}

export interface PlayContext<V> {
  view: V;
  outcome: Outcome;
  spin: Spin;
  /** Credits won so far in the round, this event included where it paid (the win meter). */
  won: number;
  /** Turbo / quick play asked for (only where the jurisdiction allows it). */
  fast: boolean;
}

export type Handler<V, E extends OutcomeEvent = OutcomeEvent> = (event: E, ctx: PlayContext<V>) => Promise<void> | void;

export type Handlers<V> = { [T in OutcomeEvent["type"]]?: Handler<V, Extract<OutcomeEvent, { type: T }>> };

export interface SpinHooks<V> {
  /** Before a spin's events (a free spin's counter, a reel-set change). */
  beforeSpin?: (spin: Spin, ctx: PlayContext<V>) => Promise<void> | void;
  afterSpin?: (spin: Spin, ctx: PlayContext<V>) => Promise<void> | void;
}

export interface PlayerOptions {
  timeoutMs?: number; // per handler
  /** A handler past its deadline: "fail" (the default: a test or a replay says so) or "continue"
   * with the next event (live play: on a slow device an animation can overrun, and the round
   * the server already decided must still reach its end and be collected). */
  onLate?: "fail" | "continue";
  /** Told of each handler that overran when `onLate` is "continue". */
  late?: (error: TimeoutError) => void;
  /** False once the view is gone (the player left the screen): the round stops before its
   * next event with `Stopped`, never drawing on what was destroyed. */
  live?: () => boolean;
}

/** The round was stopped because its screen was left (not a fault: the server has the round). */
export class Stopped extends Error {
  constructor() {
    super("the round's screen was left");
    this.name = "Stopped";
  }
}

function paidBy(event: OutcomeEvent): number {
  return "win" in event && typeof event.win === "number" ? event.win : 0;
}

export class EventPlayer<V> {
  private readonly timeoutMs: number;

  constructor(private readonly handlers: Handlers<V>, private readonly hooks: SpinHooks<V> = {}, private readonly options: PlayerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10000;
  }

  /** `work` within the deadline; past it, failed or let go on as `onLate` says. */
  private async within(work: () => Promise<void> | void, what: string): Promise<void> {
    if (this.options.live && !this.options.live()) throw new Stopped();
    const running = Promise.resolve(work());
    if (this.options.onLate === "continue") await withinOrLate(running, this.timeoutMs, what, (exc) => this.options.late?.(exc));
    else await withTimeout(running, this.timeoutMs, what);
  }

  handles(type: string): boolean {
    return type in this.handlers;
  }

  /** Every type the outcome uses has a handler: checked before anything is drawn. */
  check(outcome: Outcome): void {
    for (const spin of outcome.spins) for (const event of spin.events) {
      if (!this.handles(event.type)) throw new UnknownEvent(event.type);
    }
  }

  /** Play the outcome's spins from `fromSpin` (a resumed round skips what is on screen). */
  async play(view: V, outcome: Outcome, options: { fromSpin?: number; fast?: boolean } = {}): Promise<number> {
    this.check(outcome);
    // A capped round pays its total_win, less than its spins add up to (the engine caps the
    // round, not a spin): the meter never reads past it, and ends on what the celebration counts
    // to (capped, WIN read the spins' sum beside a celebration of the cap).
    const cap = outcome.win_capped ? outcome.total_win : Infinity;
    let won = 0;
    for (const spin of outcome.spins.slice(0, options.fromSpin ?? 0)) won += spin.win;
    for (const spin of outcome.spins.slice(options.fromSpin ?? 0)) {
      const ctx: PlayContext<V> = { view, outcome, spin, won: Math.min(cap, won), fast: options.fast ?? false };
      if (this.hooks.beforeSpin) await this.within(() => this.hooks.beforeSpin?.(spin, ctx), `spin ${spin.index} start`);
      let spinWon = 0;
      for (const event of spin.events) {
        const handler = this.handlers[event.type] as Handler<V> | undefined;
        if (!handler) throw new UnknownEvent(event.type);
        spinWon += paidBy(event);
        ctx.won = Math.min(cap, won + Math.min(spinWon, spin.win));
        await this.within(() => handler(event, ctx), `event ${event.type} of spin ${spin.index}`);
      }
      won += spin.win;
      ctx.won = Math.min(cap, won);
      if (this.hooks.afterSpin) await this.within(() => this.hooks.afterSpin?.(spin, ctx), `spin ${spin.index} end`);
    }
    return Math.min(cap, won);
  }
}
