// The typed client of the game server's API (/api/v1). Every refusal surfaces as an ApiError
// carrying the server's stable code (server/errors.py); a request that got no answer is a
// NetworkError (code NETWORK or TIMEOUT). Bets and steps carry a request id: on a network
// failure they are retried with the SAME id, which the server answers with the same round
// (never a second debit).
import type {
  GameView, HistoryView, MeterView, OpenedSession, RoundView, SessionView, StepChoice, VerifyView,
} from "./types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** A 429 or 503 the server asked to be retried later (its Retry-After, in ms), else null:
   * such a refusal was answered before the request was read, so nothing of it was applied. */
  get retryAfterMs(): number | null {
    const ms = this.details.retryAfterMs;
    return (this.status === 429 || this.status === 503) && typeof ms === "number" ? ms : null;
  }
}

/** Retry-After as ms: delta-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** No answer: the connection failed or the timeout passed. The request may have been applied. */
export class NetworkError extends Error {
  constructor(readonly code: "NETWORK" | "TIMEOUT", message: string) {
    super(message);
    this.name = "NetworkError";
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiOptions {
  base?: string; // "" = same origin
  fetch?: Fetch;
  timeoutMs?: number;
  retries?: number; // extra attempts of a bet or step after a network failure
  retryDelayMs?: number;
  maxRetryAfterMs?: number; // the longest Retry-After honoured; a longer one surfaces as the error
  newId?: () => string;
}

export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Api {
  private token: string | null = null;
  private readonly base: string;
  private readonly fetchFn: Fetch;
  readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryAfterMs: number;
  readonly newId: () => string;

  constructor(options: ApiOptions = {}) {
    this.base = options.base ?? "";
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 15000;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10000;
    this.newId = options.newId ?? newRequestId;
  }

  setToken(token: string | null): void {
    this.token = token;
  }

  get hasToken(): boolean {
    return this.token !== null;
  }

  async request<T>(method: "GET" | "POST", path: string, body?: unknown, timeoutMs = this.timeoutMs): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (this.token) headers["Authorization"] = `Bearer ${this.token}`;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let response: Response;
    try {
      response = await this.fetchFn(this.base + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (exc) {
      if (timedOut) throw new NetworkError("TIMEOUT", `${method} ${path}: no answer in ${timeoutMs} ms`);
      throw new NetworkError("NETWORK", `${method} ${path}: ${(exc as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      throw new ApiError(response.status, response.ok ? "BAD_RESPONSE" : "HTTP_" + response.status,
        `${method} ${path}: the answer (${response.status}) is not JSON`);
    }
    if (!response.ok) {
      const retryAfterMs = parseRetryAfter(response.headers.get("Retry-After"));
      const wait = retryAfterMs === null ? {} : { retryAfterMs };
      const err = (data as { error?: { code?: unknown; message?: unknown } }).error;
      if (err && typeof err.code === "string") {
        const { code, message, ...details } = err as Record<string, unknown>;
        throw new ApiError(response.status, code as string, String(message ?? code), { ...details, ...wait });
      }
      throw new ApiError(response.status, "HTTP_" + response.status, `${method} ${path}: ${response.status}`, wait);
    }
    return data as T;
  }

  /** A read, asked again after the wait a 429 or 503 names (Retry-After), up to the retries. */
  private async get<T>(path: string, timeoutMs = this.timeoutMs): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request<T>("GET", path, undefined, timeoutMs);
      } catch (exc) {
        const wait = this.politeWait(exc, attempt);
        if (wait === null) throw exc;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** How long to wait before asking again after a server's "later" (429/503 with Retry-After),
   * or null to give up: no such answer, retries spent, or a wait past maxRetryAfterMs. */
  private politeWait(exc: unknown, attempt: number): number | null {
    if (!(exc instanceof ApiError) || attempt >= this.retries) return null;
    const ms = exc.retryAfterMs;
    return ms === null || ms > this.maxRetryAfterMs ? null : ms;
  }

  /** A POST that must happen once: retried with the same body (and so the same request id)
   * while the network fails, or after the wait a 429/503 names; any other answer from the
   * server, even a refusal, ends it. */
  private async once<T>(path: string, body: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request<T>("POST", path, body);
      } catch (exc) {
        const polite = this.politeWait(exc, attempt);
        if (polite !== null) {
          await new Promise((r) => setTimeout(r, polite));
          continue;
        }
        if (!(exc instanceof NetworkError) || attempt >= this.retries) throw exc;
        await new Promise((r) => setTimeout(r, this.retryDelayMs * (attempt + 1)));
      }
    }
  }

  openSession(launchToken: string): Promise<OpenedSession> {
    return this.request("POST", "/api/v1/sessions", { launch_token: launchToken });
  }
  session(): Promise<SessionView> {
    return this.get("/api/v1/session");
  }
  // A server's first description of a game computes its exact maximum win (seconds, more on
  // a loaded machine): the game list waits longer than the round trips of play.
  games(): Promise<{ games: GameView[] }> {
    return this.get("/api/v1/games", this.timeoutMs * 8);
  }
  game(key: string): Promise<GameView> {
    return this.get(`/api/v1/games/${encodeURIComponent(key)}`, this.timeoutMs * 8);
  }
  bet(game: string, bet: { lines: number; bet_per_line: number; mode?: string }, requestId = this.newId()): Promise<RoundView> {
    return this.once(`/api/v1/games/${encodeURIComponent(game)}/rounds`, {
      request_id: requestId, lines: bet.lines, bet_per_line: bet.bet_per_line, mode: bet.mode ?? "base",
    });
  }
  step(roundId: string, kind: string, choice: StepChoice, requestId = this.newId()): Promise<RoundView> {
    return this.once(`/api/v1/rounds/${encodeURIComponent(roundId)}/steps`, { request_id: requestId, kind, choice });
  }
  history(limit = 20, before?: string, game?: string): Promise<HistoryView> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (before) q.set("before", before);
    if (game) q.set("game", game);
    return this.get(`/api/v1/rounds?${q}`);
  }
  round(roundId: string): Promise<RoundView> {
    return this.get(`/api/v1/rounds/${encodeURIComponent(roundId)}`);
  }
  verify(roundId: string): Promise<VerifyView> {
    return this.get(`/api/v1/rounds/${encodeURIComponent(roundId)}/verify`);
  }
  jackpots(): Promise<{ jackpots: MeterView[] }> {
    return this.get("/api/v1/jackpots");
  }
}
