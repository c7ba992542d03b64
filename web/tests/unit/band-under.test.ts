// The room under the reels for a game's signs on a phone (screens/game/band-under.ts), shared by
// Cluedo's plaques and Cops n Robbers' band: under the window and the words' strip, over the
// console and its air, at most the signs' tallest.
import { describe, expect, it } from "vitest";
import { bandUnder } from "../../src/screens/game/band-under";

describe("the band under the reels", () => {
  const window = { x: 10, y: 100, width: 370, height: 240 }; // bottom at 340
  it("starts under the words' strip and ends at the air over the console, capped at its tallest", () => {
    // host 844 tall, the console covering 250: 844 - 250 - 8 = 586 is the band's floor
    expect(bandUnder(window, 844, 250, { strip: 54, air: 8, most: 150 })).toEqual({ top: 394, room: 192, height: 150 });
    expect(bandUnder(window, 844, 250, { strip: 54, air: 8, most: 300 })).toEqual({ top: 394, room: 192, height: 192 });
  });
  it("says a room too small (or none) as it is: the game hides its signs there", () => {
    expect(bandUnder(window, 844, 500, { strip: 46, air: 8, most: 140 })).toEqual({ top: 386, room: -50, height: -50 });
  });
});
