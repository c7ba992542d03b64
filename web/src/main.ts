// The page: one session for the tab, then hash routes.
//   /play?launch=TOKEN  -> POST the token to /api/v1/sessions, keep the session token in
//                          sessionStorage, drop the token from the address (it is used once)
//   #/ lobby · #/game/<key> · #/history · #/info/<key>
// A reload keeps the session (GET /api/v1/session, which lists the open rounds to recover).
import "./ui/style.css";
import "./screens/games";
import { formatMoney } from "./core/money";
import { OptionsStore } from "./core/options";
import { SessionStore } from "./core/session";
import { Api, ApiError } from "./net/api";
import type { GameView } from "./net/types";
import { Sound } from "./render/sound";
import type { AppContext, Screen } from "./screens/context";
import { mountGame } from "./screens/game/shell";
import { mountHistory } from "./screens/history/history";
import { mountInfo } from "./screens/info/info";
import { mountLobby, mountWelcome } from "./screens/lobby/lobby";
import { clear, h, showError } from "./ui/dom";
import { ICONS, WORDMARK } from "./ui/brand";
import { openOptions } from "./ui/options";

const api = new Api();
const session = new SessionStore(sessionStorage);
const options = new OptionsStore(localStorage);
const sound = new Sound(options.get());
options.subscribe((o) => sound.apply(o));
let gamesCache: Promise<GameView[]> | null = null;

const root = document.getElementById("app") as HTMLElement;
// The page header: the reelforge mark (to the lobby), the current game's name or logo, and the
// links. The balance is shown here outside a game only: in a game the console shows it.
const balance = h("span", { class: "balance", "data-testid": "header-balance" });
const brand = h("a", { class: "brand", href: "#/", "data-testid": "brand", "aria-label": "reelforge: the lobby" });
brand.innerHTML = WORDMARK;
const gameTitle = h("div", { class: "header-game", "data-testid": "header-game", hidden: true });
const navLink = (href: string, testid: string, icon: string, word: string) => {
  const a = h("a", { href, "data-testid": testid, "aria-label": word, title: word });
  a.innerHTML = icon;
  a.append(h("span", { class: "nav-word" }, word));
  return a;
};
const optionsButton = h("button", { "data-testid": "nav-options", "aria-label": "Options", title: "Options", onclick: () => app.openOptions() });
optionsButton.innerHTML = ICONS.options;
optionsButton.append(h("span", { class: "nav-word" }, "Options"));
const header = h("header", { class: "top" }, brand, gameTitle,
  h("nav", { class: "top-nav", "aria-label": "Pages" }, balance,
    navLink("#/", "nav-lobby", ICONS.lobby, "Lobby"), navLink("#/history", "nav-history", ICONS.history, "History"), optionsButton));
const main = h("main", { style: "flex:1;display:flex;flex-direction:column" });
const error = h("div", { class: "message", role: "alert", hidden: true });
root.append(header, error, main);
session.subscribe((s) => {
  balance.textContent = formatMoney(s.balanceMinor, s.currency);
});

/** The Options dialog while it is open: a new page closes it (it stayed over the next page). */
let optionsDialog: HTMLElement | null = null;

const app: AppContext = {
  api, session, options, sound,
  games: () => (gamesCache ??= api.games().then((r) => r.games, (exc) => { gamesCache = null; throw exc; })),
  navigate: (hash) => { location.hash = hash; },
  openOptions: () => {
    if (optionsDialog) return; // one dialog at a time
    optionsDialog = openOptions(options, () => { optionsDialog = null; });
  },
  heading: (title) => {
    clear(gameTitle);
    if (title) gameTitle.append(title);
    gameTitle.hidden = !title;
  },
};

async function connect(): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  const launch = params.get("launch");
  if (launch) {
    history.replaceState(null, "", "/" + (location.hash || "#/"));
    const opened = await api.openSession(launch);
    api.setToken(opened.session_token);
    session.applySession(opened.session_token, opened);
    return true;
  }
  const saved = session.savedToken();
  if (!saved) return false;
  api.setToken(saved);
  try {
    session.applySession(saved, await api.session());
    return true;
  } catch (exc) {
    if (exc instanceof ApiError && exc.status === 401) {
      session.forget();
      api.setToken(null);
      return false;
    }
    throw exc;
  }
}

let screen: Screen | null = null;
let routing = 0;

async function route(): Promise<void> {
  const ticket = ++routing;
  optionsDialog?.remove();
  optionsDialog = null;
  screen?.destroy();
  screen = null;
  error.hidden = true;
  clear(main);
  app.heading(null);
  const [, page = "", arg = ""] = (location.hash || "#/").split("/");
  header.dataset.page = page || "lobby";
  try {
    let next: Screen;
    if (!session.state) next = mountWelcome(main);
    else if (page === "game") {
      // A fresh session view: the open rounds to recover are the server's, as of now.
      session.applySession(session.state.token, await api.session());
      next = await mountGame(main, app, decodeURIComponent(arg));
    } else if (page === "history") next = await mountHistory(main, app);
    else if (page === "info") next = await mountInfo(main, app, decodeURIComponent(arg));
    else next = await mountLobby(main, app);
    if (ticket !== routing) next.destroy();
    else screen = next;
  } catch (exc) {
    console.error(exc);
    showError(error, exc);
  }
  document.body.dataset.ready = "true";
}

window.addEventListener("hashchange", () => void route());
connect().then(() => route(), (exc) => { showError(error, exc); document.body.dataset.ready = "true"; mountWelcome(main); });
