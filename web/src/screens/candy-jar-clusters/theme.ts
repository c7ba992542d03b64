// Candy Jar Clusters' look beyond the symbols: the logo in the title and the lobby tile (the
// sweet shop's counter with its big jar), and the cast the lobby's poster stands in front of it.
import type { Theme } from "../game/registry";
import logo from "./art/logo.svg?raw";
import tile from "./art/tile.svg?raw";

export const CANDY_THEME: Theme = { logo, tile, cast: ["CUPCAKE", "WILD", "LOLLIPOP"] };
