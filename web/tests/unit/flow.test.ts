import { describe, expect, it } from "vitest";
import { Flow, FlowError, type FlowState } from "../../src/core/flow";

describe("flow machine", () => {
  it("walks a round: idle -> request -> play -> settle -> idle", () => {
    const flow = new Flow();
    const seen: string[] = [];
    flow.on((to, from) => seen.push(`${from}>${to}`));
    for (const s of ["request", "play", "settle", "idle"] as FlowState[]) flow.to(s);
    expect(seen).toEqual(["idle>request", "request>play", "play>settle", "settle>idle"]);
  });
  it("walks a gamble: play -> choice -> request -> choice -> request -> settle", () => {
    const flow = new Flow();
    for (const s of ["request", "play", "choice", "request", "choice", "request", "settle", "idle"] as FlowState[]) flow.to(s);
    expect(flow.state).toBe("idle");
  });
  it("refuses a transition it does not list", () => {
    const flow = new Flow();
    expect(() => flow.to("settle")).toThrow(FlowError);
    flow.to("request");
    expect(() => flow.to("request")).toThrow(FlowError);
    expect(flow.can("play")).toBe(true);
  });
  it("recovers into choice from idle and resets to idle after an error", () => {
    const flow = new Flow();
    flow.to("choice");
    flow.to("request");
    flow.reset();
    expect(flow.state).toBe("idle");
    flow.reset();
    expect(flow.state).toBe("idle");
  });
});
