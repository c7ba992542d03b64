// The Pixi application: one canvas filling its host element, a root container laid out in a
// design size per orientation (desktop 1440x900, phone 390x844) and scaled to fit, centred.
import { Application, Container } from "pixi.js";
import type { Quality } from "../core/options";
import { PROFILES, resolutionFor } from "./quality";
import { frameCap } from "./clock";

export interface DesignSize { name: "landscape" | "portrait"; width: number; height: number }
export const DESIGNS: Record<DesignSize["name"], DesignSize> = {
  landscape: { name: "landscape", width: 1440, height: 900 },
  portrait: { name: "portrait", width: 390, height: 844 },
};

/** The share of the design height at the bottom that the HTML console covers. */
export const HUD_SHARE: Record<DesignSize["name"], number> = { landscape: 0.2, portrait: 0.36 };

export function designFor(width: number, height: number): DesignSize {
  return width < height ? DESIGNS.portrait : DESIGNS.landscape;
}

/** Where the design lies in a host of `width` x `height` CSS px: scaled to fit, centred. */
export interface Placement { design: DesignSize; scale: number; x: number; y: number }

function placementFor(width: number, height: number): Placement {
  const design = designFor(width, height);
  const scale = Math.min(width / design.width, height / design.height);
  return { design, scale, x: (width - design.width * scale) / 2, y: (height - design.height * scale) / 2 };
}

/** A rectangle in CSS px of the stage's host. */
export interface Rect { x: number; y: number; width: number; height: number }

export class Stage {
  readonly app = new Application();
  readonly root = new Container();
  design: DesignSize = DESIGNS.landscape;
  private readonly layoutListeners = new Set<(d: DesignSize) => void>();
  private observer: ResizeObserver | null = null;
  private readonly animations = new Set<() => boolean>();
  private dirty = true;

  constructor(private readonly host: HTMLElement, private quality: Quality) {}

  async init(): Promise<void> {
    const profile = PROFILES[this.quality];
    await this.app.init({
      resizeTo: this.host,
      // Transparent: the game's scene (its CSS background) lies behind the canvas.
      backgroundAlpha: 0,
      antialias: profile.antialias,
      resolution: resolutionFor(this.quality, globalThis.devicePixelRatio ?? 1),
      autoDensity: true,
      preference: "webgl",
      preserveDrawingBuffer: false,
    });
    this.app.canvas.setAttribute("aria-hidden", "true");
    this.app.canvas.dataset.quality = this.quality;
    this.host.appendChild(this.app.canvas);
    this.app.stage.addChild(this.root);
    // Drawn on demand: a frame only while something moves (or after a change), so an idle
    // screen costs nothing (a software-rendered browser draws a few frames a second at most).
    this.app.ticker.remove(this.app.render, this.app);
    this.app.ticker.add(this.frame, this, -25);
    const cap = frameCap(globalThis.localStorage);
    if (cap) this.app.ticker.maxFPS = cap;
    // The canvas follows its host, not only the window (Pixi resizes on window resize alone).
    this.observer = new ResizeObserver(() => { this.app.resize(); this.fit(); });
    this.observer.observe(this.host);
    this.fit();
  }

  /** `active` is asked every frame: true while its drawing moves. */
  animate(active: () => boolean): () => void {
    this.animations.add(active);
    this.dirty = true;
    return () => this.animations.delete(active);
  }

  invalidate(): void {
    this.dirty = true;
  }

  private drawnWaiters: (() => void)[] = [];

  /** Resolves once the next frame has drawn the stage as it is now, inside that frame: what
   * the caller then changes in the page (a win's caption) is shown in the same frame as the
   * canvas (the playtest saw a caption over reels not yet lit: a software-rendered browser had
   * drawn no frame since). */
  drawn(): Promise<void> {
    this.dirty = true;
    return new Promise((resolve) => this.drawnWaiters.push(resolve));
  }

  private drawnSize = "";

  private frame(): void {
    // A resize clears the canvas (Pixi resizes it to its host on its own schedule): redraw.
    const size = `${this.app.renderer.width}x${this.app.renderer.height}`;
    if (size !== this.drawnSize) {
      this.drawnSize = size;
      this.dirty = true;
    }
    let moving = false;
    for (const active of this.animations) moving = active() || moving;
    if (moving || this.dirty) {
      this.dirty = false;
      this.app.render();
    }
    const waiters = this.drawnWaiters;
    this.drawnWaiters = [];
    for (const w of waiters) w();
  }

  setQuality(quality: Quality): void {
    this.quality = quality;
    const r = this.app.renderer;
    r.resize(r.screen.width, r.screen.height, resolutionFor(quality, globalThis.devicePixelRatio ?? 1));
    this.app.canvas.dataset.quality = quality;
    this.fit();
  }

  get profile() {
    return PROFILES[this.quality];
  }

  onLayout(listener: (d: DesignSize) => void): () => void {
    this.layoutListeners.add(listener);
    listener(this.design);
    return () => this.layoutListeners.delete(listener);
  }

  /** The design's place in the host as it is now (whether or not fit() has run since). */
  placement(): Placement & { hostWidth: number; hostHeight: number } {
    const w = this.host.clientWidth || 1, h = this.host.clientHeight || 1;
    return { ...placementFor(w, h), hostWidth: w, hostHeight: h };
  }

  fit(): void {
    const { design, scale, x, y } = this.placement();
    const changed = design.name !== this.design.name;
    this.design = design;
    this.root.scale.set(scale);
    this.root.position.set(x, y);
    if (changed) for (const l of this.layoutListeners) l(design);
    this.dirty = true;
  }

  destroy(): void {
    this.observer?.disconnect();
    this.app.ticker.remove(this.frame, this);
    for (const w of this.drawnWaiters.splice(0)) w(); // nothing will be drawn: none waits on
    // `{ removeView: true }`, not `true`: PixiJS reads `true` as "release the global resources"
    // too (the shared texture pool, the batcher's cached bind groups), destroying textures a
    // filter's bind group still held ("textureSource destroyed while still bound") and that
    // the next game's renderer would use.
    this.app.destroy({ removeView: true }, { children: true });
  }
}
