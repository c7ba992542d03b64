// Symbols as a data table: symbol id -> how it is drawn (our own artwork, in code). A game
// module passes its own table; symbols it does not list get the generic tile (a coloured gem
// with the symbol's short name), so a new game file draws before it has artwork.
import { Container, Graphics, Text, type Renderer, type Texture } from "pixi.js";

export interface SymbolArt {
  colour: number; // main fill
  accent?: number;
  label?: string; // drawn text (default: from the id)
  shape?: "gem" | "circle" | "star" | "card" | "diamond";
  draw?: (g: Graphics, size: number) => void; // full custom drawing
}

export type SymbolTable = Record<string, SymbolArt>;

const PALETTE = [0xe63946, 0xf4a261, 0x2a9d8f, 0x457b9d, 0x9b5de5, 0xf15bb5, 0x00bbf9, 0x00f5d4, 0xfee440, 0x8ac926, 0xff595e, 0x6a4c93];

export function genericArt(id: string): SymbolArt {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const label = id.length <= 3 ? id : id.replace(/_/g, " ").split(" ").map((w) => w[0]).join("").slice(0, 3) || id.slice(0, 3);
  return { colour: PALETTE[h % PALETTE.length] ?? 0x888888, label: id.length <= 4 ? id : label };
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

/** Draws every symbol once into a texture of `size` design pixels. */
export class SymbolTextures {
  private readonly cache = new Map<string, Texture>();

  constructor(private readonly renderer: Renderer, private readonly table: SymbolTable, private readonly size: number, private readonly resolution: number) {}

  art(id: string): SymbolArt {
    return this.table[id] ?? genericArt(id);
  }

  get(id: string): Texture {
    let texture = this.cache.get(id);
    if (!texture) {
      const art = this.art(id);
      const box = new Container();
      const g = new Graphics();
      const s = this.size;
      g.rect(0, 0, s, s).fill({ color: 0x000000, alpha: 0 });
      if (art.draw) art.draw(g, s);
      else shapeOf(g, art, s);
      box.addChild(g);
      const label = art.label ?? genericArt(id).label ?? id;
      if (label) {
        const text = new Text({
          text: label,
          style: { fontFamily: "Georgia, serif", fontWeight: "bold", fontSize: Math.round(s * (label.length > 3 ? 0.2 : 0.3)), fill: art.shape === "card" ? art.colour : 0xffffff, stroke: { color: 0x000000, width: art.shape === "card" ? 0 : 3 }, align: "center" },
        });
        text.anchor.set(0.5);
        text.position.set(s / 2, s / 2);
        box.addChild(text);
      }
      texture = this.renderer.generateTexture({ target: box, resolution: this.resolution, frame: undefined });
      box.destroy({ children: true });
      this.cache.set(id, texture);
    }
    return texture;
  }

  destroy(): void {
    for (const t of this.cache.values()) t.destroy(true);
    this.cache.clear();
  }
}
