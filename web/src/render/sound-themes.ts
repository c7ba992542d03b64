// Each game's sound, as data the synthesiser in sound.ts plays: a short looping motif (notes
// on a grid of eighth notes) and the palette its effects are drawn from (the scale their
// arpeggios climb, the timbre). All original, written for this project.
//
//   cluedo          noir: a walking bass in A minor under a brushed hi-hat and a muted vibes chord
//   cops-n-robbers  Christmas: sleigh bells on every eighth, a jingling bell tune in G major
//   candy-jar-...   sweet: a bright marimba pluck bouncing in C major pentatonic
//   (anything else) the lobby's soft pad arpeggio

/** A timbre the synthesiser knows. */
export type Voice = "bass" | "vibes" | "brush" | "bell" | "sleigh" | "marimba" | "pad";

/** One note of a loop: at eighth `at`, MIDI note `midi` (ignored by the noise voices), held
 * `len` eighths, at `vol` (0..1). */
export interface Note { at: number; midi: number; len: number; voice: Voice; vol?: number }

export interface SoundTheme {
  name: string;
  bpm: number;
  /** The loop's length in eighths. */
  steps: number;
  music: Note[];
  /** MIDI notes the effects' arpeggios climb (win, feature), lowest first. */
  scale: number[];
  /** The voice of the effects' tones. */
  lead: Voice;
  /** The voice of a reel's stop. */
  stop: Voice;
}

const seq = (voice: Voice, notes: [number, number, number?][], vol?: number): Note[] =>
  notes.map(([at, midi, len]) => ({ at, midi, len: len ?? 1, voice, vol }));

// A minor walking bass, two bars of quarter notes (every second eighth): A C E G# | A G F E.
const NOIR: SoundTheme = {
  name: "noir",
  bpm: 92,
  steps: 16,
  music: [
    ...seq("bass", [[0, 45, 2], [2, 48, 2], [4, 52, 2], [6, 56, 2], [8, 57, 2], [10, 55, 2], [12, 53, 2], [14, 52, 2]], 0.9),
    ...seq("brush", [[1, 0], [3, 0], [5, 0], [7, 0], [9, 0], [11, 0], [13, 0], [15, 0]], 0.35),
    ...seq("vibes", [[0, 69, 4], [0, 72, 4], [0, 76, 4], [8, 65, 4], [8, 69, 4], [8, 72, 4]], 0.35),
  ],
  scale: [57, 60, 64, 67, 69, 72, 76, 79, 81],
  lead: "vibes",
  stop: "bass",
};

// Sleigh bells on every eighth (accented on the beat) and a bell tune: G B D B | C E D G.
const JINGLE: SoundTheme = {
  name: "jingle",
  bpm: 138,
  steps: 16,
  music: [
    ...Array.from({ length: 16 }, (_, i) => ({ at: i, midi: 0, len: 1, voice: "sleigh" as const, vol: i % 2 ? 0.35 : 0.7 })),
    ...seq("bell", [[0, 79, 2], [2, 83, 2], [4, 86, 3], [7, 83, 1], [8, 84, 2], [10, 88, 2], [12, 86, 2], [14, 79, 2]], 0.6),
    ...seq("bass", [[0, 43, 4], [4, 50, 4], [8, 48, 4], [12, 50, 4]], 0.6),
  ],
  scale: [67, 71, 74, 76, 79, 83, 86, 88, 91],
  lead: "bell",
  stop: "sleigh",
};

// A marimba bouncing in C pentatonic: C E G A G E D G | C' A G E D C D E.
const MARIMBA: SoundTheme = {
  name: "marimba",
  bpm: 116,
  steps: 16,
  music: [
    ...seq("marimba", [[0, 72], [1, 76], [2, 79], [3, 81], [4, 79], [5, 76], [6, 74], [7, 79], [8, 84], [9, 81], [10, 79], [11, 76], [12, 74], [13, 72], [14, 74], [15, 76]], 0.6),
    ...seq("marimba", [[0, 48, 2], [4, 55, 2], [8, 53, 2], [12, 55, 2]], 0.8),
  ],
  scale: [72, 74, 76, 79, 81, 84, 86, 88, 91],
  lead: "marimba",
  stop: "marimba",
};

const PAD: SoundTheme = {
  name: "pad",
  bpm: 70,
  steps: 16,
  music: seq("pad", [[0, 57, 8], [0, 64, 8], [8, 53, 8], [8, 60, 8], [0, 69, 4], [4, 72, 4], [8, 69, 4], [12, 65, 4]], 0.5),
  scale: [60, 64, 67, 72, 76, 79, 84, 88, 91],
  lead: "pad",
  stop: "pad",
};

const BY_KEY: Record<string, SoundTheme> = { cluedo: NOIR, "cops-n-robbers": JINGLE, "candy-jar-clusters": MARIMBA };

/** The sound of the game `key` (a test-only game key like "cluedo-win" sounds like its game);
 * null or an unknown key: the lobby's pad. */
export function themeFor(key: string | null): SoundTheme {
  if (!key) return PAD;
  return BY_KEY[key] ?? Object.entries(BY_KEY).find(([k]) => key.startsWith(k + "-"))?.[1] ?? PAD;
}

export const midiHz = (midi: number): number => 440 * 2 ** ((midi - 69) / 12);
