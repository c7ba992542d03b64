// A stored round's screens on the history page, drawn by the game's own module (its symbols, its
// view, its handlers: the same drawing as the game screen and the default replay in
// screens/game/replay.ts): one screen for each window or grid of the outcome (every spin, every
// free spin, every tumble), a way to step through them, and REPLAY to watch the round again.
//
// The screen is the game's design size (1440x900, or 390x844 where the page is narrow), scaled
// down as a whole, so the module's DOM panels (the trail, the jars, the counters) keep their
// place over its canvas; the band the game's console covers is cut off, and the stepper sits
// there instead. Showing screen i plays that spin's events up to it, quickly, through the
// module's handlers and hooks with the whole outcome as their context (so counters, golden
// reels and the trail are the spin's own); nothing of it is computed here.
import type { Outcome, OutcomeEvent, Spin } from "../../core/outcome";
import type { Handler, PlayContext } from "../../core/player";
import { formatCredits } from "../../core/money";
import type { Quality } from "../../core/options";
import { withinOrLate } from "../../core/timing";
import type { GameView } from "../../net/types";
import { DESIGNS, HUD_SHARE, Stage, type DesignSize } from "../../render/app";
import { h } from "../../ui/dom";
import { celebrate } from "../../ui/moment";
import { celebrationCount, celebrationLines } from "../../core/celebration";
import { PROFILES } from "../../render/quality";
import { framesOf, walkReplay, type Frame } from "./frames";
import { artReady } from "../game/art";
import { PixiSlotView } from "../game/generic";
import { genericHandlers } from "../game/handlers";
import type { GameModule, SlotView } from "../game/registry";

function paidBy(event: OutcomeEvent): number {
  return "win" in event && typeof event.win === "number" ? event.win : 0;
}

/** The replay button's label while it is not playing (then STOP). */
export const REPLAY_LABEL = "↻ REPLAY";

export interface ScreensOptions {
  module: GameModule | undefined;
  game: GameView;
  outcomes: Outcome[];
  quality: Quality;
  /** The name of a spin ("Free spin 3 of 15 — 750 credits"), from the round's account. */
  spinName(outcome: number, spin: Spin): string;
  /** Called with each screen once it is drawn. */
  onShow?(frame: Frame): void;
  /** Credits of the round as money in its currency ("€20.00"), for the celebration's words. */
  money(credits: number): string;
}

const TIMEOUT_MS = 10000;

/** Draw the round's screens into `host`; resolves once the last screen is drawn. Returns the
 * cleanup (the Pixi stage, the view, the listeners). */
