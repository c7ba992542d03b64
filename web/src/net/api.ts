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
  readonly newId: () => string;

  constructor(options: ApiOptions = {}) {
    this.base = options.base ?? "";
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 15000;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 500;
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
      const err = (data as { error?: { code?: unknown; message?: unknown } }).error;
      if (err && typeof err.code === "string") {
        const { code, message, ...details } = err as Record<string, unknown>;
        throw new ApiError(response.status, code as string, String(message ?? code), details);
      }
      throw new ApiError(response.status, "HTTP_" + response.status, `${method} ${path}: ${response.status}`);
    }
    return data as T;
  }

  /** A POST that must happen once: retried with the same body (and so the same request id)
   * while the network fails; an answer from the server, even a refusal, ends it. */
  private async once<T>(path: string, body: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request<T>("POST", path, body);
      } catch (exc) {
        if (!(exc instanceof NetworkError) || attempt >= this.retries) throw exc;
        await new Promise((r) => setTimeout(r, this.retryDelayMs * (attempt + 1)));
      }
    }
  }

  openSession(launchToken: string): Promise<OpenedSession> {
    return this.request("POST", "/api/v1/sessions", { launch_token: launchToken });
  }
  session(): Promise<SessionView> {
    return this.request("GET", "/api/v1/session");
  }
  // A server's first description of a game computes its exact maximum win (seconds, more on
  // a loaded machine): the game list waits longer than the round trips of play.
  games(): Promise<{ games: GameView[] }> {
    return this.request("GET", "/api/v1/games", undefined, this.timeoutMs * 8);
  }
  game(key: string): Promise<GameView> {
    return this.request("GET", `/api/v1/games/${encodeURIComponent(key)}`, undefined, this.timeoutMs * 8);
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
    return this.request("GET", `/api/v1/rounds?${q}`);
  }
  round(roundId: string): Promise<RoundView> {
    return this.request("GET", `/api/v1/rounds/${encodeURIComponent(roundId)}`);
  }
  verify(roundId: string): Promise<VerifyView> {
    return this.request("GET", `/api/v1/rounds/${encodeURIComponent(roundId)}/verify`);
  }
  jackpots(): Promise<{ jackpots: MeterView[] }> {
    return this.request("GET", "/api/v1/jackpots");
  }
}
