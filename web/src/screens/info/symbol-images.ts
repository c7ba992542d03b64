// The game's own symbol art (its module's registered `symbols` table, render/symbols.ts), drawn
// once into small images for the paytable: one offscreen Pixi renderer draws each symbol's
// texture, the pixels are read back as PNG data URLs, and the renderer is destroyed at once (the
// page keeps plain <img> elements, no WebGL context).
import { autoDetectRenderer } from "pixi.js";
import { fontsReady } from "../../render/fonts";
import { loadSymbolArt, SymbolTextures, type SymbolTable } from "../../render/symbols";

export async function symbolImages(table: SymbolTable, ids: readonly string[], size: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!ids.length) return out;
  await Promise.all([loadSymbolArt([table]), fontsReady()]);
  const resolution = 2; // sharp on high-density screens; the image is shown at `size` CSS pixels
  const renderer = await autoDetectRenderer({ preference: "webgl", width: size, height: size, backgroundAlpha: 0, antialias: true, resolution });
  const textures = new SymbolTextures(renderer, table, size, resolution);
  try {
    for (const id of ids) {
      const canvas = renderer.extract.canvas(textures.get(id)) as HTMLCanvasElement;
      out.set(id, canvas.toDataURL("image/png"));
    }
  } finally {
    textures.destroy();
    renderer.destroy();
  }
  return out;
}
