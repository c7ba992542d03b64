// Symbols as a data table: symbol id -> how it is drawn (our own artwork, in code). A game
// module passes its own table; symbols it does not list get the generic tile (a coloured gem
// with the symbol's short name), so a new game file draws before it has artwork.
import { FONTS } from "./fonts";
import { LABEL_FIT, labelScale, symbolLabels } from "./symbol-labels";
import { Container, Graphics, Rectangle, Sprite, Text, Texture, type Renderer } from "pixi.js";

export interface SymbolArt {
  colour: number; // main fill
  accent?: number;
  label?: string; // drawn text (default: from the id)
  shape?: "gem" | "circle" | "star" | "card" | "diamond";
  draw?: (g: Graphics, size: number) => void; // full custom drawing (over `svg` when both)
  /** Authored SVG markup (a square viewBox), drawn crisp at any size once `loadSymbolArt`
   * has decoded it; no label is drawn over it unless `label` is given. */
  svg?: string;
  /** Text drawn over the art in this face (default Georgia). */
  font?: string;
  /** A word set on the art's own banner (WILD, BONUS) in a bundled face: an SVG image cannot
   * reach the page's webfonts, so words inside the markup fall back to the system's sans. `y`
   * (the text's middle) and `size` are shares of the symbol's size. */
  caption?: { text: string; y: number; size: number; font: string; fill: number; stroke: number; spacing?: number };
  /** Other looks of the symbol, by name, each the fields it changes (Cluedo's golden reels:
   * the weapons on gilded plaques); SymbolTextures.look picks one for every symbol at once. */
  variants?: Record<string, Partial<Omit<SymbolArt, "variants">>>;
  /** How many times larger the art is drawn on stretched rows (SymbolTextures.stretch), where
   * the row leaves room above and below it: art with a wide transparent margin at its sides
   * (Cluedo's weapons on their narrow plaques) fills more of its column there. What passes the
   * texture's square is cut off, so it is at most the art's own margin. */
  stretchZoom?: number;
}

export type SymbolTable = Record<string, SymbolArt>;

const PALETTE = [0xe63946, 0xf4a261, 0x2a9d8f, 0x457b9d, 0x9b5de5, 0xf15bb5, 0x00bbf9, 0x00f5d4, 0xfee440, 0x8ac926, 0xff595e, 0x6a4c93];

export function genericArt(id: string): SymbolArt {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const label = id.length <= 3 ? id : id.replace(/_/g, " ").split(" ").map((w) => w[0]).join("").slice(0, 3) || id.slice(0, 3);
  return { colour: PALETTE[h % PALETTE.length] ?? 0x888888, label: id.length <= 4 ? id : label };
}

/** The table a game's screens draw from: the module's own art where it has any, else the generic
 * tile labelled with the symbol's name from the game file (symbol-labels.ts). */
export function gameSymbolTable(own: SymbolTable, symbols: readonly { id: string; name?: string }[]): SymbolTable {
  const table: SymbolTable = { ...own };
  for (const [id, label] of symbolLabels(symbols)) table[id] ??= { ...genericArt(id), label };
  return table;
}

function shapeOf(g: Graphics, art: SymbolArt, s: number): void {
  const pad = s * 0.08;
  const c = art.colour;
  switch (art.shape ?? "gem") {
    case "circle":
      g.circle(s / 2, s / 2, s / 2 - pad).fill(c).stroke({ width: s * 0.05, color: art.accent ?? 0xffffff, alpha: 0.8 });
      break;
    case "diamond":
      g.poly([s / 2, pad, s - pad, s / 2, s / 2, s - pad, pad, s / 2]).fill(c).stroke({ width: s * 0.04, color: art.accent ?? 0xffffff });
      break;
    case "star": {
      const pts: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? s * 0.2 : s / 2 - pad;
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(s / 2 + r * Math.cos(a), s / 2 + r * Math.sin(a));
      }
      g.poly(pts).fill(c).stroke({ width: s * 0.03, color: art.accent ?? 0xffffff });
      break;
    }
    case "card":
      g.roundRect(pad * 1.5, pad, s - pad * 3, s - pad * 2, s * 0.08).fill(0xf8f8f0).stroke({ width: s * 0.04, color: c });
      break;
    default:
      g.roundRect(pad, pad, s - 2 * pad, s - 2 * pad, s * 0.18).fill(c);
      g.roundRect(pad * 2, pad * 2, s - 4 * pad, (s - 4 * pad) * 0.45, s * 0.12).fill({ color: 0xffffff, alpha: 0.22 });
      g.roundRect(pad, pad, s - 2 * pad, s - 2 * pad, s * 0.18).stroke({ width: s * 0.035, color: art.accent ?? 0x000000, alpha: 0.45 });
  }
}

// Decoded SVG images, by their markup: a browser draws a decoded SVG image at any size
// without blur, so each texture is rasterised at its own size and resolution.
const images = new Map<string, HTMLImageElement>();

function decode(svg: string): Promise<void> {
  if (images.has(svg) || typeof Image === "undefined") return Promise.resolve();
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  return img.decode().then(() => { images.set(svg, img); }, () => { /* drawn as its shape instead */ });
}

