// Cluedo's symbols, drawn in code (our own artwork): the suspects as coloured portrait medals
// with their initials, the weapons as cards with a drawn icon, the MegaJackpots wild as a gold
// star, the Mystery Bonus as a magnifying glass.
import type { Graphics } from "pixi.js";
import type { SymbolTable } from "../../render/symbols";

function medal(colour: number) {
  return (g: Graphics, s: number) => {
    g.circle(s / 2, s / 2, s * 0.44).fill(colour).stroke({ width: s * 0.05, color: 0xd4af37 });
    g.circle(s / 2, s * 0.4, s * 0.13).fill({ color: 0xffffff, alpha: 0.3 });
    g.ellipse(s / 2, s * 0.72, s * 0.22, s * 0.12).fill({ color: 0xffffff, alpha: 0.3 });
  };
}

function weapon(icon: (g: Graphics, s: number) => void) {
  return (g: Graphics, s: number) => {
    g.roundRect(s * 0.1, s * 0.06, s * 0.8, s * 0.88, s * 0.08).fill(0xf3ead7).stroke({ width: s * 0.04, color: 0x6b4f2a });
    icon(g, s);
  };
}

const metal = 0x5c5c66;

export const CLUEDO_SYMBOLS: SymbolTable = {
  MJ: {
    colour: 0xd4af37, label: "MJ",
    draw: (g, s) => {
      const pts: number[] = [];
      for (let i = 0; i < 10; i++) {
        const r = i % 2 ? s * 0.2 : s * 0.46;
        const a = -Math.PI / 2 + (i * Math.PI) / 5;
        pts.push(s / 2 + r * Math.cos(a), s / 2 + r * Math.sin(a));
      }
      g.poly(pts).fill(0xd4af37).stroke({ width: s * 0.04, color: 0x7a5c00 });
    },
  },
  BONUS: {
    colour: 0x1b4965, label: "BONUS",
    draw: (g, s) => {
      g.roundRect(s * 0.06, s * 0.06, s * 0.88, s * 0.88, s * 0.16).fill(0x1b4965);
      g.circle(s * 0.44, s * 0.42, s * 0.22).stroke({ width: s * 0.07, color: 0xd4af37 });
      g.moveTo(s * 0.6, s * 0.58).lineTo(s * 0.8, s * 0.8).stroke({ width: s * 0.1, color: 0xd4af37 });
    },
  },
  SCARLET: { colour: 0xc1121f, label: "S", draw: medal(0xc1121f) },
  MUSTARD: { colour: 0xe9b200, label: "M", draw: medal(0xe9b200) },
  PLUM: { colour: 0x6a2c70, label: "Pl", draw: medal(0x6a2c70) },
  PEACOCK: { colour: 0x1d4e89, label: "Pe", draw: medal(0x1d4e89) },
  GREEN: { colour: 0x2d6a4f, label: "G", draw: medal(0x2d6a4f) },
  CANDLESTICK: {
    colour: 0x6b4f2a, label: "",
    draw: weapon((g, s) => {
      g.rect(s * 0.45, s * 0.35, s * 0.1, s * 0.4).fill(0xd4af37);
      g.rect(s * 0.32, s * 0.75, s * 0.36, s * 0.07).fill(0xd4af37);
      g.ellipse(s / 2, s * 0.27, s * 0.06, s * 0.1).fill(0xff8c1a);
    }),
  },
  DAGGER: {
    colour: 0x6b4f2a, label: "",
    draw: weapon((g, s) => {
      g.poly([s / 2, s * 0.16, s * 0.56, s * 0.6, s * 0.44, s * 0.6]).fill(0xb8c0cc);
      g.rect(s * 0.34, s * 0.6, s * 0.32, s * 0.06).fill(0x6b4f2a);
      g.rect(s * 0.46, s * 0.66, s * 0.08, s * 0.18).fill(0x6b4f2a);
    }),
  },
  REVOLVER: {
    colour: 0x6b4f2a, label: "",
    draw: weapon((g, s) => {
      g.rect(s * 0.22, s * 0.36, s * 0.5, s * 0.1).fill(metal);
      g.circle(s * 0.6, s * 0.46, s * 0.09).fill(metal);
      g.poly([s * 0.6, s * 0.5, s * 0.74, s * 0.5, s * 0.7, s * 0.78, s * 0.58, s * 0.78]).fill(0x6b4f2a);
    }),
  },
  ROPE: {
    colour: 0x6b4f2a, label: "",
    draw: weapon((g, s) => {
      g.circle(s / 2, s * 0.42, s * 0.18).stroke({ width: s * 0.06, color: 0xa47148 });
      g.moveTo(s / 2, s * 0.6).lineTo(s * 0.46, s * 0.84).stroke({ width: s * 0.06, color: 0xa47148 });
    }),
  },
  WRENCH: {
    colour: 0x6b4f2a, label: "",
    draw: weapon((g, s) => {
      g.moveTo(s * 0.32, s * 0.78).lineTo(s * 0.62, s * 0.36).stroke({ width: s * 0.09, color: metal });
      g.circle(s * 0.66, s * 0.3, s * 0.12).fill(metal);
      g.circle(s * 0.7, s * 0.24, s * 0.06).fill(0xf3ead7);
    }),
  },
};
