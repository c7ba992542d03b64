// What every screen is given: the API client, the one session store, the options, the sound.
// Built once in main.ts; screens never create their own.
import type { Api } from "../net/api";
import type { GameView } from "../net/types";
import type { OptionsStore } from "../core/options";
import type { SessionStore } from "../core/session";
import type { Sound } from "../render/sound";

export interface AppContext {
  api: Api;
  session: SessionStore;
  options: OptionsStore;
  sound: Sound;
  /** The games the server offers this session (GET /api/v1/games), read once per page. */
  games(): Promise<GameView[]>;
  navigate(hash: string): void;
  openOptions(): void;
  /** Put a screen's title (a game's name or logo) in the page header; null takes it away. */
  heading(title: HTMLElement | null): void;
}

/** A mounted screen: `destroy` stops its timers, tickers and listeners. */
export interface Screen {
  destroy(): void;
}
