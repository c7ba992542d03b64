// The payline diagrams: one small SVG per line of the description's `paylines` (a row index per
// reel, line 1 first), a little picture of the reels (a frame, a strip per reel, its cells) with
// the line's cells lit and a stroke through them; the page's theme colours the reels (info.css).
import { h } from "../../ui/dom";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#ffd166", "#ef476f", "#06d6a0", "#4cc9f0", "#f78c6b", "#c77dff", "#90be6d", "#f9844a", "#43aa8b", "#f94144"];

function svg(tag: string, attrs: Record<string, string | number>, ...children: SVGElement[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

export function paylineDiagrams(paylines: readonly (readonly number[])[], rows: number): HTMLElement {
  const cell = 18;
  const gap = 3; // between cells of a reel
  const apart = 5; // between reels
  const pad = 4; // the reels' frame around them
  const list = h("ol", { class: "info-paylines", "data-testid": "paylines", "aria-label": `${paylines.length} paylines` });
  paylines.forEach((line, i) => {
    const reels = line.length;
    const inner = rows * cell + (rows - 1) * gap;
    const width = 2 * pad + reels * (cell + 4) + (reels - 1) * apart;
    const height = 2 * pad + inner + 4;
    const x = (reel: number) => pad + reel * (cell + 4 + apart) + 2;
    const y = (row: number) => pad + 2 + row * (cell + gap);
    const colour = COLOURS[i % COLOURS.length] ?? "#ffd166";
    // the frame, each reel a strip in it, then its cells: the page's theme colours them (info.css)
    const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: width * 2, height: height * 2, role: "img", "aria-label": `Line ${i + 1}: rows ${line.map((r) => r + 1).join(", ")} from the left reel` },
      svg("rect", { class: "frame", x: 0.75, y: 0.75, width: width - 1.5, height: height - 1.5, rx: 5, "stroke-width": 1.5 }));
    for (let reel = 0; reel < reels; reel++) {
      picture.append(svg("rect", { class: "reel", x: x(reel) - 2, y: pad, width: cell + 4, height: inner + 4, rx: 3 }));
      for (let row = 0; row < rows; row++) {
        const on = line[reel] === row;
        picture.append(svg("rect", { class: "cell", x: x(reel), y: y(row), width: cell, height: cell, rx: 3, "stroke-width": on ? 1.5 : 1, "data-reel": reel, "data-row": row, ...(on ? { fill: colour, "data-on": "true" } : {}) }));
      }
    }
    const points = line.map((row, reel) => `${x(reel) + cell / 2},${y(row) + cell / 2}`).join(" ");
    picture.append(svg("polyline", { class: "path", points, fill: "none", "stroke-width": 3, "stroke-linejoin": "round", "stroke-linecap": "round", opacity: 0.85 }));
    picture.append(svg("polyline", { points, fill: "none", stroke: "#fff", "stroke-width": 1, "stroke-linejoin": "round", "stroke-linecap": "round", opacity: 0.9 }));
    list.append(h("li", { class: "info-payline", "data-testid": "payline", "data-line": String(i + 1) }, h("span", { class: "info-payline-number" }, `Line ${i + 1}`), picture));
  });
  return list;
}
