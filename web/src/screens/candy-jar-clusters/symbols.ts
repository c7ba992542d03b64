// Candy Jar Clusters' symbols, drawn in code (our own artwork): a cupcake, a lollipop and a
// wrapped bonbon (the high symbols), four fruits (the low ones), the rainbow WILD and the golden
// wilds with their multiplier, the three bonus candies in their jar colours, the EXTRA free spin
// and the five jackpot coins.
import type { Graphics } from "pixi.js";
import type { SymbolTable } from "../../render/symbols";

/** The jar colours: YELLOW fills the WILD jar, RED the FREE SPINS jar, GREEN the JACKPOTS jar. */
export const JAR_COLOURS = { wild: 0xffd23f, free_spins: 0xef3e5c, jackpots: 0x3ccf6e } as const;

function tile(g: Graphics, s: number, colour: number): void {
  g.roundRect(s * 0.05, s * 0.05, s * 0.9, s * 0.9, s * 0.2).fill({ color: colour, alpha: 0.22 });
}

function shine(g: Graphics, x: number, y: number, r: number): void {
  g.ellipse(x, y, r, r * 0.6).fill({ color: 0xffffff, alpha: 0.45 });
}

function star(g: Graphics, s: number, outer: number, inner: number, fill: number, edge: number): void {
  const pts: number[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? s * inner : s * outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(s / 2 + r * Math.cos(a), s / 2 + r * Math.sin(a));
  }
  g.poly(pts).fill(fill).stroke({ width: s * 0.04, color: edge });
}

function hardCandy(colour: number, dark: number) {
  return (g: Graphics, s: number) => {
    // a round candy with twisted wrapper ends, glowing: a bonus candy for its jar
    g.circle(s / 2, s / 2, s * 0.44).fill({ color: colour, alpha: 0.25 });
    g.poly([s * 0.08, s * 0.3, s * 0.3, s * 0.5, s * 0.08, s * 0.7]).fill(dark);
    g.poly([s * 0.92, s * 0.3, s * 0.7, s * 0.5, s * 0.92, s * 0.7]).fill(dark);
    g.circle(s / 2, s / 2, s * 0.26).fill(colour).stroke({ width: s * 0.04, color: dark });
    g.moveTo(s / 2 + s * 0.15, s / 2).arc(s / 2, s / 2, s * 0.15, 0, Math.PI * 1.3).stroke({ width: s * 0.05, color: 0xffffff, alpha: 0.8 });
    shine(g, s * 0.43, s * 0.38, s * 0.07);
  };
}

function coin(colour: number, rim: number) {
  return (g: Graphics, s: number) => {
    g.circle(s / 2, s / 2, s * 0.44).fill(rim);
    g.circle(s / 2, s / 2, s * 0.37).fill(colour).stroke({ width: s * 0.03, color: 0xffffff, alpha: 0.6 });
    shine(g, s * 0.38, s * 0.3, s * 0.1);
  };
}

function golden(g: Graphics, s: number): void {
  g.circle(s / 2, s / 2, s * 0.46).fill({ color: 0xffc300, alpha: 0.3 });
  star(g, s, 0.46, 0.22, 0xffc300, 0x8a5a00);
}

