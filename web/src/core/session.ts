// The one session store: who is playing, the balance, the jurisdiction. Only the code that
// received a server answer writes it (`apply*`); screens subscribe to it.
import type { Jurisdiction, RoundView, SessionView } from "../net/types";

export interface SessionState {
  token: string;
  player: string;
  operator: string;
  currency: string;
  balanceMinor: number;
  inPlayMinor: number;
  jurisdiction: Jurisdiction;
  openRounds: RoundView[];
  demo: boolean; // play money: the client labels it (standards.md I12)
}

export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const TOKEN_KEY = "reelforge.session";

type Listener = (state: SessionState) => void;

export class SessionStore {
  private value: SessionState | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly storage: KeyValue) {}

  get state(): SessionState | null {
    return this.value;
  }

  /** The token kept across reloads of this tab (sessionStorage), if any. */
  savedToken(): string | null {
    return this.storage.getItem(TOKEN_KEY);
  }

  forget(): void {
    this.storage.removeItem(TOKEN_KEY);
    this.value = null;
  }

  applySession(token: string, view: SessionView): void {
    this.storage.setItem(TOKEN_KEY, token);
    this.value = {
      token, player: view.player, operator: view.operator, currency: view.currency,
      balanceMinor: view.balance_minor, inPlayMinor: view.in_play_minor,
      jurisdiction: view.jurisdiction, openRounds: view.open_rounds, demo: view.demo,
    };
    this.emit();
  }

  /** A round's answer carries the balance after it. */
  applyRound(round: RoundView): void {
    if (!this.value) return;
    const open = this.value.openRounds.filter((r) => r.round_id !== round.round_id);
    const finished = round.status === "closed" || round.status === "cancelled";
    this.value = { ...this.value, balanceMinor: round.balance_minor, openRounds: finished ? open : [...open, round] };
    this.emit();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (this.value) listener(this.value);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    if (!this.value) return;
    for (const listener of this.listeners) listener(this.value);
  }
}