/** Decodes every SVG of `tables` (and any extra markup); call before the first texture. */
export async function loadSymbolArt(tables: SymbolTable[], extra: string[] = []): Promise<void> {
  const looks = (a: SymbolArt) => [a, ...Object.values(a.variants ?? {})];
  const all = new Set([...tables.flatMap((t) => Object.values(t).flatMap(looks).flatMap((a) => (a.svg ? [a.svg] : []))), ...extra]);
  await Promise.all([...all].map(decode));
}

/** The decoded SVG rasterised into a texture of `px` CSS px at `resolution` (null before it
 * is decoded). */
export function svgTexture(svg: string, px: number, resolution: number, height = px): Texture | null {
  const img = images.get(svg);
  if (!img || typeof document === "undefined") return null;
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(px * resolution));
  canvas.height = Math.max(1, Math.round(height * resolution));
  canvas.getContext("2d")?.drawImage(img, 0, 0, canvas.width, canvas.height);
  return Texture.from({ resource: canvas, resolution });
}

/** Draws every symbol once into a texture of `size` design pixels. */
export class SymbolTextures {
  private readonly cache = new Map<string, Texture>();
  private variant: string | null = null;

  constructor(private readonly renderer: Renderer, private readonly table: SymbolTable, private readonly size: number, private readonly resolution: number) {}

  /** The look every symbol is drawn in from now on: a variant's name (a symbol without it keeps
   * its own), or null for their own. True when it changed (what is drawn must be drawn again). */
  look(variant: string | null): boolean {
    if (variant === this.variant) return false;
    this.variant = variant;
    return true;
  }

  /** Rows drawn `k` times as tall as a cell is wide (ReelSet.setStretch): each symbol is drawn
   * squashed by 1/k in the middle of its square texture, so the stretched reels show it at its
   * own shape, with air above and below. True when it changed. */
  stretch(k: number): boolean {
    if (k === this.squash) return false;
    this.squash = k;
    return true;
  }
  private squash = 1;

  art(id: string): SymbolArt {
    const own = this.table[id] ?? genericArt(id);
    const changed = this.variant === null ? undefined : own.variants?.[this.variant];
    return changed ? { ...own, ...changed } : own;
  }

  get(id: string): Texture {
    const own = this.variant === null || !this.table[id]?.variants?.[this.variant] ? id : `${this.variant}|${id}`;
    const key = this.squash === 1 ? own : `${own}@${this.squash}`;
    let texture = this.cache.get(key);
    if (!texture) {
      const art = this.art(id);
      const outer = new Container();
      const box = new Container();
      const g = new Graphics();
      const s = this.size;
      // the texture's bounds: the whole square, whatever the squash leaves of the symbol in it
      outer.addChild(new Graphics().rect(0, 0, s, s).fill({ color: 0x000000, alpha: 0 }), box);
      // (a zoom never makes the art taller than the row it is squashed into)
      const zoom = this.squash > 1 ? Math.min(art.stretchZoom ?? 1, this.squash) : 1;
      box.scale.set(zoom, zoom / this.squash);
      box.position.set((s * (1 - zoom)) / 2, (s * (1 - zoom / this.squash)) / 2);
      g.rect(0, 0, s, s).fill({ color: 0x000000, alpha: 0 });
      const raster = art.svg ? svgTexture(art.svg, s, this.resolution) : null;
      if (raster) {
        const sprite = new Sprite(raster);
        sprite.width = sprite.height = s;
        box.addChild(sprite);
      }
      if (art.draw) art.draw(g, s);
      else if (!raster) shapeOf(g, art, s);
      box.addChild(g);
      const label = art.label ?? (art.svg ? "" : genericArt(id).label ?? id);
      if (label) {
        const text = new Text({
          text: label,
          // the display face (tall, narrow, heavy), large, with a stroke that scales with the tile
          style: { fontFamily: art.font ?? FONTS.display, fontWeight: art.font ? "bold" : "normal", fontSize: Math.round(s * LABEL_FIT.size), fill: art.shape === "card" ? art.colour : 0xffffff, stroke: { color: 0x000000, width: art.shape === "card" ? 0 : Math.max(3, Math.round(s * 0.05)), join: "round" }, align: "center", lineHeight: Math.round(s * LABEL_FIT.size * 0.95), letterSpacing: 0.5 },
        });
        text.anchor.set(0.5);
        text.position.set(s / 2, s / 2);
        // a long name (EMERALD, SAPPHIRE) is shrunk only as far as the tile needs
        text.scale.set(labelScale(text.width, text.height, s));
        box.addChild(text);
      }
      if (art.caption) {
        const c = art.caption;
        const text = new Text({
          text: c.text,
          style: { fontFamily: c.font, fontSize: Math.round(s * c.size), fill: c.fill, stroke: { color: c.stroke, width: Math.max(2, s * 0.02), join: "round" }, letterSpacing: Math.round(s * (c.spacing ?? 0)) },
        });
        text.anchor.set(0.5);
        text.position.set(s / 2, s * c.y);
        box.addChild(text);
      }
      texture = this.renderer.generateTexture({ target: outer, resolution: this.resolution, frame: zoom > 1 ? new Rectangle(0, 0, s, s) : undefined });
      outer.destroy({ children: true });
      raster?.destroy(true);
      this.cache.set(key, texture);
    }
    return texture;
  }

  destroy(): void {
    for (const t of this.cache.values()) t.destroy(true);
    this.cache.clear();
  }
}
