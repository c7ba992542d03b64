// The room a game's signs take under the reels on a phone (Cluedo's plaques, Cops n Robbers'
// band): below the reels' window and the strip kept there for the win's words, above what the
// console (and any panel open over it) covers, less a little air. Each game decides itself
// whether its signs show there and how they sit in it.
import type { Rect } from "../../render/app";

export interface BandUnder {
  /** CSS px from the stage host's top: the window's bottom plus the words' strip. */
  top: number;
  /** CSS px between `top` and the air kept over what the console covers (may be negative). */
  room: number;
  /** The band's height: the room, at most `most`. */
  height: number;
}

/** The band under `window` (CSS px in a host `hostHeight` tall) over `covered` CSS px of the
 * console: `strip` kept for the win's words, `air` over the console, at most `most` tall. */
export function bandUnder(window: Rect, hostHeight: number, covered: number, o: { strip: number; air: number; most: number }): BandUnder {
  const top = window.y + window.height + o.strip;
  const room = hostHeight - covered - o.air - top;
  return { top, room, height: Math.min(room, o.most) };
}
