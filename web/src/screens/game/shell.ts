// The generic game screen: console (balance in currency and credits, denomination), bet
// controls from the server's bet options, PLAY, win meter, RTP, the jackpot meter, the choice
// area, and the round itself: flow idle -> request -> play -> settle | choice, the outcome
// checked against the schema and played by the game module's handlers. The client decides
// nothing: amounts, balance and what may be chosen are the server's.
import { Flow } from "../../core/flow";
import { creditsOf, formatCredits, formatMoney, formatPercent } from "../../core/money";
import { validateOutcome, type Outcome } from "../../core/outcome";
import { EventPlayer } from "../../core/player";
import { withTimeout } from "../../core/timing";
import { ApiError } from "../../net/api";
import type { BetOption, GameView, RoundView, StepChoice } from "../../net/types";
import { Stage } from "../../render/app";
import { PROFILES } from "../../render/quality";
import { clear, h, showError } from "../../ui/dom";
import { showIntro } from "../../ui/intro";
import type { AppContext, Screen } from "../context";
import { rememberBet } from "../info/current-bet";
import { PixiSlotView, genericHandlers } from "./generic";
import { moduleFor, type BetControls, type ChoiceScreen, type GameModule, type SlotView } from "./registry";

const FINISHED = new Set(["closed", "cancelled"]);

