// The round's flow, a small explicit machine. Every transition is listed; anything else is a
// bug and throws (never a silent no-op):
//
//   idle --bet--> request --outcome--> play --done--> settle --ready--> idle
//                   |  \--refused--> idle             \--offer--> choice --step--> request ...
//   recover (reload): idle --resume--> play | choice
//   error: any state --fail--> idle (the message is shown; the server holds the truth)

export type FlowState = "idle" | "request" | "play" | "choice" | "settle";

const TRANSITIONS: Record<FlowState, readonly FlowState[]> = {
  idle: ["request", "play", "choice"],
  request: ["play", "choice", "settle", "idle"],
  play: ["settle", "choice", "idle"],
  choice: ["request", "settle", "idle"],
  settle: ["idle", "choice"],
};

export class FlowError extends Error {}

export type FlowListener = (to: FlowState, from: FlowState) => void;

export class Flow {
  private current: FlowState = "idle";
  private readonly listeners = new Set<FlowListener>();

  get state(): FlowState {
    return this.current;
  }

  can(to: FlowState): boolean {
    return TRANSITIONS[this.current].includes(to);
  }

  to(next: FlowState): void {
    if (!this.can(next)) throw new FlowError(`flow: ${this.current} -> ${next} is not a transition`);
    const from = this.current;
    this.current = next;
    for (const listener of this.listeners) listener(next, from);
  }

  /** Back to idle from wherever the flow is (after an error). */
  reset(): void {
    if (this.current !== "idle") this.to("idle");
  }

  on(listener: FlowListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
