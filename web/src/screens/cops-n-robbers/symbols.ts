// Cops n Robbers' symbols, drawn in code (our own art): the robber in his striped jumper and
// mask, the cop in his helmet, the BONUS siren, three wrapped presents, the money bag, the gold
// bar, the diamond, the card ranks on snowy cards, and the Fortune Spins reels' blank.
import type { Graphics } from "pixi.js";
import type { SymbolArt, SymbolTable } from "../../render/symbols";

function face(g: Graphics, s: number, skin: number): void {
  g.circle(s * 0.5, s * 0.42, s * 0.17).fill(skin).stroke({ width: s * 0.015, color: 0x000000, alpha: 0.4 });
  g.circle(s * 0.44, s * 0.41, s * 0.018).fill(0x000000);
  g.circle(s * 0.56, s * 0.41, s * 0.018).fill(0x000000);
  g.arc(s * 0.5, s * 0.46, s * 0.06, 0.2, Math.PI - 0.2).stroke({ width: s * 0.015, color: 0x5a1a1a });
}

const robber: SymbolArt = {
  colour: 0x222222, label: "",
  draw: (g, s) => {
    g.roundRect(s * 0.06, s * 0.06, s * 0.88, s * 0.88, s * 0.14).fill(0x3a2f5b).stroke({ width: s * 0.03, color: 0xd4af37 });
    // striped jumper
    g.roundRect(s * 0.24, s * 0.6, s * 0.52, s * 0.3, s * 0.08).fill(0xf1f1f1);
    for (let i = 0; i < 3; i++) g.rect(s * 0.24, s * (0.63 + i * 0.09), s * 0.52, s * 0.045).fill(0x111111);
    face(g, s, 0xf0c8a0);
    g.rect(s * 0.33, s * 0.37, s * 0.34, s * 0.07).fill(0x111111); // mask
    g.circle(s * 0.44, s * 0.405, s * 0.022).fill(0xffffff);
    g.circle(s * 0.56, s * 0.405, s * 0.022).fill(0xffffff);
    g.roundRect(s * 0.32, s * 0.2, s * 0.36, s * 0.1, s * 0.04).fill(0x111111); // beanie
    g.rect(s * 0.08, s * 0.08, s * 0.3, s * 0.12).fill({ color: 0xd4af37 });
  },
};

const cop: SymbolArt = {
  colour: 0x1d3557, label: "",
  draw: (g, s) => {
    g.roundRect(s * 0.06, s * 0.06, s * 0.88, s * 0.88, s * 0.14).fill(0x1d3557).stroke({ width: s * 0.03, color: 0xa8dadc });
    g.roundRect(s * 0.22, s * 0.6, s * 0.56, s * 0.3, s * 0.08).fill(0x14213d);
    g.circle(s * 0.5, s * 0.7, s * 0.04).fill(0xffd166); // badge
    face(g, s, 0xf3d2b3);
    g.ellipse(s * 0.5, s * 0.24, s * 0.16, s * 0.14).fill(0x0b132b); // helmet
    g.rect(s * 0.32, s * 0.28, s * 0.36, s * 0.05).fill(0x0b132b);
    g.star(s * 0.5, s * 0.21, 5, s * 0.045, s * 0.02).fill(0xe9c46a);
  },
};

const bonus: SymbolArt = {
  colour: 0xe63946, label: "BONUS",
  draw: (g, s) => {
    g.roundRect(s * 0.06, s * 0.06, s * 0.88, s * 0.88, s * 0.14).fill(0x7b1e2b).stroke({ width: s * 0.04, color: 0xffd166 });
    g.arc(s * 0.5, s * 0.5, s * 0.26, Math.PI, 0).fill(0x48cae4); // siren dome
    g.rect(s * 0.22, s * 0.5, s * 0.56, s * 0.1).fill(0xe63946);
    for (let i = 0; i < 6; i++) {
      const a = -Math.PI / 2 + (i - 2.5) * 0.35;
      g.moveTo(s * 0.5 + Math.cos(a) * s * 0.3, s * 0.45 + Math.sin(a) * s * 0.3)
        .lineTo(s * 0.5 + Math.cos(a) * s * 0.4, s * 0.45 + Math.sin(a) * s * 0.4)
        .stroke({ width: s * 0.025, color: 0xffd166 });
    }
  },
};

