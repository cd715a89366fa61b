// Power colours, picked to stay apart for common colour blindness when paired with the initials
// drawn on every unit (colour is never the only cue).
import type { Power } from '../../rules';

export const POWER_COLOURS: Readonly<Record<Power, string>> = {
  austria: '#c8102e',
  england: '#1d4e89',
  france: '#4aa3df',
  germany: '#555555',
  italy: '#2a9d3f',
  russia: '#7b4397',
  turkey: '#e8b400',
};

/** Text on a power's colour: dark on the light ones. */
export const POWER_INK: Readonly<Record<Power, string>> = {
  austria: '#ffffff',
  england: '#ffffff',
  france: '#0b2239',
  germany: '#ffffff',
  italy: '#ffffff',
  russia: '#ffffff',
  turkey: '#2b2100',
};
