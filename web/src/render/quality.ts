// What each graphics quality level changes in what is drawn: the canvas resolution, the motion
// blur on spinning reels, the particles of a win, and how many frames an animation is drawn in.
import type { Quality } from "../core/options";

export interface QualityProfile {
  resolution: number; // canvas pixels per design pixel (times the device's ratio, capped)
  antialias: boolean;
  motionBlur: boolean; // a blur filter on spinning reels
  particles: number; // sparks of a win highlight
  frameStep: number; // a spinning reel is drawn at most every n-th 60 Hz frame, by time (LOW: fewer)
  glow: boolean; // pulse and glow of winning cells
}

export const PROFILES: Record<Quality, QualityProfile> = {
  BEST: { resolution: 2, antialias: true, motionBlur: true, particles: 48, frameStep: 1, glow: true },
  HIGH: { resolution: 1.5, antialias: true, motionBlur: true, particles: 24, frameStep: 1, glow: true },
  MEDIUM: { resolution: 1, antialias: false, motionBlur: false, particles: 8, frameStep: 1, glow: true },
  LOW: { resolution: 0.75, antialias: false, motionBlur: false, particles: 0, frameStep: 2, glow: false },
};

export function resolutionFor(quality: Quality, devicePixelRatio: number): number {
  return Math.min(PROFILES[quality].resolution * Math.max(1, devicePixelRatio), 3);
}
