// The player's options, kept across visits (localStorage). Read through `load`, which refuses
// stored values it does not know (a corrupt or old entry falls back to the default, per key).
import type { KeyValue } from "./session";

export type Quality = "BEST" | "HIGH" | "MEDIUM" | "LOW";
export const QUALITIES: readonly Quality[] = ["BEST", "HIGH", "MEDIUM", "LOW"];

export interface Options {
  quality: Quality;
  audio: boolean; // master switch
  sfx: boolean;
  music: boolean; // ambient music
  intro: boolean; // show the intro screen before a game
}

export const DEFAULT_OPTIONS: Options = { quality: "HIGH", audio: true, sfx: true, music: true, intro: true };
const KEY = "reelforge.options";

export function loadOptions(storage: KeyValue): Options {
  let raw: unknown = null;
  try {
    raw = JSON.parse(storage.getItem(KEY) ?? "null");
  } catch {
    raw = null;
  }
  const stored = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const bool = (k: keyof Options) => (typeof stored[k] === "boolean" ? (stored[k] as boolean) : (DEFAULT_OPTIONS[k] as boolean));
  return {
    quality: QUALITIES.includes(stored.quality as Quality) ? (stored.quality as Quality) : DEFAULT_OPTIONS.quality,
    audio: bool("audio"), sfx: bool("sfx"), music: bool("music"), intro: bool("intro"),
  };
}

export function saveOptions(storage: KeyValue, options: Options): void {
  storage.setItem(KEY, JSON.stringify(options));
}

type Listener = (o: Options) => void;

export class OptionsStore {
  private value: Options;
  private readonly listeners = new Set<Listener>();
  constructor(private readonly storage: KeyValue) {
    this.value = loadOptions(storage);
  }
  get(): Options {
    return this.value;
  }
  set(patch: Partial<Options>): void {
    this.value = { ...this.value, ...patch };
    saveOptions(this.storage, this.value);
    for (const l of this.listeners) l(this.value);
  }
  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    l(this.value);
    return () => this.listeners.delete(l);
  }
}
