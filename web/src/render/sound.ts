// Sound, synthesized in code with WebAudio (no audio files): short effects (spin, reel stop,
// win, button) and an ambient pad. Started on the first user gesture, as browsers require.
import type { Options } from "../core/options";

export type Sfx = "spin" | "stop" | "win" | "bigwin" | "click" | "error";

export class Sound {
  private ctx: AudioContext | null = null;
  private master: GainNode | null = null;
  private musicGain: GainNode | null = null;
  private musicNodes: AudioScheduledSourceNode[] = [];
  private options: Options;

  constructor(options: Options) {
    this.options = options;
  }

  /** Call from a user gesture (click, key): creates the audio context. */
  unlock(): void {
    if (this.ctx || typeof AudioContext === "undefined") return;
    this.ctx = new AudioContext();
    this.master = this.ctx.createGain();
    this.master.connect(this.ctx.destination);
    this.apply(this.options);
  }

  apply(options: Options): void {
    this.options = options;
    if (!this.ctx || !this.master) return;
    this.master.gain.value = options.audio ? 0.6 : 0;
    if (options.audio && options.music) this.startMusic();
    else this.stopMusic();
  }

  play(effect: Sfx): void {
    const ctx = this.ctx, out = this.master;
    if (!ctx || !out || !this.options.audio || !this.options.sfx) return;
    const t = ctx.currentTime;
    const tone = (freq: number, start: number, length: number, type: OscillatorType = "sine", volume = 0.2) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.setValueAtTime(freq, t + start);
      gain.gain.setValueAtTime(0, t + start);
      gain.gain.linearRampToValueAtTime(volume, t + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + start + length);
      osc.connect(gain).connect(out);
      osc.start(t + start);
      osc.stop(t + start + length + 0.05);
    };
    switch (effect) {
      case "spin": tone(220, 0, 0.25, "sawtooth", 0.06); tone(330, 0.05, 0.25, "sawtooth", 0.05); break;
      case "stop": tone(140, 0, 0.08, "square", 0.08); break;
      case "click": tone(880, 0, 0.05, "triangle", 0.08); break;
      case "win": [523, 659, 784].forEach((f, i) => tone(f, i * 0.08, 0.3, "triangle", 0.15)); break;
      case "bigwin": [523, 659, 784, 1047, 1319].forEach((f, i) => tone(f, i * 0.1, 0.5, "triangle", 0.18)); break;
      case "error": tone(160, 0, 0.3, "square", 0.1); break;
    }
  }

  private startMusic(): void {
    const ctx = this.ctx, out = this.master;
    if (!ctx || !out || this.musicNodes.length) return;
    this.musicGain = ctx.createGain();
    this.musicGain.gain.value = 0.05;
    this.musicGain.connect(out);
    const lfo = ctx.createOscillator();
    const lfoGain = ctx.createGain();
    lfo.frequency.value = 0.15;
    lfoGain.gain.value = 0.03;
    lfo.connect(lfoGain).connect(this.musicGain.gain);
    lfo.start();
    this.musicNodes.push(lfo);
    for (const f of [110, 164.8, 220, 277.2]) {
      const osc = ctx.createOscillator();
      osc.type = "sine";
      osc.frequency.value = f;
      osc.detune.value = (f % 7) - 3;
      osc.connect(this.musicGain);
      osc.start();
      this.musicNodes.push(osc);
    }
  }

  private stopMusic(): void {
    for (const n of this.musicNodes) n.stop();
    this.musicNodes = [];
    this.musicGain?.disconnect();
    this.musicGain = null;
  }
}
