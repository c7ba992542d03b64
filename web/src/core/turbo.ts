// Turbo as the player left it in this tab: a reload (or a return from the lobby) keeps it, as
// it keeps the session and the bet (the playtest saw it off again after every reload). Per tab,
// not in the options: a rule set without turbo (GB) shows no switch to keep.
import type { KeyValue } from "./session";

const KEY = "reelforge.turbo";

export function rememberTurbo(storage: KeyValue, on: boolean): void {
  try {
    storage.setItem(KEY, on ? "on" : "off");
  } catch { /* storage full or refused: turbo starts off next time */ }
}

export function turboRemembered(storage: KeyValue): boolean {
  try {
    return storage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}