function present(box: number, ribbon: number): SymbolArt {
  return {
    colour: box, label: "",
    draw: (g, s) => {
      g.roundRect(s * 0.16, s * 0.34, s * 0.68, s * 0.52, s * 0.05).fill(box).stroke({ width: s * 0.02, color: 0x000000, alpha: 0.35 });
      g.roundRect(s * 0.12, s * 0.26, s * 0.76, s * 0.14, s * 0.04).fill(box).stroke({ width: s * 0.02, color: 0x000000, alpha: 0.35 });
      g.rect(s * 0.45, s * 0.26, s * 0.1, s * 0.6).fill(ribbon);
      g.ellipse(s * 0.4, s * 0.2, s * 0.1, s * 0.07).fill(ribbon);
      g.ellipse(s * 0.6, s * 0.2, s * 0.1, s * 0.07).fill(ribbon);
      g.circle(s * 0.5, s * 0.24, s * 0.04).fill(ribbon);
    },
  };
}

function card(colour: number, label: string): SymbolArt {
  return {
    colour, label, shape: "card",
    draw: (g, s) => {
      g.roundRect(s * 0.14, s * 0.1, s * 0.72, s * 0.8, s * 0.08).fill(0xf8f8f0).stroke({ width: s * 0.04, color: colour });
      for (const [x, y] of [[0.26, 0.2], [0.74, 0.8]] as const) g.star(s * x, s * y, 6, s * 0.05, s * 0.02).fill({ color: 0x8ecae6 }); // snowflakes
    },
  };
}

export const COPS_SYMBOLS: SymbolTable = {
  ROBBER: robber,
  COP: cop,
  BONUS: bonus,
  PRESENT_RED: present(0xc1121f, 0xffd166),
  PRESENT_GREEN: present(0x2d6a4f, 0xf1faee),
  PRESENT_GOLD: present(0xd4a017, 0xc1121f),
  MONEYBAG: {
    colour: 0x8d6e3f, label: "£",
    draw: (g, s) => {
      g.ellipse(s * 0.5, s * 0.6, s * 0.3, s * 0.27).fill(0x8d6e3f).stroke({ width: s * 0.025, color: 0x4a3520 });
      g.poly([s * 0.38, s * 0.3, s * 0.62, s * 0.3, s * 0.56, s * 0.38, s * 0.44, s * 0.38]).fill(0x6b5230);
      g.rect(s * 0.4, s * 0.36, s * 0.2, s * 0.04).fill(0xd4af37);
    },
  },
  GOLDBAR: {
    colour: 0xd4af37, label: "",
    draw: (g, s) => {
      g.poly([s * 0.14, s * 0.7, s * 0.86, s * 0.7, s * 0.72, s * 0.4, s * 0.28, s * 0.4]).fill(0xd4af37).stroke({ width: s * 0.025, color: 0x8a6d1d });
      g.poly([s * 0.28, s * 0.4, s * 0.72, s * 0.4, s * 0.66, s * 0.48, s * 0.34, s * 0.48]).fill(0xf5d76e);
    },
  },
  DIAMOND: { colour: 0x48cae4, accent: 0xffffff, shape: "diamond", label: "" },
  A: card(0xc1121f, "A"),
  K: card(0x1d3557, "K"),
  Q: card(0x2d6a4f, "Q"),
  J: card(0x6a4c93, "J"),
  TEN: card(0xe76f51, "10"),
  BLANK: { colour: 0x1a1030, label: "", draw: (g, s) => { g.star(s * 0.5, s * 0.5, 6, s * 0.12, s * 0.05).fill({ color: 0xffffff, alpha: 0.12 }); } },
};
