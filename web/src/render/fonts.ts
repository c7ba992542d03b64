// The display fonts, bundled from npm (@fontsource, OFL / Apache licences): Vite copies the
// latin woff2 files into the build, so nothing is fetched from a font CDN. Pixi draws text into
// textures once, so a face must be loaded before the first text is drawn: `fontsReady`.
import "@fontsource/limelight/latin-400.css";
import "@fontsource/mountains-of-christmas/latin-700.css";
import "@fontsource/fredoka/latin-600.css";
import "@fontsource/lilita-one/latin-400.css";

/** Each game's display face, and the face of the win counter and celebrations. */
export const FONTS = {
  cluedo: '"Limelight", Georgia, serif',
  cops: '"Mountains of Christmas", Georgia, serif',
  candy: '"Fredoka", "Trebuchet MS", sans-serif',
  display: '"Lilita One", Impact, sans-serif',
} as const;

const FACES = ['400 32px "Limelight"', '700 32px "Mountains of Christmas"', '600 32px "Fredoka"', '400 32px "Lilita One"'];

/** Resolves once the bundled faces are loaded (or after `ms`: text then draws in the fallback). */
export async function fontsReady(ms = 1500): Promise<void> {
  const fonts = (globalThis as { document?: Document }).document?.fonts;
  if (!fonts) return;
  await Promise.race([Promise.all(FACES.map((f) => fonts.load(f).catch(() => []))), new Promise((r) => setTimeout(r, ms))]);
}
