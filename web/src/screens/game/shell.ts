// The generic game screen: the console bar (the balance, in currency or credits at a tap, or a
// credits game's credits with the money under them; the
// bet controls from the server's bet options with the denomination under them; PLAY; the win
// meter; the jackpot meter; the info button with the RTP and the way to the paytable), the
// choice area, and the round itself: flow idle -> request -> play -> settle | choice, the outcome
// checked against the schema and played by the game module's handlers. The client decides
// nothing: amounts, balance and what may be chosen are the server's.
import { Autoplay, DEFAULT_ROUNDS, ROUND_CHOICES, autoplayRefusal, limitMinor, type LimitUnit } from "../../core/autoplay";
import { Flow } from "../../core/flow";
import { creditsAndMoney, creditsMoney, creditsOf, decimalsOf, formatCredits, formatMoney, formatPercent } from "../../core/money";
import { buyQuestion, costNote, modeLabel, modeTitle, type ModeView } from "../../core/modes";
import { validateOutcome, type Outcome } from "../../core/outcome";
import { EventPlayer } from "../../core/player";
import { forgetProgress, loadProgress, saveProgress } from "../../core/progress";
import { gamePool, JACKPOT_REFRESH_MS, jackpotMeter } from "../../core/jackpot-meter";
import { withTimeout } from "../../core/timing";
import { ApiError } from "../../net/api";
import type { BetOption, RoundView, StepChoice } from "../../net/types";
import { Stage } from "../../render/app";
import { PROFILES } from "../../render/quality";
import type { Sfx } from "../../render/sound";
import { celebrationCount, celebrationLines, gambleBonusCost, maySound, winTier } from "../../core/celebration";
import { winCycleOf } from "../../core/win-cycle";
import { celebrate, reducedMotion } from "../../ui/moment";
import { rememberTurbo, turboRemembered } from "../../core/turbo";
import { clear, h, showError } from "../../ui/dom";
import { introDue, showIntro } from "../../ui/intro";
import { mountSessionClock } from "../../ui/sessionClock";
import type { AppContext, Screen } from "../context";
import { recallBet, rememberBet } from "../info/current-bet";
import { artReady } from "./art";
import { betOptionLabel } from "./bet-words";
import { betTooHigh, outOfFunds, type FundsNotice } from "./funds";
import { stepEndNotice } from "./step-end";
import { CAPTION_FAST_MS, CAPTION_MS, PixiSlotView, genericHandlers } from "./generic";
import { genericHooks, gridMultipliersAfter } from "./handlers";
import { moduleFor, type BetControls, type ChoiceScreen, type GameModule, type SlotView } from "./registry";

const FINISHED = new Set(["closed", "cancelled"]);
/** The WIN meter with nothing won: at rest and after a losing round alike. */
export const IDLE_METER = "—";
/** What a reload says in every game, whether the round waits at a choice or plays on. */
export const RECOVERED = "Your unfinished round is back where you left it.";

/** The balance before a round the server has played paid its win (the server's balance less
 * the round's win once it is closed; an open round's win is not yet paid). */
export function beforePaid(round: Pick<RoundView, "status" | "balance_minor" | "win_minor">): number {
  return FINISHED.has(round.status) ? round.balance_minor - (round.win_minor ?? 0) : round.balance_minor;
}
const CELEBRATING = new Set<Sfx>(["win", "bigwin", "megawin", "epicwin"]);

/** The offered choice that takes the win held at a choice (the gamble's or the wheels' collect),
 * if the round offers one: what PLAY, Space, autoplay and the operator's timeout choose. */
export function collectOf(round: Pick<RoundView, "choice"> | null): { kind: string; choice: StepChoice } | null {
  for (const [kind, options] of Object.entries(round?.choice?.choices ?? {})) {
    const found = options.find((o) => (Array.isArray(o) ? o.length === 1 && o[0] === "collect" : o === "collect"));
    if (found !== undefined) return { kind, choice: found as StepChoice };
  }
  return null;
}

/** Whether a step is the collect of a held win (`"collect"` or `["collect"]`). */
function isCollect(choice: unknown): boolean {
  return choice === "collect" || (Array.isArray(choice) && choice.length === 1 && choice[0] === "collect");
}

/** A step's button: one word for taking the win in every game and every choice (COLLECT, the
 * word of both rule sheets for it: Cops' "COLLECT" button, Cluedo's "TAKE WIN ... to collect
 * all of your winnings"; COLLECT & PLAY on the PLAY button). */
export function choiceLabel(kind: string, choice: unknown): string {
  const text = Array.isArray(choice) ? choice.join(" ") : String(choice);
  const words: Record<string, string> = { red: "RED", black: "BLACK", half: "TAKE HALF", collect: "COLLECT", play: "PLAY", decline: "NO THANKS" };
  return words[text] ?? text.toUpperCase();
}

