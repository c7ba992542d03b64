// Cluedo's look beyond the symbols: the logo in the title (inline SVG, so it may use the
// bundled Limelight face), the mahogany-and-gilt frame around the reels (Pixi Graphics, the
// window at 0,0), the golden frame of the secret reels, and the lobby tile (a mansion at night).
// The scene behind the reels is cluedo.css's (.theme-cluedo .stage, art/mansion.svg).
import { FillGradient, type Graphics } from "pixi.js";
import type { PaylineLook } from "../../render/reels";
import type { Theme } from "../game/registry";
import tile from "./art/tile.svg?raw";

const GILT = 0xd4af37;
const GILT_LIGHT = 0xf6dc8a;
const GILT_DARK = 0x7a4e10;
const MAHOGANY = 0x3a1408;

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 270 88" role="img" aria-label="Cluedo MegaJackpots">
<defs><linearGradient id="cl-gold" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff6c8"/><stop offset=".45" stop-color="#e8bc4e"/><stop offset=".55" stop-color="#a8741c"/><stop offset="1" stop-color="#f6d77a"/></linearGradient></defs>
<text x="135" y="54" text-anchor="middle" font-family="Limelight, Georgia, serif" font-size="58" letter-spacing="2" fill="#1a0804" stroke="#1a0804" stroke-width="6" stroke-linejoin="round">CLUEDO</text>
<text x="135" y="54" text-anchor="middle" font-family="Limelight, Georgia, serif" font-size="58" letter-spacing="2" fill="url(#cl-gold)" stroke="#5a3608" stroke-width="1">CLUEDO</text>
<path d="M38 60H232L222 71L232 82H38L48 71Z" fill="#9a0c20" stroke="url(#cl-gold)" stroke-width="2"/>
<text x="135" y="77" text-anchor="middle" font-family="Limelight, Georgia, serif" font-size="16" letter-spacing="3" fill="#ffe9a8">MegaJackpots</text>
</svg>`;

/** A winning line on the golden reels (ReelSet.paylineLook): a plain yellow line of the base
 * game's width was lost over the gilt (the design review: "thin and flat"); here it is drawn
 * more than twice as thick in bright gold on a dark bronze rim, in a warm glow, with a white-hot
 * thread along it. */
export const FREE_SPIN_LINE: PaylineLook = {
  width: 2.2, colour: 0xffd34d,
  glow: { width: 5, colour: 0xffe9a0, alpha: 0.4 },
  outline: { width: 0.45, colour: 0x3a1a02 },
  core: { width: 0.6, colour: 0xfffbe6 },
};

/** The secret reels' glass as [offset, colour] stops from its middle out: dark amber, never
 * lighter than the cards' own shadows, so a symbol's gilt frame reads at a glance. */
export const GOLDEN_GLASS: readonly (readonly [number, number])[] = [[0, 0x4a2c0c], [0.55, 0x2a1606], [1, 0x0e0602]];

/** The art-deco corner: stepped gilt bars and a diamond, pointing out of corner (x, y) along
 * (dx, dy). */
function corner(g: Graphics, x: number, y: number, dx: number, dy: number): void {
  for (const [len, off, w] of [[46, 0, 6], [30, 10, 3], [18, 18, 3]] as const) {
    g.moveTo(x + dx * off, y + dy * (off + len)).lineTo(x + dx * off, y + dy * off).lineTo(x + dx * (off + len), y + dy * off)
      .stroke({ width: w, color: off ? GILT_LIGHT : GILT, join: "miter" });
  }
  g.poly([x - dx * 4, y - dy * 14, x + dx * 6, y - dy * 4, x - dx * 4, y + dy * 6, x - dx * 14, y - dy * 4])
    .fill(GILT).stroke({ width: 1.5, color: GILT_DARK });
}

/** A mahogany frame with a gilt beading, deco corners and a fan over the middle; `gold` the
 * secret reels' variant (gilded all over, a warm glass). */
function frame(gold: boolean) {
  return (g: Graphics, w: number, h: number): void => {
    g.roundRect(-30, -28, w + 60, h + 62, 14).fill({ color: 0x000000, alpha: 0.5 });
    // the golden rails: gilt lit from the top left, bright to dark along the rails as a gilded
    // moulding catches a light (a flat ochre read as the same frame, toned)
    const rail = gold
      ? new FillGradient({ type: "linear", start: { x: 0, y: 0 }, end: { x: 1, y: 1 }, colorStops: [{ offset: 0, color: 0xfff1b0 }, { offset: 0.3, color: 0xe3b64e }, { offset: 0.5, color: 0x9a6a1c }, { offset: 0.72, color: 0xf2d27a }, { offset: 1, color: 0x8a5a14 }] })
      : MAHOGANY;
    g.roundRect(-26, -26, w + 52, h + 52, 12).fill(rail).stroke({ width: 3, color: gold ? GILT_LIGHT : GILT });
    // the wood's grain lit from the top left: a light upper edge, a dark lower one
    g.moveTo(-20, -22).lineTo(w + 20, -22).stroke({ width: 2, color: gold ? 0xfff1b0 : 0x7a3418 });
    g.moveTo(-20, h + 22).lineTo(w + 20, h + 22).stroke({ width: 3, color: gold ? GILT_DARK : 0x140602 });
    // the glass behind the symbols: near black in the hall; on the secret reels a dark amber
    // lit from the middle, darkest at the edges (GOLDEN_GLASS), so the gilt frames of the cards
    // stand out of it (the gallery's reviewer: gilded glass, the cards' gold lost in it)
    const glass = gold
      ? new FillGradient({ type: "radial", center: { x: 0.5, y: 0.45 }, innerRadius: 0, outerCenter: { x: 0.5, y: 0.45 }, outerRadius: 0.72, colorStops: GOLDEN_GLASS.map(([offset, color]) => ({ offset, color })) })
      : new FillGradient({ type: "linear", start: { x: 0, y: 0 }, end: { x: 0, y: 1 }, colorStops: [{ offset: 0, color: 0x24100a }, { offset: 1, color: 0x0c0404 }] });
    g.rect(-12, -12, w + 24, h + 24).fill(glass).stroke({ width: 3, color: gold ? GILT_LIGHT : GILT });
    g.rect(-6, -6, w + 12, h + 12).stroke({ width: 1.5, color: gold ? GILT : GILT_DARK });
    corner(g, -20, -20, 1, 1);
    corner(g, w + 20, -20, -1, 1);
    corner(g, -20, h + 20, 1, -1);
    corner(g, w + 20, h + 20, -1, -1);
    // the fan over the middle of the top rail
    const cx = w / 2;
    g.moveTo(cx - 40, -12).arc(cx, -12, 40, Math.PI, 0).closePath().fill(gold ? GILT_LIGHT : GILT).stroke({ width: 2, color: GILT_DARK });
    for (let i = 1; i < 8; i++) {
      const a = Math.PI + (i * Math.PI) / 8;
      g.moveTo(cx, -12).lineTo(cx + 38 * Math.cos(a), -12 + 38 * Math.sin(a)).stroke({ width: 1.5, color: GILT_DARK });
    }
    g.circle(cx, -12, 7).fill(0xc8102e).stroke({ width: 1.5, color: GILT_DARK });
    if (gold) jewels(g, w, h);
  };
}

/** The golden frame's jewels: a row of gilt beads along its rails and a ruby in the middle of
 * the sides and of the bottom rail, each lit from the top left. */
function jewels(g: Graphics, w: number, h: number): void {
  const rails: [number, number, number, number][] = [[0, -19, w, -19], [0, h + 19, w, h + 19], [-19, 0, -19, h], [w + 19, 0, w + 19, h]];
  for (const [x0, y0, x1, y1] of rails) {
    const n = Math.round(Math.hypot(x1 - x0, y1 - y0) / 34);
    for (let i = 1; i < n; i++) {
      const x = x0 + ((x1 - x0) * i) / n, y = y0 + ((y1 - y0) * i) / n;
      // clear of the deco corners (46 px of bars) and of the fan over the top rail's middle
      const along = Math.hypot(x - x0, y - y0), length = Math.hypot(x1 - x0, y1 - y0);
      if (along < 52 || length - along < 52 || (y0 < 0 && y1 < 0 && Math.abs(x - w / 2) < 50)) continue;
      g.circle(x, y, 3).fill(GILT_LIGHT).stroke({ width: 1, color: GILT_DARK });
    }
  }
  for (const [x, y] of [[-19, h / 2], [w + 19, h / 2], [w / 2, h + 19]] as const) {
    g.circle(x, y, 9).fill(GILT).stroke({ width: 1.5, color: GILT_DARK });
    g.circle(x, y, 6).fill(0xc8102e).stroke({ width: 1, color: 0x5a0610 });
    g.circle(x - 2, y - 2, 2).fill({ color: 0xffffff, alpha: 0.8 });
  }
}

export const GOLDEN_FRAME = frame(true);

/** The golden reels' own backs, over the glass and behind the symbols: each reel a panel of
 * oxblood velvet lit from its middle, in a gilt rule, and a gilt pinstripe in every gap. Not
 * gold itself: the cards' gilt frames stand out of red (the reviewer lost them in gilded glass).
 * Reel r's window is x in [r (cell + gap), r (cell + gap) + cell], y in [0, rows cell]. */
export function goldenReelBacks(g: Graphics, o: { reels: number; rows: number; cell: number; gap: number }): void {
  const h = o.rows * o.cell;
  const velvet = new FillGradient({ type: "radial", center: { x: 0.5, y: 0.4 }, innerRadius: 0, outerCenter: { x: 0.5, y: 0.4 }, outerRadius: 0.75, colorStops: VELVET.map(([offset, color]) => ({ offset, color })) });
  for (let r = 0; r < o.reels; r++) {
    const x = r * (o.cell + o.gap);
    g.rect(x, 0, o.cell, h).fill(velvet);
    g.rect(x + 3, 3, o.cell - 6, h - 6).stroke({ width: 2, color: GILT, alpha: 0.85 });
    if (r < o.reels - 1) g.rect(x + o.cell, 0, o.gap, h).fill(GILT_DARK).rect(x + o.cell + o.gap / 2 - 1.5, 0, 3, h).fill(GILT_LIGHT);
  }
}

/** The golden reels' velvet as [offset, colour] stops from a reel's middle out. */
export const VELVET: readonly (readonly [number, number])[] = [[0, 0x8a1a2a], [0.6, 0x5a0e1a], [1, 0x3a0810]];

/** The free spins' light: warm shafts from the fan at the top of the frame, fanning down over
 * the reels (drawn over the symbols, added to them: the base reels stand in the hall's cold
 * light). The window is `w` x `h` at 0,0. */
export function goldenLight(g: Graphics, w: number, h: number): void {
  const shaft = new FillGradient({ type: "linear", start: { x: 0, y: 0 }, end: { x: 0, y: 1 }, colorStops: [{ offset: 0, color: 0xffe2a0 }, { offset: 1, color: 0x000000 }] });
  const cx = w / 2;
  for (const [top, spread, alpha] of [[-0.05, -0.38, 0.2], [0.05, 0.38, 0.2], [-0.015, -0.14, 0.24], [0.015, 0.14, 0.24]] as const) {
    g.poly([cx + top * w, -12, cx + (top + 0.06 * Math.sign(spread)) * w, -12, cx + (spread + 0.08 * Math.sign(spread)) * w, h, cx + spread * w, h]).fill({ fill: shaft, alpha });
  }
}

export const CLUEDO_THEME: Theme = { logo: LOGO, frame: frame(false), tile, cast: ["SCARLET", "MJ", "MUSTARD"] };
