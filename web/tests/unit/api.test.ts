import { describe, expect, it } from "vitest";
import { Api, ApiError, NetworkError, parseRetryAfter, type Fetch } from "../../src/net/api";

interface Call { url: string; init: RequestInit | undefined }

function fake(answers: (() => Promise<Response> | Response)[]): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      return next();
    },
  };
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const down = () => () => Promise.reject(new TypeError("Failed to fetch"));
const later = (status: number, retryAfter: string) => () => new Response(
  JSON.stringify({ error: { code: status === 429 ? "RATE_LIMITED" : "SERVER_BUSY", message: "later" } }),
  { status, headers: { "Content-Type": "application/json", "Retry-After": retryAfter } });

describe("API client", () => {
  it("surfaces the server's error code, message and figures", async () => {
    const { fetch } = fake([json(409, { error: { code: "INSUFFICIENT_BALANCE", message: "balance 5 < price 20", balance_minor: 5 } })]);
    const api = new Api({ fetch, retries: 0 });
    const exc = await api.bet("cluedo", { lines: 20, bet_per_line: 1 }).catch((e) => e);
    expect(exc).toBeInstanceOf(ApiError);
    expect(exc.code).toBe("INSUFFICIENT_BALANCE");
    expect(exc.status).toBe(409);
    expect(exc.message).toBe("balance 5 < price 20");
    expect(exc.details).toEqual({ balance_minor: 5 });
  });
  it("sends the session token and the bet as the API reads it", async () => {
    const { fetch, calls } = fake([json(200, { round_id: "r" })]);
    const api = new Api({ fetch, newId: () => "id-1" });
    api.setToken("tok");
    await api.bet("cops-n-robbers", { lines: 10, bet_per_line: 2, mode: "fortune" });
    expect(calls[0]?.url).toBe("/api/v1/games/cops-n-robbers/rounds");
    expect((calls[0]?.init?.headers as Record<string, string>).Authorization).toBe("Bearer tok");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ request_id: "id-1", lines: 10, bet_per_line: 2, mode: "fortune" });
  });
  it("retries a bet after a network failure with the same request id", async () => {
    let n = 0;
    const { fetch, calls } = fake([down(), down(), json(200, { round_id: "r1" })]);
    const api = new Api({ fetch, retries: 3, retryDelayMs: 1, newId: () => `id-${++n}` });
    const round = await api.bet("cluedo", { lines: 20, bet_per_line: 1 });
    expect(round.round_id).toBe("r1");
    const ids = calls.map((c) => JSON.parse(String(c.init?.body)).request_id);
    expect(ids).toEqual(["id-1", "id-1", "id-1"]);
    expect(n).toBe(1);
  });
  it("retries a step with the same id; a refusal is not retried", async () => {
    const { fetch, calls } = fake([down(), json(409, { error: { code: "STEP_NOT_ALLOWED", message: "no" } })]);
    const api = new Api({ fetch, retries: 5, retryDelayMs: 1, newId: () => "s-1" });
    await expect(api.step("r1", "gamble", "red")).rejects.toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(calls.length).toBe(2);
    expect(calls.map((c) => JSON.parse(String(c.init?.body)).request_id)).toEqual(["s-1", "s-1"]);
  });
  it("waits the Retry-After of a 429 or 503 and asks again with the same request id", async () => {
    const { fetch, calls } = fake([later(429, "0"), later(503, "0"), json(200, { round_id: "r1" })]);
    const api = new Api({ fetch, retries: 3, retryDelayMs: 1, newId: () => "id-1" });
    const round = await api.bet("cluedo", { lines: 20, bet_per_line: 1 });
    expect(round.round_id).toBe("r1");
    expect(calls.map((c) => JSON.parse(String(c.init?.body)).request_id)).toEqual(["id-1", "id-1", "id-1"]);
  });
  it("asks a read again after a 503's Retry-After", async () => {
    const { fetch, calls } = fake([later(503, "0"), json(200, { jackpots: [] })]);
    const api = new Api({ fetch, retries: 1 });
    await expect(api.jackpots()).resolves.toEqual({ jackpots: [] });
    expect(calls.length).toBe(2);
  });
  it("surfaces a 429 whose wait is past its patience, or once its retries are spent", async () => {
    const long = fake([later(429, "60")]);
    const exc = await new Api({ fetch: long.fetch, retries: 3, maxRetryAfterMs: 10000 }).bet("cluedo", { lines: 1, bet_per_line: 1 }).catch((e) => e);
    expect(exc).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterMs: 60000 });
    expect(long.calls.length).toBe(1);
    const spent = fake([later(503, "0"), later(503, "0")]);
    await expect(new Api({ fetch: spent.fetch, retries: 1 }).bet("cluedo", { lines: 1, bet_per_line: 1 }))
      .rejects.toMatchObject({ status: 503, code: "SERVER_BUSY" });
    expect(spent.calls.length).toBe(2);
  });
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-12-06T00:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Sun, 06 Dec 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
  it("a 409 is never asked again, whatever its headers", async () => {
    const { fetch, calls } = fake([() => new Response(JSON.stringify({ error: { code: "STEP_NOT_ALLOWED", message: "no" } }), { status: 409, headers: { "Retry-After": "0" } })]);
    await expect(new Api({ fetch, retries: 3 }).step("r1", "gamble", "red")).rejects.toMatchObject({ code: "STEP_NOT_ALLOWED" });
    expect(calls.length).toBe(1);
  });
  it("gives up after its retries with a NetworkError", async () => {
    const { fetch, calls } = fake([down(), down()]);
    const api = new Api({ fetch, retries: 1, retryDelayMs: 1 });
    await expect(api.bet("cluedo", { lines: 1, bet_per_line: 1 })).rejects.toMatchObject({ name: "NetworkError", code: "NETWORK" });
    expect(calls.length).toBe(2);
  });
  it("times out a request that gets no answer", async () => {
    const hang: Fetch = (_url, init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    const api = new Api({ fetch: hang, timeoutMs: 30, retries: 0 });
    const exc = await api.session().catch((e) => e);
    expect(exc).toBeInstanceOf(NetworkError);
    expect(exc.code).toBe("TIMEOUT");
  });
  it("does not retry a GET, and names a non-JSON answer", async () => {
    const { fetch, calls } = fake([() => new Response("<html>", { status: 502 })]);
    const api = new Api({ fetch, retries: 3 });
    await expect(api.games()).rejects.toMatchObject({ code: "HTTP_502", status: 502 });
    expect(calls.length).toBe(1);
  });
  it("generates distinct request ids the server accepts", async () => {
    const api = new Api();
    const ids = new Set(Array.from({ length: 100 }, () => api.newId()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
  });
});