export const CANDY_SYMBOLS: SymbolTable = {
  CUPCAKE: {
    colour: 0xff7eb6, label: "",
    draw: (g, s) => {
      tile(g, s, 0xff7eb6);
      g.poly([s * 0.22, s * 0.52, s * 0.78, s * 0.52, s * 0.68, s * 0.88, s * 0.32, s * 0.88]).fill(0xb5651d);
      for (const x of [0.36, 0.46, 0.56, 0.64]) g.moveTo(s * x, s * 0.55).lineTo(s * (x + 0.01), s * 0.86).stroke({ width: s * 0.025, color: 0x7a3e0f });
      g.ellipse(s / 2, s * 0.5, s * 0.33, s * 0.12).fill(0xffa6d0);
      g.ellipse(s / 2, s * 0.4, s * 0.27, s * 0.12).fill(0xffb8da);
      g.ellipse(s / 2, s * 0.31, s * 0.18, s * 0.1).fill(0xffc8e2);
      g.circle(s / 2, s * 0.17, s * 0.08).fill(0xd7263d);
      for (const [x, y, c] of [[0.36, 0.42, 0x4cc9f0], [0.58, 0.38, 0xfee440], [0.48, 0.5, 0x80ed99], [0.66, 0.48, 0x9b5de5]] as const) g.rect(s * x, s * y, s * 0.05, s * 0.02).fill(c);
      shine(g, s * 0.4, s * 0.3, s * 0.06);
    },
  },
  LOLLIPOP: {
    colour: 0x9b5de5, label: "",
    draw: (g, s) => {
      tile(g, s, 0x9b5de5);
      g.rect(s * 0.47, s * 0.5, s * 0.06, s * 0.4).fill(0xf1f1f1);
      g.circle(s / 2, s * 0.38, s * 0.28).fill(0x9b5de5);
      for (let i = 0; i < 3; i++) {
        const r = s * (0.08 + i * 0.07);
        g.moveTo(s / 2 + r * Math.cos(i), s * 0.38 + r * Math.sin(i)).arc(s / 2, s * 0.38, r, i, i + Math.PI * 1.4).stroke({ width: s * 0.04, color: [0xfee440, 0xf15bb5, 0x00f5d4][i] ?? 0xffffff });
      }
      g.circle(s / 2, s * 0.38, s * 0.28).stroke({ width: s * 0.03, color: 0x5a189a });
      shine(g, s * 0.4, s * 0.25, s * 0.06);
    },
  },
  BONBON: {
    colour: 0x00bbf9, label: "",
    draw: (g, s) => {
      tile(g, s, 0x00bbf9);
      g.poly([s * 0.1, s * 0.28, s * 0.32, s * 0.5, s * 0.1, s * 0.72]).fill(0x0077b6);
      g.poly([s * 0.9, s * 0.28, s * 0.68, s * 0.5, s * 0.9, s * 0.72]).fill(0x0077b6);
      g.ellipse(s / 2, s / 2, s * 0.24, s * 0.2).fill(0x00bbf9).stroke({ width: s * 0.03, color: 0x0077b6 });
      for (const x of [0.4, 0.5, 0.6]) g.moveTo(s * x, s * 0.33).lineTo(s * (x - 0.04), s * 0.67).stroke({ width: s * 0.03, color: 0xffffff, alpha: 0.7 });
      shine(g, s * 0.42, s * 0.4, s * 0.06);
    },
  },
  STRAWBERRY: {
    colour: 0xe63946, label: "",
    draw: (g, s) => {
      g.poly([s * 0.2, s * 0.35, s * 0.8, s * 0.35, s * 0.72, s * 0.62, s * 0.5, s * 0.88, s * 0.28, s * 0.62]).fill(0xe63946);
      g.circle(s * 0.35, s * 0.38, s * 0.16).fill(0xe63946);
      g.circle(s * 0.65, s * 0.38, s * 0.16).fill(0xe63946);
      for (const [x, y] of [[0.35, 0.45], [0.5, 0.5], [0.65, 0.45], [0.42, 0.62], [0.58, 0.62], [0.5, 0.75], [0.3, 0.35], [0.7, 0.35]]) g.ellipse(s * (x ?? 0), s * (y ?? 0), s * 0.015, s * 0.025).fill(0xffe066);
      g.poly([s * 0.3, s * 0.22, s * 0.5, s * 0.3, s * 0.7, s * 0.22, s * 0.6, s * 0.12, s * 0.5, s * 0.2, s * 0.4, s * 0.12]).fill(0x2d6a4f);
      shine(g, s * 0.34, s * 0.36, s * 0.05);
    },
  },
  GRAPES: {
    colour: 0x6a4c93, label: "",
    draw: (g, s) => {
      const rows = [[0.34, 0.5, 0.66], [0.42, 0.58], [0.34, 0.5, 0.66], [0.42, 0.58], [0.5]];
      rows.forEach((xs, j) => xs.forEach((x) => g.circle(s * x, s * (0.3 + j * 0.12), s * 0.085).fill(0x7b2cbf).stroke({ width: s * 0.015, color: 0x3c096c })));
      g.ellipse(s * 0.62, s * 0.16, s * 0.12, s * 0.05).fill(0x52b788);
      g.moveTo(s / 2, s * 0.22).lineTo(s * 0.52, s * 0.1).stroke({ width: s * 0.03, color: 0x6b4f2a });
      shine(g, s * 0.32, s * 0.28, s * 0.03);
    },
  },
  LEMON: {
    colour: 0xfee440, label: "",
    draw: (g, s) => {
      g.ellipse(s / 2, s * 0.52, s * 0.34, s * 0.25).fill(0xfee440).stroke({ width: s * 0.025, color: 0xd4a017 });
      g.circle(s * 0.15, s * 0.52, s * 0.05).fill(0xfee440);
      g.circle(s * 0.85, s * 0.52, s * 0.05).fill(0xfee440);
      g.ellipse(s * 0.56, s * 0.25, s * 0.1, s * 0.04).fill(0x52b788);
      shine(g, s * 0.38, s * 0.42, s * 0.08);
    },
  },
  PLUM: {
    colour: 0x3a0ca3, label: "",
    draw: (g, s) => {
      g.circle(s / 2, s * 0.55, s * 0.3).fill(0x4361ee).stroke({ width: s * 0.025, color: 0x240046 });
      g.moveTo(s / 2, s * 0.3).quadraticCurveTo(s * 0.46, s * 0.55, s / 2, s * 0.8).stroke({ width: s * 0.02, color: 0x240046, alpha: 0.6 });
      g.moveTo(s / 2, s * 0.28).lineTo(s * 0.55, s * 0.14).stroke({ width: s * 0.03, color: 0x6b4f2a });
      g.ellipse(s * 0.64, s * 0.2, s * 0.1, s * 0.045).fill(0x52b788);
      shine(g, s * 0.38, s * 0.44, s * 0.07);
    },
  },
  WILD: {
    colour: 0xf15bb5, label: "WILD",
    draw: (g, s) => {
      const colours = [0xef476f, 0xffd166, 0x06d6a0, 0x118ab2, 0x9b5de5];
      colours.forEach((c, i) => g.circle(s / 2, s / 2, s * (0.46 - i * 0.07)).fill(c));
      star(g, s, 0.3, 0.14, 0xffffff, 0xf15bb5);
    },
  },
  GOLDEN_WILD_2: { colour: 0xffc300, label: "x2", draw: golden },
  GOLDEN_WILD_3: { colour: 0xffc300, label: "x3", draw: golden },
  GOLDEN_WILD_5: { colour: 0xffc300, label: "x5", draw: golden },
  YELLOW: { colour: JAR_COLOURS.wild, label: "", draw: hardCandy(JAR_COLOURS.wild, 0xb8860b) },
  RED: { colour: JAR_COLOURS.free_spins, label: "", draw: hardCandy(JAR_COLOURS.free_spins, 0x8d0801) },
  GREEN: { colour: JAR_COLOURS.jackpots, label: "", draw: hardCandy(JAR_COLOURS.jackpots, 0x1b5e20) },
  EXTRA: {
    colour: 0xef3e5c, label: "+1",
    draw: (g, s) => {
      g.roundRect(s * 0.1, s * 0.1, s * 0.8, s * 0.8, s * 0.22).fill(0xef3e5c).stroke({ width: s * 0.05, color: 0xffffff });
      g.roundRect(s * 0.16, s * 0.16, s * 0.68, s * 0.3, s * 0.14).fill({ color: 0xffffff, alpha: 0.2 });
    },
  },
  MINI: { colour: 0x8ecae6, label: "MINI", draw: coin(0x219ebc, 0x8ecae6) },
  MINOR: { colour: 0x80ed99, label: "MINOR", draw: coin(0x2d6a4f, 0x80ed99) },
  MAJOR: { colour: 0xf4a261, label: "MAJOR", draw: coin(0xe76f51, 0xf4a261) },
  MAXI: { colour: 0xc77dff, label: "MAXI", draw: coin(0x7209b7, 0xc77dff) },
  GRAND: { colour: 0xffd60a, label: "GRAND", draw: coin(0xc9a227, 0xffd60a) },
};