export function choiceLabel(kind: string, choice: unknown): string {
  const text = Array.isArray(choice) ? choice.join(" ") : String(choice);
  const words: Record<string, string> = { red: "RED", black: "BLACK", half: "TAKE HALF", collect: kind === "gamble" ? "TAKE WIN" : "COLLECT", play: "PLAY", decline: "NO THANKS" };
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
  const overlay = h("div", { style: "position:absolute;inset:0;pointer-events:none" });
  stageHost.append(overlay);
  const balanceMoney = h("output", { class: "balance", "data-testid": "balance" });
  const balanceCredits = h("output", { "data-testid": "credits" });
  const winOut = h("output", { "data-testid": "win" }, "0");
  const spinInfo = h("output", { "data-testid": "spin-info" });
  const betOut = h("output", { "data-testid": "bet" });
  const message = h("div", { class: "message", role: "alert", "data-testid": "message", hidden: true });
  const choiceArea = h("div", { class: "choice", "data-testid": "choice", hidden: true, "aria-label": "Choice" });
  const jackpotOut = h("output", { "data-testid": "jackpot" });
  const bets = [...game.bets].sort((a, b) => a.stake_credits - b.stake_credits);
  const modes = game.modes;
  let betIndex = Math.max(0, bets.findIndex((b) => game.default_bet && b.lines === game.default_bet.lines && b.bet_per_line === game.default_bet.bet_per_line));
  let mode = modes[0]?.name ?? "base";
  const betSelect = h("select", { "aria-label": "Bet", "data-testid": "bet-select" });
  const playButton = h("button", { class: "play", "data-testid": "play", "aria-keyshortcuts": "Space" }, "PLAY");
  const minus = h("button", { "aria-label": "Lower bet", "data-testid": "bet-minus" }, "−");
  const plus = h("button", { "aria-label": "Raise bet", "data-testid": "bet-plus" }, "+");
  const modeSelect = modes.length > 1 && !module.betControls ? h("select", { "aria-label": "Mode", "data-testid": "mode" }) : null;
  const turbo = rules.turbo ? h("input", { type: "checkbox", "aria-label": "Turbo", "data-testid": "turbo" }) : null;
  const rtpOf = (m: string) => game.rtp.find((r) => r.mode === m) ?? game.rtp.find((r) => r.mode === "base") ?? game.rtp[0];
  const rtpOut = h("output", { "data-testid": "rtp" }, "—");

  const field = (label: string, ...content: (Node | string)[]) => h("div", { class: "field" }, h("span", { class: "label" }, label), ...content);
  const changeListeners = new Set<() => void>();
  const controls: BetControls = {
    bets,
    selected: () => bets[betIndex] as BetOption,
    select: (wanted) => {
      const i = bets.findIndex((b) => b.lines === wanted.lines && b.bet_per_line === wanted.bet_per_line);
      if (i < 0 || flow.state !== "idle") return false;
      betIndex = i;
      betSelect.value = String(i);
      render();
      return true;
    },
    modes,
    mode: () => mode,
    selectMode: (name) => {
      if (!modes.some((m) => m.name === name) || flow.state !== "idle") return false;
      mode = name;
      render();
      return true;
    },
    balanceCredits: () => creditsOf(app.session.state?.balanceMinor ?? 0, denomination),
    enabled: () => flow.state === "idle",
    onChange: (l) => { changeListeners.add(l); return () => changeListeners.delete(l); },
  };
  const betField = module.betControls
    ? h("div", { class: "field" }, module.betControls(controls, game), betOut)
    : field("Bet", h("span", {}, minus, " ", betSelect, " ", plus), betOut);
  const consoleBar = h("div", { class: "console", role: "group", "aria-label": "Console" },
    field("Balance", balanceMoney), field("Credits", balanceCredits),
    field("Denomination", h("output", { "data-testid": "denomination" }, formatMoney(denomination, currency))),
    betField,
    modeSelect ? field("Mode", modeSelect) : "",
    playButton, field("Win", winOut), field("RTP", rtpOut),
    game.jackpot ? field("Jackpot", jackpotOut) : "",
    turbo ? field("Turbo", turbo) : "",
    field("Spins", spinInfo));
  const screen = h("section", { class: "game", "data-testid": `game-${key}`, "data-module": module.status, "aria-label": game.title },
    h("h1", {}, game.title, module.status === "todo" ? h("small", { style: "color:var(--muted);margin-left:8px" }, "(generic screen)") : ""),
    stageHost, h("div", { class: "hud" }, message, choiceArea, consoleBar));
  clear(host);
  host.append(screen);
  for (const [i, b] of bets.entries()) betSelect.append(h("option", { value: String(i) }, `${formatCredits(b.stake_credits)} credits (${b.lines} x ${b.bet_per_line})`));
  betSelect.value = String(betIndex);
  if (modeSelect) for (const m of modes) modeSelect.append(h("option", { value: m.name }, `${m.title} (x${m.price})`));

  // --- Pixi --------------------------------------------------------------------------------
  const stage = new Stage(stageHost, app.options.get().quality);
  await stage.init();
  stageHost.insertBefore(stage.app.canvas, overlay);
  const deps = {
    stage, game, overlay, symbols: module.symbols ?? {},
    setWin: (c: number) => { winOut.textContent = `${formatCredits(c)} (${formatMoney(c * denomination, currency)})`; },
    setSpinInfo: (t: string) => { spinInfo.textContent = t; },
    // No celebration of a win that does not exceed what the round cost (GB RTS 7B; a good
    // rule everywhere): the round's outcome says, before its events play.
    sound: (s: Parameters<SlotView["sound"]>[0]) => {
      if ((s === "win" || s === "bigwin") && playing && playing.total_win <= playing.bet.cost) return;
      app.sound.play(s);
    },
  };
  let playing: Outcome | null = null;
  const view = module.createView ? module.createView(deps) : new PixiSlotView(deps);
  const player = new EventPlayer<SlotView>(module.handlers(game), module.hooks ?? {
    beforeSpin: (spin, ctx) => { if (spin.kind !== "base") ctx.view.setSpinInfo(`${spin.kind} spin ${spin.index}`); },
  });
  const unsubQuality = app.options.subscribe((o) => {
    stage.setQuality(o.quality);
    if (view instanceof PixiSlotView) view.reels.setProfile(PROFILES[o.quality]);
  });

  // --- state -------------------------------------------------------------------------------
  let lastStart = 0;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let current: RoundView | null = null;
  const bet = (): BetOption => bets[betIndex] as BetOption;
  const price = () => bet().cost_minor[mode] ?? Infinity;

  const render = () => {
    const s = app.session.state;
    const balance = s?.balanceMinor ?? 0;
    balanceMoney.textContent = formatMoney(balance, currency);
    balanceCredits.textContent = formatCredits(creditsOf(balance, denomination));
    betOut.textContent = Number.isFinite(price()) ? formatMoney(price(), currency) : "—";
    const waiting = Date.now() - lastStart < rules.min_round_interval_ms;
    const idle = flow.state === "idle";
    playButton.disabled = !idle || waiting || !Number.isFinite(price()) || price() > balance;
    betSelect.disabled = minus.disabled = plus.disabled = !idle;
    minus.disabled ||= betIndex === 0;
    plus.disabled ||= betIndex === bets.length - 1;
    if (modeSelect) modeSelect.disabled = !idle;
    const rtp = rtpOf(mode);
    rtpOut.textContent = rtp ? formatPercent(rtp.value) : "—";
    screen.dataset.flow = flow.state;
    rememberBet(sessionStorage, key, { lines: bet().lines, bet_per_line: bet().bet_per_line, mode });
    for (const l of changeListeners) l();
  };
  flow.on(render);
  const unsubSession = app.session.subscribe(render);

  const fail = (exc: unknown) => {
    app.sound.play("error");
    showError(message, exc);
    console.error(exc);
    clear(choiceArea);
    choiceArea.hidden = true;
    flow.reset();
  };

  let choiceScreen: ChoiceScreen | void = undefined;
  const offerChoices = (round: RoundView) => {
    clear(choiceArea);
    const choice = round.choice;
    if (!choice) return;
    if (module.choices) {
      choiceScreen = module.choices(choiceArea, round, (kind, option) => void step(round, kind, option), game);
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
    app.session.applyRound(round);
    module.roundShown?.(round, view);
    if (round.jackpot_claim) void pollMeter?.(); // the pool was claimed and reseeded: read it now
    if (FINISHED.has(round.status)) {
      flow.to("settle");
      clear(choiceArea);
      choiceArea.hidden = true;
      if (round.win_minor !== null) view.setWin(creditsOf(round.win_minor, round.denomination));
      if (round.next_round_id) {
        // Spin Chance's funded round: the server played it; show it too.
        const next = await app.api.round(round.next_round_id);
        flow.to("idle");
        flow.to("play");
        await playRound(next);
        return;
      }
      flow.to("idle");
    } else if (round.choice) {
      flow.to("choice");
      offerChoices(round);
    } else {
      flow.to("settle");
      flow.to("idle");
    }
  };

  const playRound = async (round: RoundView, fromSpin = 0) => {
    const outcome = validateOutcome(round.outcome);
    playing = outcome;
    const won = await player.play(view, outcome, { fromSpin, fast: turbo?.checked ?? false });
    view.setWin(won);
    if (outcome.total_win >= 10 * outcome.bet.cost) deps.sound("bigwin");
    await finishRound(round);
  };

  const spin = async () => {
    if (playButton.disabled) return;
    message.hidden = true;
    app.sound.unlock();
    flow.to("request");
    lastStart = Date.now();
    if (rules.min_round_interval_ms) waitTimer = setTimeout(render, rules.min_round_interval_ms + 20);
    deps.setWin(0);
    deps.setSpinInfo("");
    view.spinStart();
    try {
      const round = await app.api.bet(key, { lines: bet().lines, bet_per_line: bet().bet_per_line, mode });
      flow.to("play");
      await playRound(round);
    } catch (exc) {
      view.show(view.current());
      fail(exc);
    }
  };

  const step = async (round: RoundView, kind: string, choice: StepChoice) => {
    if (flow.state !== "choice") return;
    app.sound.play("click");
    flow.to("request");
    choiceArea.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      const next = await app.api.step(round.round_id, kind, choice);
      if (choiceScreen?.answered) await withTimeout(choiceScreen.answered(next), 10000, `the ${kind} step's animation`);
      // A choice that won a bonus (Cops n Robbers' bonus wheel): the server played it; show it.
      const bonus = next.steps.find((s) => s.index === Math.max(...next.steps.map((x) => x.index)))?.result.bonus_outcome;
      if (bonus) {
        flow.to("play");
        const outcome = validateOutcome(bonus);
        playing = outcome;
        deps.setWin(0);
        await player.play(view, outcome, { fast: turbo?.checked ?? false });
      }
      await finishRound(next);
    } catch (exc) {
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
  const onKey = (e: KeyboardEvent) => {
    if (e.code !== "Space" && e.key !== " ") return;
    const t = e.target as HTMLElement | null;
    if (t && t.closest("button, select, input, a, textarea")) return; // the control's own Space
    e.preventDefault();
    void spin();
  };
  document.addEventListener("keydown", onKey);

  // --- jackpot meter -----------------------------------------------------------------------
  let meterTimer: ReturnType<typeof setInterval> | undefined;
  if (game.jackpot) {
    const poll = async () => {
      try {
        const { jackpots } = await app.api.jackpots();
        const pool = jackpots.find((j) => j.currency === currency && j.pool.startsWith(game.title));
        jackpotOut.textContent = pool ? formatMoney(pool.amount_minor, pool.currency) : "—";
      } catch { /* the meter keeps its last value; the next poll retries */ }
    };
    pollMeter = poll;
    void poll();
    meterTimer = setInterval(poll, 20000);
  }

  // --- recovery: draw the last committed state, then offer what the server says is open ---
  const open = session.openRounds.find((r) => r.game === key);
  if (open?.outcome) {
    const outcome: Outcome = validateOutcome(open.outcome);
    const last = outcome.spins[outcome.spins.length - 1];
    const shown = last?.events.filter((e) => e.type === "window" || e.type === "grid").pop() as { symbols: string[][] } | undefined;
    if (shown) view.show(shown.symbols);
    // The bet shown is the open round's (a reload must not show the default bet beside it).
    controls.select({ lines: open.bet.lines, bet_per_line: open.bet.bet_per_line });
    if (modes.some((m) => m.name === open.bet.mode)) mode = open.bet.mode;
    view.setWin(open.pending_win_credits);
    module.roundShown?.(open, view);
    current = open;
    if (open.choice) {
      flow.to("choice");
      offerChoices(open);
    }
    screen.dataset.recovered = open.round_id;
  }
  render();
  if (app.options.get().intro) void showIntro(game, app).then(() => playButton.focus());
  else playButton.focus();

  return {
    destroy() {
      document.removeEventListener("keydown", onKey);
      clearTimeout(waitTimer);
      clearInterval(meterTimer);
      unsubSession();
      unsubQuality();
      view.destroy();
      stage.destroy();
    },
  };
}
