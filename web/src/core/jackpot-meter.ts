// A progressive jackpot's meter as a studio's ticks, honestly: it counts up from what it shows
// to each new pool the server reports, a cent at a time, spread over the time until the next
// report, so other players' stakes show as a steady climb rather than a jump every poll. It
// never shows more than the server's latest pool and never invents money: a rise is only ever
// towards a figure the server sent, and a fall (the pool claimed and reseeded) shows at once.
// Amounts are integers in the currency's minor units.

/** The pool a game's progressive jackpot is kept in: the server's catalog.pool_key, its title
 * and currency ("Cluedo MegaJackpots/EUR"); every RTP variant of the game shares it. */
export function poolName(title: string, currency: string): string {
  return `${title}/${currency}`;
}

/** `game`'s own pool among the server's, by its exact name: never one whose name merely starts
 * the same (another game "Cluedo MegaJackpots Deluxe" has its own pool). */
export function gamePool<P extends { pool: string; currency: string }>(game: { title: string; currency: string }, pools: readonly P[]): P | undefined {
  const name = poolName(game.title, game.currency);
  return pools.find((p) => p.currency === game.currency && p.pool === name);
}

export interface JackpotMeter {
  /** The server's latest pool, in minor units. */
  report(poolMinor: number): void;
  /** What the meter shows now (null before the first report). */
  shown(): number | null;
  /** Ends any count in progress (the screen is closing). */
  stop(): void;
}

export interface JackpotMeterOptions {
  /** ms a rise is spread over: about the time between the server's reports. */
  spreadMs: number;
  /** ms between two steps of the count. */
  stepMs: number;
  /** the wall clock (ms). */
  now?: () => number;
}

/** The shell's meter: a report every REFRESH_MS (and after each round), each rise counted over
 * a little less than that, so it lands before the next report asks for more. */
export const JACKPOT_REFRESH_MS = 10_000;
export const JACKPOT_TICK: JackpotMeterOptions = { spreadMs: 9_000, stepMs: 80 };

/** `show` is called with each figure the meter shows (never twice in a row with the same one). */
export function jackpotMeter(show: (minor: number) => void, o: JackpotMeterOptions = JACKPOT_TICK): JackpotMeter {
  const now = o.now ?? (() => Date.now());
  let shown: number | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let target: number | null = null; // the pool a count in progress ends on
  const put = (minor: number) => {
    if (minor === shown) return;
    shown = minor;
    show(minor);
  };
  const halt = () => { clearInterval(timer); timer = undefined; };
  return {
    report(pool: number) {
      if (!Number.isSafeInteger(pool) || pool < 0) return; // not a figure: the meter keeps its own
      // the same pool again (a poll with no stake since): the count runs on to its end, where a
      // restart from each poll put it off for another spread
      if (timer !== undefined && pool === target) return;
      halt();
      // the first figure, and a pool that went down (claimed and reseeded): at once
      if (shown === null || pool <= shown) { put(pool); return; }
      const from = shown, start = now();
      target = pool;
      const step = () => {
        const t = Math.min(1, (now() - start) / o.spreadMs);
        // floor: each figure on the way is one the pool has passed, the last the server's own
        put(t >= 1 ? pool : from + Math.floor((pool - from) * t));
        if (t >= 1) halt();
      };
      timer = setInterval(step, o.stepMs);
    },
    shown: () => shown,
    stop: halt,
  };
}
