/**
 * The notification sounds, synthesized: each sound name gets a short tone of its own (a few
 * notes with a shape), so "Play" lets a person hear the difference without sound files.
 */

export interface Note {
  /** Hz. */
  frequency: number;
  /** Seconds from the start. */
  start: number;
  /** Seconds. */
  duration: number;
}

export interface Tone {
  wave: OscillatorType;
  notes: Note[];
}

const KNOWN: Record<string, Tone> = {
  chime: {
    wave: 'sine',
    notes: [
      { frequency: 1046.5, start: 0, duration: 0.35 },
      { frequency: 1568, start: 0.12, duration: 0.45 },
    ],
  },
  ding: { wave: 'triangle', notes: [{ frequency: 1318.5, start: 0, duration: 0.5 }] },
  knock: {
    wave: 'square',
    notes: [
      { frequency: 180, start: 0, duration: 0.06 },
      { frequency: 180, start: 0.16, duration: 0.06 },
    ],
  },
};

/** The tone of a sound name; null for "none". Unknown names get a tone derived from the name. */
export function toneFor(name: string): Tone | null {
  if (name === 'none' || name === '') return null;
  const known = KNOWN[name];
  if (known) return known;
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  const base = 400 + (hash % 800);
  return {
    wave: 'sine',
    notes: [
      { frequency: base, start: 0, duration: 0.2 },
      { frequency: base * 1.25, start: 0.15, duration: 0.3 },
    ],
  };
}

/** "Chime" for chime; "None" for none. */
export function soundLabel(name: string): string {
  if (name === 'none') return 'None';
  return name.charAt(0).toUpperCase() + name.slice(1).replaceAll('_', ' ');
}

let context: AudioContext | null = null;

/** Plays the sound's tone (WebAudio); does nothing for "none" or where audio is unavailable. */
export function playSound(name: string): void {
  const tone = toneFor(name);
  if (!tone || typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  const ctx = context;
  void ctx.resume();
  const now = ctx.currentTime;
  for (const note of tone.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = tone.wave;
    osc.frequency.value = note.frequency;
    gain.gain.setValueAtTime(0.0001, now + note.start);
    gain.gain.exponentialRampToValueAtTime(0.2, now + note.start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + note.start + note.duration);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + note.start);
    osc.stop(now + note.start + note.duration + 0.02);
  }
}
