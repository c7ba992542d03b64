// The payline diagrams: one small SVG per line of the description's `paylines` (a row index per
// reel, line 1 first), the window's cells with the line's cells lit and a stroke through them.
import { h } from "../../ui/dom";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#ffd166", "#ef476f", "#06d6a0", "#4cc9f0", "#f78c6b", "#c77dff", "#90be6d", "#f9844a", "#43aa8b", "#f94144"];

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

export function paylineDiagrams(paylines: readonly (readonly number[])[], rows: number): HTMLElement {
  const cell = 18;
  const gap = 3;
  const list = h("ol", { class: "info-paylines", "data-testid": "paylines", "aria-label": `${paylines.length} paylines` });
  paylines.forEach((line, i) => {
    const reels = line.length;
    const width = reels * cell + (reels - 1) * gap;
    const height = rows * cell + (rows - 1) * gap;
    const colour = COLOURS[i % COLOURS.length] ?? "#ffd166";
    const picture = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: width * 2, height: height * 2, role: "img", "aria-label": `Line ${i + 1}: rows ${line.map((r) => r + 1).join(", ")} from the left reel` });
    for (let reel = 0; reel < reels; reel++) {
      for (let row = 0; row < rows; row++) {
        const on = line[reel] === row;
        picture.append(svg("rect", { x: reel * (cell + gap), y: row * (cell + gap), width: cell, height: cell, rx: 3, fill: on ? colour : "#2d1f4f", stroke: on ? "#fff" : "#4a3875", "stroke-width": on ? 1.5 : 1, "data-reel": reel, "data-row": row, ...(on ? { "data-on": "true" } : {}) }));
      }
    }
    const points = line.map((row, reel) => `${reel * (cell + gap) + cell / 2},${row * (cell + gap) + cell / 2}`).join(" ");
    picture.append(svg("polyline", { points, fill: "none", stroke: "#140c24", "stroke-width": 2.5, "stroke-linejoin": "round", "stroke-linecap": "round", opacity: 0.85 }));
    list.append(h("li", { class: "info-payline", "data-testid": "payline", "data-line": String(i + 1) }, h("span", { class: "info-payline-number" }, `Line ${i + 1}`), picture));
  });
  return list;
}