export async function mountGame(host: HTMLElement, app: AppContext, key: string): Promise<Screen> {
  const games = await app.games();
  const game = games.find((g) => g.key === key);
  if (!game) throw new ApiError(404, "UNKNOWN_GAME", `no game ${key} for this session`);
  const module: GameModule = moduleFor(game) ?? { key, status: "todo", handlers: genericHandlers };
  const session = app.session.state;
  if (!session) throw new ApiError(401, "UNAUTHORIZED", "no session");
  const rules = session.jurisdiction;
  const currency = game.currency;
  const denomination = game.denomination;

  const flow = new Flow();

  // --- DOM ---------------------------------------------------------------------------------
  const stageHost = h("div", { class: "stage", "data-testid": "stage" });
  const overlay = h("div", { class: "stage-overlay", style: "position:absolute;inset:0;pointer-events:none" });
  // Where the reels' window is (the layout tests read it; decorations use the CSS variables).
  const windowMarker = h("div", { class: "reels-window", "data-testid": "reels-window", "aria-hidden": "true" });
  overlay.append(windowMarker);
  stageHost.append(overlay);
  const balanceMoney = h("output", { class: "balance", "data-testid": "balance" });
  const balanceCredits = h("output", { "data-testid": "credits" });
  const winOut = h("output", { "data-testid": "win" }, IDLE_METER);
  const spinInfo = h("output", { "data-testid": "spin-info" });
  const betOut = h("output", { "data-testid": "bet", class: "bet-total" });
  const message = h("div", { class: "message", role: "alert", "data-testid": "message", hidden: true });
  // The bet costs more than the balance, a smaller bet would be paid: said on the notice line
  // (PLAY and AUTO are greyed, and a phone shows no title), with the bet one tap lowers it to.
  const betNoteText = h("span", { "data-testid": "bet-note-text" });
  const betNoteButton = h("button", { class: "bet-note-lower", "data-testid": "bet-note-lower" });
  const betNote = h("div", { class: "bet-note", role: "status", "data-testid": "bet-note", hidden: true }, betNoteText, betNoteButton);
  const choiceArea = h("div", { class: "choice", "data-testid": "choice", hidden: true, "aria-label": "Choice" });
  const jackpotOut = h("output", { "data-testid": "jackpot" });
  // After a claim, under the meter: what was just won (the pool restarts at its seed, which can
  // be a cent under the win: alone, the meter read as stale).
  const jackpotWon = h("span", { class: "jackpot-won", "data-testid": "jackpot-won", hidden: true });
  const bets = [...game.bets].sort((a, b) => a.stake_credits - b.stake_credits);
  const modes = game.modes;
  // The bet this tab last chose in this game (lines, bet per line, mode), kept across the info
  // page, the lobby, the back button and a reload: a playtest's BET MAX came back as the default
  // after reading the rules, the jackpot's eligibility silently gone. Else the game's default.
  const recalled = recallBet(sessionStorage, key);
  const indexOf = (b: { lines: number; bet_per_line: number } | null | undefined) => (b ? bets.findIndex((o) => o.lines === b.lines && o.bet_per_line === b.bet_per_line) : -1);
  let betIndex = Math.max(0, indexOf(recalled) >= 0 ? indexOf(recalled) : indexOf(game.default_bet));
  let mode = recalled && modes.some((m) => m.name === recalled.mode) ? recalled.mode : modes[0]?.name ?? "base";
  const betSelect = h("select", { "aria-label": "Bet", "data-testid": "bet-select" });
  const playButton = h("button", { class: "play", "data-testid": "play", "aria-keyshortcuts": "Space" }, "PLAY");
  let startable = false; // whether a round may start now (render says); PLAY is also greyed under autoplay
  const minus = h("button", { "aria-label": "Lower bet", "data-testid": "bet-minus" }, "−");
  const plus = h("button", { "aria-label": "Raise bet", "data-testid": "bet-plus" }, "+");
  const modeSelect = modes.length > 1 && !module.betControls ? h("select", { "aria-label": "Mode", "data-testid": "mode" }) : null;
  const turbo = rules.turbo ? h("input", { type: "checkbox", "aria-label": "Turbo", "data-testid": "turbo" }) : null;
  if (turbo) {
    turbo.checked = turboRemembered(sessionStorage);
    turbo.addEventListener("change", () => rememberTurbo(sessionStorage, turbo.checked));
  }
  const autoplay = new Autoplay();
  // The button keeps the width of its longest words (style.css), so a count going from 100 to 7
  // (or AUTO turning into STOP AUTO) never moves TURBO and the i button; a phone, with less room
  // beside PLAY, shows the shorter words (STOP 7).
  const phone = matchMedia("(max-width: 600px)");
  const autoButton = rules.autoplay ? h("button", { class: "auto", "data-testid": "autoplay", "aria-haspopup": "dialog" }, "AUTO") : null;
  // over the idle reels, above the console (style.css): opening it never moves them
  const autoPanel = h("div", { class: "auto-panel", role: "dialog", "aria-label": "Autoplay", "data-testid": "autoplay-panel", "data-layout": "over-reels", hidden: true });
  const rtpOf = (m: string) => game.rtp.find((r) => r.mode === m) ?? game.rtp.find((r) => r.mode === "base") ?? game.rtp[0];
  const rtpOut = h("output", { "data-testid": "rtp" }, "—");
  // The balance in currency, or in credits at a tap (one figure at a time, as a cabinet's meter).
  // A game that counts in credits (Cluedo's sheet) shows its credits with the money under them.
  // The label is the same in every game (the playtest read "DEMO CREDITS" in Cluedo beside
  // "DEMO BALANCE" in the others): the figure names its unit.
  const inCredits = module.units === "credits";
  const creditsFigure = h("span", { class: "balance-credits" }, balanceCredits, h("span", { class: "unit" }, " credits"));
  const balanceMeter = inCredits
    ? h("span", { class: "meter-both", "data-testid": "balance-meter" }, creditsFigure, balanceMoney)
    : h("span", { class: "meter-toggle", role: "button", tabindex: "0", "data-testid": "balance-toggle", "aria-label": "Balance: show in credits", title: "Show in credits" }, balanceMoney, creditsFigure);
  // Free play (GLI-19 4.9.1, standards.md I12): the meter says it holds play money.
  const demo = session.demo;
  const balanceLabel = h("span", { class: "label", "data-testid": "balance-label", ...(demo ? { "data-demo": "", title: "Free play: play money, not a real-money balance" } : {}) }, demo ? "Demo balance" : "Balance");
  const showCredits = (on: boolean) => {
    creditsFigure.hidden = !on;
    balanceMoney.hidden = on;
    balanceMeter.setAttribute("aria-label", on ? "Balance in credits: show in currency" : "Balance: show in credits");
    balanceMeter.title = on ? "Show in currency" : "Show in credits";
  };
  if (!inCredits) {
    showCredits(false);
    balanceMeter.addEventListener("click", () => showCredits(creditsFigure.hidden));
    balanceMeter.addEventListener("keydown", (e) => { if (e.key === "Enter") showCredits(creditsFigure.hidden); });
  }
  // The RTP (a regulator's must, one tap away) and the way to the paytable and rules.
  const infoButton = h("button", { class: "tool info-button", "data-testid": "game-info", "aria-label": "Game information and RTP", "aria-haspopup": "dialog", "aria-expanded": "false", title: "Game information" }, "i");
  const rtpLabel = h("span", { class: "label", "data-testid": "rtp-label" }, "Return to player");
  const rtpOthers = h("span", { class: "rtp-modes", "data-testid": "rtp-modes" });
  const infoPanel = h("div", { class: "info-pop", role: "dialog", "aria-label": "Game information", "data-testid": "info-panel", hidden: true },
    h("p", { class: "info-pop-rtp" }, rtpLabel, rtpOut, rtpOthers),
    h("a", { href: `#/info/${encodeURIComponent(key)}`, "data-testid": "nav-info", class: "info-pop-link" }, "Paytable, rules and RTP ›"));
  const toggleInfo = (open = infoPanel.hidden) => {
    infoPanel.hidden = !open;
    infoButton.setAttribute("aria-expanded", String(open));
  };
  infoButton.addEventListener("click", () => toggleInfo());
  infoPanel.addEventListener("keydown", (e) => { if (e.key === "Escape") { toggleInfo(false); infoButton.focus(); } });
  // The panel lies over the reels' corner: a playtest saw it stay open through every spin,
  // Esc not closing it (the focus stays on the "i" button). Esc anywhere, a press outside it
  // (and outside its button, which toggles it) and a spin close it.
  const onInfoKey = (e: KeyboardEvent) => { if (e.key === "Escape" && !infoPanel.hidden) toggleInfo(false); };
  const onInfoPress = (e: Event) => {
    if (infoPanel.hidden || !(e.target instanceof Node) || infoPanel.contains(e.target) || infoButton.contains(e.target)) return;
    toggleInfo(false);
  };
  document.addEventListener("keydown", onInfoKey);
  document.addEventListener("pointerdown", onInfoPress);

  const field = (label: string, ...content: (Node | string)[]) => h("div", { class: "field" }, h("span", { class: "label" }, label), ...content);
  const spinField = field("Spins", spinInfo); // shown only while it counts free spins or a bonus
  spinField.hidden = true;
  const changeListeners = new Set<() => void>();
  // A notice over the reels the player must answer (role=alertdialog): PLAY, AUTO and the bet
  // wait for it (the screen is built below; the bet controls ask before).
  let screenEl: HTMLElement | null = null;
  const modalUp = () => screenEl?.querySelector("[role=alertdialog]:not([hidden])") != null;
  const controls: BetControls = {
    bets,
    selected: () => bets[betIndex] as BetOption,
    select: (wanted) => {
      const i = bets.findIndex((b) => b.lines === wanted.lines && b.bet_per_line === wanted.bet_per_line);
      if (i < 0 || !controls.enabled()) return false;
      betIndex = i;
      betSelect.value = String(i);
      render();
      return true;
    },
    modes,
    mode: () => mode,
    selectMode: (name) => {
      if (!modes.some((m) => m.name === name) || !controls.enabled()) return false;
      mode = name;
      render();
      return true;
    },
    balanceCredits: () => creditsOf(app.session.state?.balanceMinor ?? 0, denomination),
    // not between autoplay's rounds either: they play at the bet autoplay started with
    // nor behind a notice the player must answer (Cluedo's jackpot)
    enabled: () => flow.state === "idle" && !autoplay.running && !modalUp(),
    onChange: (l) => { changeListeners.add(l); return () => changeListeners.delete(l); },
  };
  // The denomination, once, where the bet is chosen.
  // where the mode costs other than the stake (a buy): what the cost under the bet is
  const costLine = h("span", { class: "denomination cost-note", "data-testid": "cost-note", hidden: true });
  const denom = h("span", { class: "denomination", "data-testid": "denomination" }, `1 credit = ${formatMoney(denomination, currency)}`);
  const betField = module.betControls
    ? h("div", { class: "field bet-field" }, module.betControls(controls, game), betOut, denom)
    : h("div", { class: "field bet-field" }, h("span", { class: "label" }, "Bet"), h("span", {}, minus, " ", betSelect, " ", plus), betOut, costLine, denom);
  const consoleBar = h("div", { class: "console", role: "group", "aria-label": "Console" },
    h("div", { class: "console-meters" }, h("div", { class: "field balance-field" }, balanceLabel, balanceMeter),
      field("Win", winOut), game.jackpot ? field("Jackpot", jackpotOut, jackpotWon) : "", spinField),
    h("div", { class: "console-bet" }, betField, modeSelect ? field("Mode", modeSelect) : ""),
    playButton,
    h("div", { class: "console-tools" }, infoButton,
      turbo ? h("label", { class: "tool turbo-toggle" }, turbo, h("span", {}, "Turbo")) : "",
      autoButton ?? ""));
  const hud = h("div", { class: "hud" }, message, betNote, choiceArea, autoPanel, infoPanel, consoleBar);
  const sessionClock = mountSessionClock(app, hud, consoleBar); // GB only (C6)
  // The game's name or logo: in the page header (the reels keep the stage's height).
  // the game's own name, whichever screen draws it (a lab game on the generic screen too: a
  // player never reads "(generic screen)"; data-status tells the tests)
  const title = h("h1", { class: "game-title", "data-testid": "game-title", "data-status": module.status }, game.title);
  if (module.theme?.logo) {
    // Our own markup from the bundle, never data from a request.
    const logo = h("span", { class: "logo", "aria-hidden": "true" });
    logo.innerHTML = module.theme.logo;
    title.classList.add("has-logo");
    title.append(logo);
  }
  const screen = h("section", { class: `game theme-${module.key}`, "data-testid": `game-${key}`, "data-module": module.status, "aria-label": game.title },
    stageHost, hud);
  screenEl = screen;
  app.heading(title);
  clear(host);
  host.append(screen);
  for (const [i, b] of bets.entries()) betSelect.append(h("option", { value: String(i) }, betOptionLabel(b, game.info)));
  betSelect.value = String(betIndex);
  // Each mode named with its price and what a round costs at the bet chosen (re-labelled by
  // render as the bet changes); a mode the bet cannot play is shown, not offered.
  const modeOptions = new Map<string, HTMLOptionElement>();
  if (modeSelect) for (const m of modes) {
    const option = h("option", { value: m.name, "data-testid": `mode-${m.name}` }) as HTMLOptionElement;
    modeOptions.set(m.name, option);
    modeSelect.append(option);
  }

  // --- Pixi --------------------------------------------------------------------------------
  app.sound.setTheme(module.key); // the game's own music and effects while its screen is up
  const stage = new Stage(stageHost, app.options.get().quality);
  await Promise.all([stage.init(), artReady(module)]);
  stageHost.insertBefore(stage.app.canvas, overlay);
  // The WIN meter counts up to each new running total (a win during tumbles and free spins adds
  // to what it shows); a lower value (a new round's 0, a gamble's stake) is shown at once, and
  // the round's end settles it on the server's total before anything reads it.
  let meterShown = 0, meterFrame = 0, meterSettle: ReturnType<typeof setTimeout> | undefined;
  // Nothing won reads as the idle meter's dash (a playtest read "WIN 0 (€0.00)" after a loss).
  const showMeter = (c: number) => { winOut.textContent = c === 0 ? IDLE_METER : creditsAndMoney(c, module.units === "credits" ? undefined : creditsMoney({ denomination, currency })); };
  const setMeter = (c: number, instant = false) => {
    cancelAnimationFrame(meterFrame);
    clearTimeout(meterSettle);
    const from = meterShown;
    meterShown = c;
    const settle = () => { cancelAnimationFrame(meterFrame); winOut.classList.remove("counting"); showMeter(c); };
    if (instant || c <= from) { settle(); return; }
    // in step with the win's caption: the count ends within it (a caption waits for the frame
    // that lights its cells), and a timer settles it where frames come slowly (the playtest's
    // software-rendered browser left WIN at 0 under a caption naming a win)
    const ms = turbo?.checked ? CAPTION_FAST_MS : Math.min(CAPTION_MS - 100, 400 + 60 * Math.log2(1 + c - from));
    meterSettle = setTimeout(settle, ms);
    const started = performance.now();
    winOut.classList.add("counting");
    const tick = () => {
      const k = Math.min(1, (performance.now() - started) / ms);
      showMeter(Math.round(from + (c - from) * (1 - (1 - k) ** 2)));
      if (k < 1) meterFrame = requestAnimationFrame(tick);
      else winOut.classList.remove("counting");
    };
    tick();
  };
  const deps = {
    stage, game, overlay, symbols: module.symbols ?? {}, theme: module.theme,
    setWin: (c: number) => setMeter(c),
    setSpinInfo: (t: string) => { spinInfo.textContent = t; spinField.hidden = !t; },
    // No celebration of a win that does not exceed what the round cost (GB RTS 7B; a good
    // rule everywhere): the round's outcome says, before its events play.
    sound: (s: Sfx, detail?: number) => {
      if (!maySound(CELEBRATING.has(s), playing)) return;
      app.sound.play(s, detail);
    },
  };
  let playing: Outcome | null = null;
  // After a round, its winning lines cycle until the next spin (core/win-cycle.ts); still,
  // all at once, for a player who asks for reduced motion.
  const showWins = (outcome: (Pick<Outcome, "spins"> & Partial<Pick<Outcome, "total_win">>) | null) => {
    view.showWins?.(outcome ? winCycleOf(outcome, game.info.paylines ?? [], game.info.symbols) : null, reducedMotion(), outcome ?? undefined);
  };
  const view = module.createView ? module.createView(deps) : new PixiSlotView(deps, { winLabelsUnder: true });
  const hooks = module.hooks ?? genericHooks(game);
  let playingRoundId = "";
  let left = false; // the screen was destroyed (the player went elsewhere)
  const player = new EventPlayer<SlotView>(module.handlers(game), {
    ...hooks,
    beforeSpin: (spin, ctx) => {
      if (playingRoundId) saveProgress(sessionStorage, session.player, key, { round_id: playingRoundId, spin: ctx.outcome.spins.indexOf(spin), done: false });
      return hooks.beforeSpin?.(spin, ctx);
    },
  }, {
    // An animation that overruns on a slow device must not strand the round the server has
    // decided (a playtest on a software renderer saw "event window of spin 0: not done after
    // 10000 ms", then every PLAY refused until the round was finished): go on to its end.
    onLate: "continue",
    late: (exc) => console.warn(`reelforge: ${exc.message}; going on with the round`),
    live: () => !left, // a screen left mid-round stops drawing (the server holds the round)
  });
  screen.dataset.quality = app.options.get().quality; // a theme's CSS animations stand still at LOW
  const unsubQuality = app.options.subscribe((o) => {
    stage.setQuality(o.quality);
    screen.dataset.quality = o.quality;
    if (view instanceof PixiSlotView) view.reels.setProfile(PROFILES[o.quality]);
  });

  // --- state -------------------------------------------------------------------------------
  let intro: { close: () => void } | null = null; // the first visit's card over the reels
  let lastStart = 0;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let current: RoundView | null = null;
  const bet = (): BetOption => bets[betIndex] as BetOption;
  const price = () => bet().cost_minor[mode] ?? Infinity;
  const pendingMinor = () => (current ? current.pending_win_credits * current.denomination : 0);
  // The balance a player sees while a round plays: the stake taken at its start, the win added
  // when the round pays (finishRound hands the meter back to the server's balance). null: the
  // server's, as the session holds it.
  let staked: number | null = null;

  const render = () => {
    const s = app.session.state;
    const balance = s?.balanceMinor ?? 0;
    balanceMoney.textContent = formatMoney(staked ?? balance, currency);
    balanceCredits.textContent = formatCredits(creditsOf(staked ?? balance, denomination));
    betOut.textContent = Number.isFinite(price()) ? formatMoney(price(), currency) : "—";
    const chosen = modes.find((m) => m.name === mode);
    costLine.textContent = chosen && Number.isFinite(price()) ? costNote(chosen, bet().stake_credits * denomination, (minor) => formatMoney(minor, currency)) : "";
    costLine.hidden = !costLine.textContent;
    const waiting = Date.now() - lastStart < rules.min_round_interval_ms;
    const idle = flow.state === "idle";
    // At a choice that holds a win, PLAY takes the win and spins again.
    const collecting = flow.state === "choice" && collectOf(current) !== null;
    // A notice the player must answer over the reels (Cluedo's jackpot): PLAY waits for it
    // (the playtest saw PLAY lit behind "MEGAJACKPOT WON").
    const modal = modalUp();
    startable = (idle || collecting) && !waiting && !modal && Number.isFinite(price()) && price() <= balance + (collecting ? pendingMinor() : 0);
    // between autoplay's rounds PLAY is autoplay's, not the player's: greyed, as AUTO reads STOP
    playButton.disabled = !startable || autoplay.running;
    // What PLAY does at a held win is said on it: the win is taken, then the next round.
    playButton.classList.toggle("collects", collecting);
    playButton.textContent = collecting ? `${module.collectWord ?? "COLLECT"} & PLAY` : "PLAY";
    const betFixed = !controls.enabled(); // at rest and not between autoplay's rounds
    betSelect.disabled = minus.disabled = plus.disabled = betFixed;
    minus.disabled ||= betIndex === 0;
    plus.disabled ||= betIndex === bets.length - 1;
    if (modeSelect) {
      modeSelect.disabled = betFixed;
      for (const m of modes) {
        const option = modeOptions.get(m.name);
        const cost = bet().cost_minor[m.name];
        if (!option) continue;
        option.textContent = modeLabel(m, cost, (minor) => formatMoney(minor, currency));
        option.disabled = cost === undefined;
      }
      modeSelect.value = mode;
      screen.dataset.mode = mode;
    }
    const rtp = rtpOf(mode);
    rtpOut.textContent = rtp ? formatPercent(rtp.value) : "—";
    // with several modes, the figure says whose it is (94.15% alone read as the game's)
    const named = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
    rtpLabel.textContent = modes.length > 1 && chosen ? `Return to player (${named(modeTitle(chosen))})` : "Return to player";
    // The other modes' RTPs beside the one of the mode chosen (Fortune Spins pays its own).
    const others = modes.filter((m) => m.name !== mode).map((m) => [m.title, game.rtp.find((r) => r.mode === m.name)] as const).filter(([, r]) => r && r !== rtp);
    rtpOthers.textContent = others.map(([t, r]) => `${named(t)}: ${formatPercent((r as { value: number }).value)}`).join(" · ");
    screen.dataset.flow = flow.state;
    rememberBet(sessionStorage, key, { lines: bet().lines, bet_per_line: bet().bet_per_line, mode });
    module.betShown?.(bet(), mode, view);
    // at rest only: a round's staked balance, a choice or autoplay at work have their own words
    const tooHigh = idle && !autoplay.running ? betTooHigh(bets, bet(), mode, balance, (minor) => formatMoney(minor, currency)) : null;
    betNote.hidden = !tooHigh;
    if (tooHigh) {
      betNoteText.textContent = tooHigh.text;
      betNoteButton.textContent = tooHigh.button;
      betNoteButton.setAttribute("aria-label", tooHigh.label);
      betNoteButton.title = tooHigh.label;
      betNoteButton.onclick = () => { controls.select(tooHigh.lower); app.sound.play("click"); };
    }
    if (autoButton) {
      autoButton.textContent = !autoplay.running ? "AUTO" : phone.matches ? `STOP ${autoplay.remaining}` : `STOP AUTO (${autoplay.remaining})`;
      autoButton.setAttribute("aria-pressed", String(autoplay.running));
      // Off while the balance cannot pay a round at the bet (the reason in its title); on again
      // once it can (funds added, a smaller bet chosen).
      const refused = autoplay.running ? null : autoplayRefusal(balance, price(), (minor) => formatMoney(minor, currency));
      autoButton.disabled = !autoplay.running && (!idle || modal || refused !== null);
      autoButton.title = refused ?? (autoplay.running ? "Stop autoplay" : "Autoplay");
      if (refused) autoButton.dataset.refused = refused;
      else delete autoButton.dataset.refused;
      if (refused && !autoPanel.hidden) autoPanel.hidden = true;
    }
    for (const l of changeListeners) l();
  };
  flow.on(render);
  screen.addEventListener("reelforge:modal", render); // a view's notice opened or closed
  phone.addEventListener("change", render);
  const unsubSession = app.session.subscribe(render);

  const fail = (exc: unknown) => {
    if (left) return; // a round cut short by leaving its screen is not a fault to report
    autoplay.stop(); // the error says why
    clearTimeout(autoTimer);
    app.sound.play("error");
    showError(message, exc);
    console.error(exc);
    clear(choiceArea);
    choiceArea.hidden = true;
    staked = null; // the server holds the truth: its balance, as last told
    flow.reset();
  };

  let choiceScreen: ChoiceScreen | void = undefined;
  let choiceTimer: ReturnType<typeof setTimeout> | undefined;
  const offerChoices = (round: RoundView) => {
    clear(choiceArea);
    clearTimeout(choiceTimer);
    const choice = round.choice;
    if (!choice) return;
    const collect = collectOf(round);
    // The operator's timeout takes a held win the player leaves open (each offer restarts it).
    if (collect && game.choice_timeout_ms) {
      choiceTimer = setTimeout(() => { if (flow.state === "choice" && current === round) void step(round, collect.kind, collect.choice); }, game.choice_timeout_ms);
    }
    // Autoplay never gambles: it takes the win and goes on.
    if (autoplay.running) {
      if (collect) { queueMicrotask(() => void step(round, collect.kind, collect.choice)); return; }
      autoplay.stop();
      showNotice("Autoplay stopped: a choice is waiting.");
    }
    if (module.choices) {
      choiceScreen = module.choices(choiceArea, round, (kind, option) => void step(round, kind, option), game, (c) => view.setWin(c));
      choiceArea.hidden = false;
      return;
    }
    const state = choice.state as { amount?: number; history?: unknown[] } | null;
    choiceArea.append(h("span", { "data-testid": "choice-amount" },
      `At stake: ${formatCredits(state?.amount ?? round.pending_win_credits)} credits`,
      state?.history?.length ? ` · history: ${state.history.join(" ")}` : ""));
    for (const [kind, options] of Object.entries(choice.choices)) {
      for (const option of options) {
        choiceArea.append(h("button", { "data-kind": kind, "data-choice": JSON.stringify(option), onclick: () => void step(round, kind, option as StepChoice) }, choiceLabel(kind, option)));
      }
    }
    choiceArea.hidden = false;
    (choiceArea.querySelector("button") as HTMLButtonElement | null)?.focus();
  };

  let pollMeter: (() => Promise<void>) | null = null;
  const finishRound = async (round: RoundView) => {
    current = round;
    // Spin Chance's funded round (the server played it): its stake stays taken, its win unpaid,
    // until it has played on screen.
    let funded: RoundView | null = null;
    if (FINISHED.has(round.status) && round.next_round_id) {
      try { funded = await app.api.round(round.next_round_id); } catch (exc) { staked = null; app.session.applyRound(round); throw exc; }
    }
    staked = funded ? beforePaid(funded) : null;
    app.session.applyRound(round);
    module.roundShown?.(round, view);
    if (round.outcome) saveProgress(sessionStorage, session.player, key, { round_id: round.round_id, spin: Math.max(0, round.outcome.spins.length - 1), done: true });
    if (round.jackpot_claim) {
      // the pool was claimed and reseeded: read it now, and say the win beside it
      const claimed = (round.jackpot_claim as { amount_minor?: unknown }).amount_minor;
      if (typeof claimed === "number") {
        jackpotWon.textContent = `Won ${formatMoney(claimed, currency)} · new pool`;
        jackpotWon.hidden = false;
      }
    }
    // the round's stake fed the pool (and a claim reseeded it): the meter reads it now
    if (round.outcome) void pollMeter?.();
    if (FINISHED.has(round.status)) {
      flow.to("settle");
      clearTimeout(choiceTimer);
      clear(choiceArea);
      choiceArea.hidden = true;
      if (round.win_minor !== null) view.setWin(creditsOf(round.win_minor, round.denomination));
      if (funded) {
        // Spin Chance's funded round: the server played it; show it too. It is the next spin:
        // what the console said of the round before goes as it starts, as PLAY clears it.
        clearNotice();
        flow.to("idle");
        flow.to("play");
        await playRound(funded);
        return;
      }
      flow.to("idle");
      continueAutoplay(round);
    } else if (round.choice) {
      flow.to("choice");
      offerChoices(round);
    } else {
      flow.to("settle");
      flow.to("idle");
    }
  };

  let autoTimer: ReturnType<typeof setTimeout> | undefined;
  const continueAutoplay = (round: RoundView) => {
    if (!autoplay.running) return;
    const stopped = autoplay.after({
      outcome: playing, winMinor: round.win_minor ?? 0, balanceMinor: round.balance_minor,
      nextStakeMinor: price(), choiceLeft: false,
    });
    render();
    if (stopped) showNotice(`Autoplay stopped: ${stopped}.`);
    else autoTimer = setTimeout(() => void spin(true), Math.max(400, rules.min_round_interval_ms + 50));
  };
  const showNotice = (text: string, more?: FundsNotice | null) => {
    message.textContent = more ? `${text} ${more.text}` : text;
    if (more?.link) message.append(" ", h("a", { href: more.link.href, "data-testid": "funds-link" }, more.link.text), ".");
    message.dataset.kind = "notice";
    message.hidden = false;
  };
  // what the console said goes once the next thing starts (PLAY, a step, a funded spin)
  const clearNotice = () => {
    message.hidden = true;
    delete message.dataset.kind;
  };

  const playRound = async (round: RoundView, fromSpin = 0) => {
    const outcome = validateOutcome(round.outcome);
    playing = outcome;
    playingRoundId = round.round_id;
    const won = await player.play(view, outcome, { fromSpin, fast: turbo?.checked ?? false });
    view.setWin(won);
    if (!(await module.roundPlayed?.(round, view))) await celebrateRound(outcome);
    showWins(outcome);
    await finishRound(round);
  };

  // After the round's events, before any choice is offered: the celebration its total earns
  // (core/celebration.ts; none at or below the cost), the meter settled on the total first.
  const celebrateRound = async (outcome: Outcome, fast = turbo?.checked ?? false, against?: number) => {
    setMeter(meterShown, true);
    // A bonus won at a gamble costs nothing itself: it is measured against what was gambled for
    // it (`against`, gambleBonusCost), or the round's stake.
    const cost = against ?? (outcome.bet.cost > 0 ? outcome.bet.cost : outcome.bet.stake);
    const tier = winTier(outcome.total_win, cost);
    if (!tier) return;
    // a capped round the view celebrated with its own MAX WIN moment: the tier would say the
    // same amount a second time, smaller
    if (outcome.win_capped && (view as SlotView).celebratesCap) return;
    deps.sound(tier === "big" ? "bigwin" : tier === "mega" ? "megawin" : "epicwin");
    await celebrate(overlay, { total_win: outcome.total_win, cost }, {
      fast, particles: PROFILES[app.options.get().quality].particles,
      format: (c) => formatCredits(c), still: celebrationCount(outcome).still,
      lines: celebrationLines(outcome, cost, formatMoney(outcome.total_win * denomination, currency), against !== undefined, formatCredits),
    });
  };

  // The buy's confirmation, beside the console (the reels stay in view): BUY or CANCEL,
  // Escape cancels. Resolves true only for BUY.
  let buying = false;
  const confirmBuy = (chosen: ModeView, costMinor: number) => new Promise<boolean>((resolve) => {
    buying = true;
    const yes = h("button", { class: "primary", "data-testid": "buy-confirm" }, `BUY FOR ${formatMoney(costMinor, currency)}`);
    const no = h("button", { "data-testid": "buy-cancel" }, "CANCEL");
    const box = h("div", { class: "buy-confirm", role: "dialog", "aria-modal": "false", "aria-label": `${modeTitle(chosen)}: confirm the cost`, "data-testid": "buy-dialog" },
      h("p", {}, buyQuestion(chosen, costMinor, (minor) => formatMoney(minor, currency))), h("div", { class: "buy-buttons" }, yes, no));
    const done = (ok: boolean) => { buying = false; box.remove(); resolve(ok); playButton.focus(); };
    yes.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    box.addEventListener("keydown", (e) => { if (e.key === "Escape") done(false); });
    hud.insertBefore(box, consoleBar);
    yes.focus();
  });

  const spin = async (byAutoplay = false) => {
    if (autoplay.running && !byAutoplay) return; // PLAY and Space wait for autoplay's STOP
    clearTimeout(autoTimer);
    toggleInfo(false); // the panel covers the reels' corner
    if (!startable) return;
    intro?.close(); // PLAY beside the intro card: the player has read enough
    // A win held at a choice: PLAY takes it first (the server's collect), then spins.
    if (flow.state === "choice") {
      const collect = collectOf(current);
      if (!current || !collect) return;
      await step(current, collect.kind, collect.choice);
      if ((flow.state as string) !== "idle" || !startable) return;
    }
    if (flow.state !== "idle") return;
    // A buy costs many stakes: the player confirms its cost before every one (autoplay stops).
    const chosen = modes.find((m) => m.name === mode);
    if (chosen?.buy_spins) {
      autoplay.stop();
      if (buying) return;
      if (!(await confirmBuy(chosen, price()))) return;
      if ((flow.state as string) !== "idle" || !startable) return;
    }
    clearNotice();
    app.sound.unlock();
    staked = (app.session.state?.balanceMinor ?? 0) - price(); // taken as PLAY is pressed, as on any slot
    flow.to("request");
    autoplay.took();
    lastStart = Date.now();
    if (rules.min_round_interval_ms) waitTimer = setTimeout(render, rules.min_round_interval_ms + 20);
    deps.setWin(0);
    deps.setSpinInfo("");
    jackpotWon.hidden = true;
    view.spinStart();
    try {
      const round = await app.api.bet(key, { lines: bet().lines, bet_per_line: bet().bet_per_line, mode });
      flow.to("play");
      await playRound(round);
    } catch (exc) {
      if (left) return;
      view.show(view.current());
      fail(exc);
    }
  };

  const step = async (round: RoundView, kind: string, choice: StepChoice) => {
    if (flow.state !== "choice") return;
    clearTimeout(choiceTimer);
    app.sound.play(kind === "gamble" || kind.includes("wheel") ? "gamble" : "click");
    flow.to("request");
    // what the console said before the player acted (the recovery notice, stayed on through a
    // whole gamble) is stale once a step is sent: its end says its own
    clearNotice();
    choiceArea.querySelectorAll("button").forEach((b) => (b.disabled = true));
    // A gamble's step puts the win at stake: the lines' amounts are no longer what it holds.
    if (!isCollect(choice)) showWins(null);
    try {
      const next = await app.api.step(round.round_id, kind, choice);
      if (choiceScreen?.answered) await withTimeout(choiceScreen.answered(next), 10000, `the ${kind} step's animation`);
      // What a step left at stake is the win meter's (TAKE HALF paid the rest to the balance).
      if (!FINISHED.has(next.status)) view.setWin(next.pending_win_credits);
      // A choice that won a bonus (Cops n Robbers' bonus wheel): the server played it; show it.
      const bonus = next.steps.find((s) => s.index === Math.max(...next.steps.map((x) => x.index)))?.result.bonus_outcome;
      if (bonus) {
        // the gamble is over (the step's result is final): its greyed panel leaves the bonus
        // the screen (on a phone it squeezed the reels through the whole chase); the reels
        // refit once, as the bonus starts, not while a panel opens under them
        choiceArea.hidden = true;
        flow.to("play");
        const outcome = validateOutcome(bonus);
        playing = outcome;
        playingRoundId = ""; // the bonus is the step's outcome, not the round's: a reload offers the round as the server has it
        deps.setWin(0);
        view.setWin(await player.play(view, outcome, { fast: turbo?.checked ?? false }));
        const paid = next.win_minor === null ? null : creditsOf(next.win_minor, next.denomination);
        await celebrateRound(outcome, turbo?.checked ?? false, gambleBonusCost(outcome.bet.stake, round.pending_win_credits, paid, outcome.total_win));
        showWins(outcome);
      }
      const byAutoplay = autoplay.running; // autoplay says why it stops, not what a collect paid
      await finishRound(next);
      // The step ended the round: say what it paid, so a lost gamble is not a panel that vanished.
      // Not once a won Spin Chance has played its funded round (next_round_id): that spin is on
      // screen with its own win, and "The round paid ..." of the round before it was stale.
      if (FINISHED.has(next.status) && !byAutoplay && next.win_minor !== null && !next.next_round_id) {
        const paid = creditsOf(next.win_minor, next.denomination);
        const cheapest = Math.min(...bets.map((b) => b.cost_minor[mode] ?? Infinity));
        const broke = outOfFunds(app.session.state?.balanceMinor ?? next.balance_minor, cheapest, demo, session.operator, (minor) => formatMoney(minor, currency));
        // out of funds, what the player can do is the news: the loss is said in two words
        showNotice(choiceScreen?.summary?.(next) ?? stepEndNotice(kind, choice, paid, formatMoney(next.win_minor, currency), broke !== null), broke);
      }
    } catch (exc) {
      if (left) return;
      fail(exc);
      if (current) offerChoicesAfterError(current);
    }
  };
  const offerChoicesAfterError = (round: RoundView) => {
    if (!FINISHED.has(round.status) && round.choice && flow.state === "idle") {
      flow.to("choice");
      offerChoices(round);
    }
  };

  // --- controls ----------------------------------------------------------------------------
  playButton.addEventListener("click", () => void spin());
  betSelect.addEventListener("change", () => { betIndex = Number(betSelect.value); app.sound.play("click"); render(); });
  minus.addEventListener("click", () => { betIndex = Math.max(0, betIndex - 1); betSelect.value = String(betIndex); render(); });
  plus.addEventListener("click", () => { betIndex = Math.min(bets.length - 1, betIndex + 1); betSelect.value = String(betIndex); render(); });
  modeSelect?.addEventListener("change", () => { mode = modeSelect.value; render(); });
  // Space spins (or takes a held win and spins) whatever has the focus: a bet button just
  // clicked keeps the focus and must not swallow it. Inside a dialog, the autoplay panel or a
  // choice screen the focused control keeps its own Space.
  const ownSpace = (t: EventTarget | null) => t instanceof HTMLElement && (!!t.closest("[role=dialog], .choice, textarea, input[type=text], input[type=number]") || !screen.contains(t) && t !== document.body);
  const onKey = (e: KeyboardEvent) => {
    if ((e.code !== "Space" && e.key !== " ") || ownSpace(e.target)) return;
    e.preventDefault();
    if (!e.repeat) void spin();
  };
  // A button activates on Space's keyup: that click would be a second action.
  const onKeyUp = (e: KeyboardEvent) => {
    if ((e.code === "Space" || e.key === " ") && !ownSpace(e.target)) e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  document.addEventListener("keyup", onKeyUp);

  // --- autoplay (where the jurisdiction allows it) ------------------------------------------
  if (autoButton) {
    const rounds = h("select", { "aria-label": "Rounds", "data-testid": "autoplay-rounds" }, ...ROUND_CHOICES.map((n) => h("option", { value: String(n) }, String(n))));
    rounds.value = String(DEFAULT_ROUNDS);
    // The limits in the unit the game's meters count in (the playtest: Cluedo's in EUR beside
    // its credits), the money of credits typed said beside them.
    const unit: LimitUnit = inCredits ? { kind: "credits", denomination } : { kind: "money", decimals: decimalsOf(currency) };
    const limit = (label: string, testid: string) => {
      const input = h("input", { type: "number", min: "0", step: inCredits ? "1" : "0.01", inputmode: inCredits ? "numeric" : "decimal", placeholder: "no limit", "aria-label": label, "data-testid": testid }) as HTMLInputElement;
      if (!inCredits) return { input, field: input };
      const hint = h("span", { class: "auto-hint", "data-testid": `${testid}-money` });
      input.addEventListener("input", () => { const m = limitMinor(input.value, unit); hint.textContent = m === null ? "" : `= ${formatMoney(m, currency)}`; });
      return { input, field: h("span", { class: "auto-limit" }, input, hint) };
    };
    const { input: loss, field: lossField } = limit("Loss limit", "autoplay-loss");
    const { input: win, field: winField } = limit("Single win limit", "autoplay-win");
    const feature = h("input", { type: "checkbox", checked: true, "aria-label": "Stop on any feature", "data-testid": "autoplay-feature" });
    const row = (label: string, input: HTMLElement) => h("label", { class: "auto-row" }, h("span", {}, label), input);
    const toMinor = (input: HTMLInputElement) => limitMinor(input.value, unit);
    const close = () => { autoPanel.hidden = true; autoButton.focus(); };
    const start = h("button", { class: "play", "data-testid": "autoplay-start", onclick: () => {
      if (flow.state !== "idle" || autoplayRefusal(app.session.state?.balanceMinor ?? 0, price(), String) !== null) { close(); render(); return; }
      autoplay.start({ rounds: Number(rounds.value), lossLimitMinor: toMinor(loss), winLimitMinor: toMinor(win), stopOnFeature: feature.checked }, app.session.state?.balanceMinor ?? 0);
      autoPanel.hidden = true;
      render();
      void spin(true);
    } }, "START");
    autoPanel.append(h("strong", {}, "AUTOPLAY"),
      row("Rounds", rounds), row(`Stop if the balance falls by (${inCredits ? "credits" : currency})`, lossField), row(`Stop on a single win of (${inCredits ? "credits" : currency})`, winField),
      h("label", { class: "auto-row auto-check" }, feature, h("span", {}, "Stop on any feature")),
      h("div", { class: "auto-buttons" }, start, h("button", { "data-testid": "autoplay-cancel", onclick: close }, "CANCEL")));
    autoPanel.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
    autoButton.addEventListener("click", () => {
      if (autoplay.running) {
        autoplay.stop();
        clearTimeout(autoTimer);
        render();
        showNotice("Autoplay stopped: stopped by the player.");
        return;
      }
      autoPanel.hidden = !autoPanel.hidden;
      if (!autoPanel.hidden) rounds.focus();
    });
  }

  // --- jackpot meter -----------------------------------------------------------------------
  let meterTimer: ReturnType<typeof setInterval> | undefined;
  // the meter counts up to each pool the server reports, as a studio's ticks (core/jackpot-meter)
  const jackpotTicker = jackpotMeter((minor) => { jackpotOut.textContent = formatMoney(minor, currency); });
  if (game.jackpot) {
    const poll = async () => {
      try {
        const { jackpots } = await app.api.jackpots();
        // the game's own pool (catalog.pool_key: its title and currency), not one whose name
        // merely starts the same
        const pool = gamePool({ title: game.title, currency }, jackpots);
        if (pool) jackpotTicker.report(pool.amount_minor);
        else if (jackpotTicker.shown() === null) jackpotOut.textContent = "—";
      } catch { /* the meter keeps its last value; the next poll retries */ }
    };
    pollMeter = poll;
    void poll();
    // now and then, so other players' stakes show (and after each round, the player's own)
    meterTimer = setInterval(poll, JACKPOT_REFRESH_MS);
  }

  // --- layout: the reels above what the console (and an open choice) cover ---------------
  const relayout = () => {
    const stageBox = stageHost.getBoundingClientRect(), hudBox = hud.getBoundingClientRect();
    view.fitAbove?.(Math.max(0, stageBox.bottom - hudBox.top), 0);
    const r = view.windowRect?.();
    if (!r) return;
    for (const [name, value] of [["x", r.x], ["y", r.y], ["w", r.width], ["h", r.height]] as const) overlay.style.setProperty(`--reels-${name}`, `${Math.round(value)}px`);
    overlay.style.setProperty("--cover", `${Math.round(stageBox.bottom - hudBox.top)}px`);
    Object.assign(windowMarker.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` });
  };
  // In the observer's own callback (after layout, before paint): deferred to the next frame, a
  // choice panel that just opened was painted over the reels for one frame.
  const layoutObserver = new ResizeObserver(relayout);
  layoutObserver.observe(stageHost);
  layoutObserver.observe(hud);
  relayout();

  // --- recovery: the round as it was on screen, then what the server says is open ----------
  const lastScreen = (outcome: Outcome, upTo: number) => {
    for (let i = upTo; i >= 0; i--) {
      const shown = outcome.spins[i]?.events.filter((e) => e.type === "window" || e.type === "grid").pop() as { symbols: string[][] } | undefined;
      if (shown) return shown.symbols;
    }
    return null;
  };
  const recover = async () => {
    const open = session.openRounds.find((r) => r.game === key) ?? null;
    const saved = loadProgress(sessionStorage, session.player, key);
    let round: RoundView | null = open;
    // A round the server closed while this tab was still showing it (or the last one shown).
    if (!round && saved) round = await app.api.round(saved.round_id).catch(() => { forgetProgress(sessionStorage, session.player, key); return null; });
    if (!round?.outcome || flow.state !== "idle") return;
    const outcome: Outcome = validateOutcome(round.outcome);
    const mine = saved?.round_id === round.round_id;
    const last = outcome.spins.length - 1;
    const at = mine ? Math.min(saved.spin, last) : last;
    const symbols = lastScreen(outcome, at);
    if (symbols) view.show(symbols);
    view.setCellMultipliers?.(gridMultipliersAfter(outcome, at)); // a grid game's marks as they were
    // What was redrawn, for the recovery tests: the spin and its final screen.
    Object.assign(windowMarker.dataset, { recoveredSpin: String(at), recoveredSymbols: JSON.stringify(symbols) });
    // The bet shown is the round's (a reload must not show the default bet beside it), but
    // a round already over leaves the bet the player chose since (BET MAX after it stays).
    const unfinished = mine && !saved.done && at < last;
    if (open || unfinished || !recalled) {
      controls.select({ lines: round.bet.lines, bet_per_line: round.bet.bet_per_line });
      if (modes.some((m) => m.name === round.bet.mode)) mode = round.bet.mode;
    }
    current = round;
    if (open || unfinished) screen.dataset.recovered = round.round_id;
    module.roundShown?.(round, view);
    if (open || unfinished) showNotice(RECOVERED);
    if (unfinished) {
      staked = beforePaid(round); // what it pays is added as it ends on screen
      render();
      // The interrupted spin's final screen is up: play on from the next spin.
      view.setWin(outcome.spins.slice(0, at + 1).reduce((sum, sp) => sum + sp.win, 0));
      flow.to("play");
      playing = outcome;
      playingRoundId = round.round_id;
      const won = await player.play(view, outcome, { fromSpin: at + 1, fast: turbo?.checked ?? false });
      view.setWin(won);
      await celebrateRound(outcome);
      showWins(outcome);
      if (open) await finishRound(open);
      else {
        saveProgress(sessionStorage, session.player, key, { round_id: round.round_id, spin: last, done: true });
        staked = null;
        flow.to("settle");
        flow.to("idle");
      }
      return;
    }
    // A round still open: the lines the screen shows won, cycling again (none once a gamble
    // staked them), and its win at stake on the meter. A finished round (paid, from this visit
    // or an earlier one) leaves only its last screen: entering the game again, the playtest
    // read the last visit's win on the WIN meter as a win of this one.
    if (open) {
      if (round.steps.every((st) => isCollect(st.choice))) showWins({ spins: outcome.spins.slice(0, at + 1) });
      view.setWin(open.pending_win_credits);
      if (open.choice) {
        flow.to("choice");
        offerChoices(open);
      }
    }
  };
  void recover().catch(fail).finally(render);
  render();
  if (app.options.get().intro && introDue(localStorage, module.key)) {
    const card = showIntro(game, app, overlay, module.key, localStorage, module.introStart);
    intro = card;
    void card.done.then(() => { intro = null; playButton.focus(); });
  } else playButton.focus();

  return {
    destroy() {
      left = true;
      intro = null;
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("keyup", onKeyUp);
      document.removeEventListener("keydown", onInfoKey);
      document.removeEventListener("pointerdown", onInfoPress);
      layoutObserver.disconnect();
      cancelAnimationFrame(meterFrame);
      autoplay.stop();
      clearTimeout(autoTimer);
      clearTimeout(choiceTimer);
      clearTimeout(waitTimer);
      clearInterval(meterTimer);
      jackpotTicker.stop();
      unsubSession();
      phone.removeEventListener("change", render);
      sessionClock?.destroy();
      unsubQuality();
      view.destroy();
      stage.destroy();
      app.sound.setTheme(null);
    },
  };
}
