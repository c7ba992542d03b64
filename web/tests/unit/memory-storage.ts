// A Storage (the KeyValue the client keeps its options, session, bet and turbo in) held in a Map,
// for the unit tests: a tab's sessionStorage or localStorage without a browser.
import type { KeyValue } from "../../src/core/session";

export function memoryStorage(): KeyValue {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}