export async function mountScreens(host: HTMLElement, opts: ScreensOptions): Promise<() => void> {
  const { module, game, outcomes } = opts;
  const frames = framesOf(outcomes);
  const screen = h("div", { class: "replay-screen" });
  const clip = h("div", { class: "replay-clip" }, screen);
  const overlay = h("div", { class: "replay-overlay" });
  const winOut = h("output", { "data-testid": "replay-win" }, "0");
  const info = h("output", { class: "replay-info", "data-testid": "replay-info" });
  const select = h("select", { "data-testid": "replay-frame", "aria-label": "Screen" });
  const label = (f: Frame) => {
    const spin = outcomes[f.outcome]?.spins[f.spin];
    return spin ? `${opts.spinName(f.outcome, spin)}${f.tumble > 0 ? ` · tumble ${f.tumble}` : ""}` : "";
  };
  frames.forEach((f, i) => select.append(h("option", { value: String(i) }, label(f))));
  const position = h("output", { class: "replay-position", "data-testid": "replay-position" });
  const prev = h("button", { type: "button", "data-testid": "replay-prev", "aria-label": "Previous screen" }, "‹");
  const next = h("button", { type: "button", "data-testid": "replay-next", "aria-label": "Next screen" }, "›");
  // REPLAY, not PLAY, and not the green of the game's PLAY: it watches the stored round again,
  // it bets nothing (the playtest read the green PLAY as a spin)
  const play = h("button", { type: "button", "data-testid": "replay-play", class: "replay-play" }, REPLAY_LABEL);
  const message = h("p", { class: "message", "data-testid": "replay-error", hidden: true });
  const bar = h("div", { class: "replay-bar", role: "group", "aria-label": "The round's screens" },
    h("div", { class: "replay-steps" }, prev, select, next),
    h("div", { class: "replay-meter" }, position, h("span", {}, "WIN ", winOut), info, play));
  host.append(clip, bar, message);
  host.dataset.frames = String(frames.length);

  // the design size, scaled to the width the page gives; the band shown is the part of the
  // design the screens have drawn on so far (above the console's band), never less
  let design: DesignSize = DESIGNS.landscape;
  let band: { top: number; bottom: number } | null = null;
  const fit = () => {
    const width = host.clientWidth || 1;
    const was = design.name;
    design = width < 600 ? DESIGNS.portrait : DESIGNS.landscape;
    if (design.name !== was) band = null;
    const scale = width / design.width;
    const floor = design.height * (1 - HUD_SHARE[design.name]);
    const top = band?.top ?? 0, bottom = band?.bottom ?? floor;
    screen.style.width = `${design.width}px`;
    screen.style.height = `${design.height}px`;
    screen.style.transform = `translate(0, ${-top * scale}px) scale(${scale})`;
    clip.style.height = `${Math.round((bottom - top) * scale)}px`;
    host.dataset.design = design.name;
    fitView?.();
  };
  /** The view laid out as the game's shell lays it out: above the console's band (cut off
   * here), under no title (the shell's header is outside its stage), so what a game keeps room
   * for over its reels stands as in the game (the gallery's reviewer: Cluedo's free-spin
   * counter sat on its frame's fan, the reels where no fit had made room for it). */
  let fitView: (() => void) | null = null;
  /** The design's rows the screen draws on: the canvas's content and the module's visible
   * panels over it (a panel covering the whole screen is looked into, not counted). */
  const measure = () => {
    const floor = design.height * (1 - HUD_SHARE[design.name]);
    const box = screen.getBoundingClientRect();
    const scale = box.width / design.width || 1;
    let top = Infinity, bottom = -Infinity;
    const add = (t: number, b: number) => { top = Math.min(top, t); bottom = Math.max(bottom, b); };
    const b = stage.root.getBounds();
    const rootScale = stage.root.scale.y || 1;
    if (b.height > 0) add((b.y - stage.root.position.y) / rootScale, (b.y + b.height - stage.root.position.y) / rootScale);
    const visit = (el: Element) => {
      if (!(el instanceof HTMLElement) || el.hidden) return;
      const style = getComputedStyle(el);
      if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return;
      const r = el.getBoundingClientRect();
      if (r.height <= 0 || r.width <= 0) return;
      if (r.height >= box.height * 0.9) { for (const c of el.children) visit(c); return; }
      add((r.top - box.top) / scale, (r.bottom - box.top) / scale);
    };
    for (const c of overlay.children) visit(c);
    if (!Number.isFinite(top)) return;
    const margin = 12;
    const next = { top: Math.max(0, top - margin), bottom: Math.min(floor, bottom + margin) };
    if (next.bottom - next.top < floor * 0.3) return; // nothing sensible drawn yet
    band = band ? { top: Math.min(band.top, next.top), bottom: Math.max(band.bottom, next.bottom) } : next;
    fit();
  };
  fit();
  const resize = new ResizeObserver(fit);
  resize.observe(host);

  const stage = new Stage(screen, opts.quality);
  await Promise.all([stage.init(), artReady(module)]);
  screen.append(overlay);
  const deps = {
    stage, game, overlay, symbols: module?.symbols ?? {}, theme: module?.theme,
    setWin: (c: number) => { winOut.textContent = formatCredits(c); },
    setSpinInfo: (t: string) => { info.textContent = t; },
    sound: () => {},
  };
  const view = module?.createView ? module.createView(deps) : new PixiSlotView(deps, { winLabelsUnder: true });
  fitView = () => view.fitAbove?.(design.height * HUD_SHARE[design.name], 0);
  fitView();
  // Where the reels stand, for the module's panels placed from them (the game's shell sets the
  // same variables on its overlay): without them a panel fell back on its own guess (Candy
  // Jar's win line printed over the jars' rule at 390x844).
  const markReels = () => {
    const r = view.windowRect?.();
    if (!r) return;
    for (const [name, value] of [["x", r.x], ["y", r.y], ["w", r.width], ["h", r.height]] as const) overlay.style.setProperty(`--reels-${name}`, `${Math.round(value)}px`);
  };
  markReels();
  // the round's bet, as the game's console would show it (Candy Jar's jackpot ladder prices its
  // pills from it: without it the replay's pills had no amounts)
  const round = outcomes[0];
  if (round && module?.betShown) {
    const b = round.bet;
    const option = game.bets.find((o) => o.lines === b.lines && o.bet_per_line === b.bet_per_line)
      ?? { lines: b.lines, bet_per_line: b.bet_per_line, stake_credits: b.stake, cost_minor: {}, jackpot_eligible: false };
    module.betShown(option, b.mode, view);
  }
  const handlers = (module?.handlers ?? genericHandlers)(game);
  const hooks = module?.hooks ?? {};

  let stopped = false;
  let playing = false;
  let shown = -1;
  let target = frames.length - 1;
  let running: Promise<void> | null = null;

  /** A step's drawing within its deadline; past it, the replay goes on as live play does
   * (shell.ts): a player saw "This screen cannot be drawn: event line_win of spin 15: not done
   * after 10000 ms" on a loaded machine, the screen's choice left on the step before it. */
  const within = (work: Promise<void> | void, what: string) =>
    withinOrLate(Promise.resolve(work), TIMEOUT_MS, what, (exc) => console.warn(`reelforge: ${exc.message}; the replay goes on`));

  /** Play `outcome`'s spin `s` up to event `end`, as the game would, with the outcome around it. */
  const playSpin = async (outcome: Outcome, s: number, end: number, fast: boolean) => {
    const spin = outcome.spins[s] as Spin;
    let won = 0;
    for (const before of outcome.spins.slice(0, s)) won += before.win;
    const ctx: PlayContext<SlotView> = { view, outcome, spin, won, fast };
    view.clearHighlight();
    view.spinStart();
    if (hooks.beforeSpin) await within(hooks.beforeSpin(spin, ctx), `spin ${spin.index} start`);
    let spinWon = 0;
    for (const event of spin.events.slice(0, end + 1)) {
      if (stopped) return;
      const handler = handlers[event.type] as Handler<SlotView> | undefined;
      if (!handler) throw new Error(`no handler for outcome event type ${JSON.stringify(event.type)}`);
      spinWon += paidBy(event);
      ctx.won = won + Math.min(spinWon, spin.win);
      await within(handler(event, ctx), `event ${event.type} of spin ${spin.index}`);
    }
    if (end >= spin.events.length - 1) {
      ctx.won = won + spin.win;
      if (hooks.afterSpin) await within(hooks.afterSpin(spin, ctx), `spin ${spin.index} end`);
    }
    view.setWin(ctx.won);
    stage.invalidate(); // the screen as it ends, drawn even where a tween's last frame was not
  };

  /** The band and the reels' place, once a screen is drawn. */
  const settle = () => {
    markReels();
    measure();
  };
  /** The stepper and the account name screen `i` (REPLAY names it before it plays). */
  const name = (i: number) => {
    shown = i;
    opts.onShow?.(frames[i] as Frame);
    select.value = String(i);
    position.textContent = `Screen ${i + 1} of ${frames.length}`;
    host.dataset.frame = String(i);
    prev.disabled = i <= 0;
    next.disabled = i >= frames.length - 1;
  };

  const fail = (exc: unknown) => {
    message.textContent = `This screen cannot be drawn: ${(exc as Error).message ?? exc}`;
    message.hidden = false;
  };

  /** Draw the screen asked for last (clicks while one is drawn coalesce to the newest). */
  const show = (i: number) => {
    target = Math.max(0, Math.min(frames.length - 1, i));
    if (running) return running;
    running = (async () => {
      try {
        while (!stopped && shown !== target) {
          const t = target;
          const f = frames[t] as Frame;
          host.dataset.busy = "true";
          await playSpin(outcomes[f.outcome] as Outcome, f.spin, f.end, true);
          settle();
          name(t);
        }
      } catch (exc) {
        if (!stopped) fail(exc);
      } finally {
        running = null;
        delete host.dataset.busy;
        if (!stopped && shown === frames.length - 1) host.dataset.replayed = "true";
      }
    })();
    return running;
  };

  /** REPLAY: every spin from the first, at the game's own pace; pressed again, it stops. */
  const playAll = async () => {
    if (playing) { playing = false; return; }
    await running;
    playing = true;
    play.textContent = "STOP";
    host.dataset.playing = "true";
    try {
      await walkReplay(frames, outcomes, {
        name,
        play: async (i) => {
          const f = frames[i] as Frame;
          await playSpin(outcomes[f.outcome] as Outcome, f.spin, f.end, false);
          settle();
        },
        going: () => playing && !stopped,
      });
      // played to its end: the celebration the round earned in the game (none at or below
      // its cost), as the game showed it after the round's events
      const round = outcomes[0];
      // (a capped round whose view showed its own MAX WIN moment: no tier repeating it)
      if (round && playing && !stopped && !(round.win_capped && (view as SlotView).celebratesCap)) {
        // measured and worded as the game did (shell.ts celebrateRound): the money, the
        // multiple of the bet, the trigger spin's win beside the feature's
        const cost = round.bet.cost > 0 ? round.bet.cost : round.bet.stake;
        const total = round.total_win;
        await celebrate(overlay, { total_win: total, cost }, { particles: PROFILES[opts.quality].particles, format: (c) => formatCredits(c), lines: celebrationLines(round, cost, opts.money(total), false, formatCredits), still: celebrationCount(round).still });
      }
    } catch (exc) {
      if (!stopped) fail(exc);
    } finally {
      playing = false;
      play.textContent = REPLAY_LABEL;
      delete host.dataset.playing;
    }
  };

  prev.addEventListener("click", () => void show((running ? target : shown) - 1));
  next.addEventListener("click", () => void show((running ? target : shown) + 1));
  select.addEventListener("change", () => void show(Number(select.value)));
  play.addEventListener("click", () => void playAll());
  host.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); void show((running ? target : shown) - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); void show((running ? target : shown) + 1); }
  });

  await show(frames.length - 1);
  return () => {
    stopped = true;
    playing = false;
    resize.disconnect();
    view.destroy();
    stage.destroy();
  };
}
