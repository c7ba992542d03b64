// A lobby tile's picture, as a poster: the game's scene (its module's theme.tile, the name in it
// taken out where a logo names the game, the gilt frame left to the tile's own border), its
// cast of three symbols standing in front (theme.cast, the symbols' own SVG), on the scene's
// reflection: a sharp copy mirrored under it, dimmed, that carries it to the tile's foot at any
// shape (a tall column on a desktop, a square on a phone). The reviewer saw the blurred copy that
// did this before as a soft band across Cops' and Candy's posters: the mirror meets the scene
// at its edge, line for line, and nothing is blurred. The gallery's reviewer found Cops' and Candy's tiles thin
// beside Cluedo's hero: every tile is now one of these, the same richness for each game.
// Without tile art: a generic picture (the title over a reel motif). Markup from the bundle
// only, never from a request.
import { h } from "../../ui/dom";
import type { GameView } from "../../net/types";
import type { GameModule } from "../game/registry";
import { prefixIds, withoutFrame, withoutName } from "./tile";

/** The cast's SVG markup for `module` (its theme.cast, each symbol's own art, ids prefixed so
 * that copies in one page never share a gradient), in order; none that the table lacks. */
export function castOf(module: Pick<GameModule, "key" | "theme" | "symbols"> | undefined): string[] {
  const ids = module?.theme?.cast ?? [];
  return ids.flatMap((id) => {
    const svg = module?.symbols?.[id]?.svg;
    return svg ? [prefixIds(svg, `cast-${module?.key}-${id}-`)] : [];
  });
}

/** The scene as the poster shows it: without the name a logo says (withoutName), without the
 * frame (withoutFrame), its ids prefixed by `prefix`. */
export function sceneOf(tile: string, title: string, hasLogo: boolean, prefix: string): string {
  return prefixIds(withoutFrame(hasLogo ? withoutName(tile, title) : tile), prefix);
}

function svgBox(cls: string, markup: string, fit: string): HTMLElement {
  const el = h("span", { class: cls });
  el.innerHTML = markup;
  const svg = el.querySelector("svg");
  svg?.setAttribute("preserveAspectRatio", fit);
  svg?.removeAttribute("width");
  svg?.removeAttribute("height");
  return el;
}

export function posterOf(g: GameView, module: GameModule | undefined): HTMLElement {
  const theme = module?.theme;
  if (!theme?.tile) {
    return h("div", { class: "tile-art generic", "aria-hidden": "true" },
      h("span", { class: "tile-reels" }, h("i"), h("i"), h("i")), h("span", { class: "tile-name" }, g.title));
  }
  const scene = (prefix: string) => sceneOf(theme.tile as string, g.title, !!theme.logo, `${prefix}-${g.key}-`);
  const cast = castOf(module);
  return h("div", { class: "tile-art poster", "aria-hidden": "true", "data-cast": String(cast.length) },
    svgBox("poster-ground", scene("ground"), "xMidYMid slice"),
    h("span", { class: "poster-floor" }),
    svgBox("poster-scene", scene("scene"), "xMidYMid slice"),
    ...(cast.length ? [h("span", { class: "poster-cast" }, ...cast.map((svg) => svgBox("poster-symbol", svg, "xMidYMid meet")))] : []));
}
