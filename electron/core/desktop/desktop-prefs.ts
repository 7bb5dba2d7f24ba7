/**
 * Pure decisions for the Electron window that depend on the user's machine or settings: where
 * the window reopens, and which spellchecker dictionary it uses. No electron import here.
 */
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What electron/main saves in PROFILE/window-state.json when the window moves or closes. */
export const savedWindowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  maximized: z.boolean().default(false),
});
export type SavedWindowState = z.input<typeof savedWindowStateSchema>;

export interface WindowPlacement {
  /** Absent: let the OS centre the window on the primary display. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface PlacementDefaults {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** The title bar must show this much of itself on one display, or the user cannot move the window. */
const TITLE_BAR_HEIGHT = 32;
const MIN_VISIBLE_WIDTH = 100;
const MIN_VISIBLE_HEIGHT = 16;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * The saved position and size, if the window's title bar would be on a display that is
 * connected now (`screen.getAllDisplays()`'s work areas; the first is the primary one).
 * Otherwise (a monitor unplugged, a corrupt file) the saved size, fitted to the primary
 * display, without a position: the OS centres it. The size never goes below the minimum nor
 * beyond the largest display.
 */
export function restoreBounds(
  saved: unknown,
  workAreas: readonly Rect[],
  defaults: PlacementDefaults,
): WindowPlacement {
  const parsed = savedWindowStateSchema.safeParse(saved);
  const fallback = { width: defaults.width, height: defaults.height, maximized: false };
  const state = parsed.success ? parsed.data : fallback;
  const maxWidth = Math.max(defaults.minWidth, ...workAreas.map((a) => a.width));
  const maxHeight = Math.max(defaults.minHeight, ...workAreas.map((a) => a.height));
  const width = Math.min(Math.max(state.width, defaults.minWidth), maxWidth);
  const height = Math.min(Math.max(state.height, defaults.minHeight), maxHeight);
  if (parsed.success) {
    const titleBar = { x: parsed.data.x, y: parsed.data.y, width, height: TITLE_BAR_HEIGHT };
    const visible = workAreas.some((area) => {
      const o = overlap(titleBar, area);
      return o.width >= Math.min(MIN_VISIBLE_WIDTH, width) && o.height >= MIN_VISIBLE_HEIGHT;
    });
    if (visible) return { x: parsed.data.x, y: parsed.data.y, width, height, maximized: state.maximized };
  }
  const primary = workAreas[0];
  return {
    width: primary ? Math.min(width, Math.max(primary.width, defaults.minWidth)) : width,
    height: primary ? Math.min(height, Math.max(primary.height, defaults.minHeight)) : height,
    maximized: state.maximized,
  };
}

/** What to save: the normal (unmaximized) bounds, so un-maximizing after a restart goes back there. */
export function windowStateToSave(normalBounds: Rect, maximized: boolean): SavedWindowState {
  return {
    x: Math.round(normalBounds.x),
    y: Math.round(normalBounds.y),
    width: Math.round(normalBounds.width),
    height: Math.round(normalBounds.height),
    maximized,
  };
}

// ---- spellchecker ---------------------------------------------------------------------------

/** Where a language has several dictionaries, the one a speaker without a region most likely wants. */
const PREFERRED_REGION: Record<string, string> = {
  en: 'en-US',
  pt: 'pt-BR',
  es: 'es-ES',
  de: 'de-DE',
  fr: 'fr-FR',
  nl: 'nl-NL',
  sv: 'sv-SE',
  it: 'it-IT',
};

/**
 * The user's default_language (the service's codes: `en`, `en_GB`, `pt_BR`, `zh-hans`) to the
 * spellchecker languages Chromium offers (`session.availableSpellCheckerLanguages`: `en-US`,
 * `en-GB`, `de`, `pt-BR`, ...). Falls back to US English, or to nothing when even that is
 * missing (an empty list turns spellchecking off on Windows/Linux rather than failing).
 */
export function spellcheckerLanguages(defaultLanguage: unknown, available: readonly string[]): string[] {
  const byLower = new Map(available.map((code) => [code.toLowerCase(), code]));
  const pick = (code: string | undefined) =>
    code === undefined ? undefined : byLower.get(code.toLowerCase());
  const fallback = pick('en-US') ?? pick('en');
  if (typeof defaultLanguage !== 'string' || defaultLanguage.trim() === '') return fallback ? [fallback] : [];
  const wanted = defaultLanguage.trim().replace(/_/g, '-').toLowerCase();
  const base = wanted.split('-')[0] ?? wanted;
  const found =
    pick(wanted) ??
    pick(base) ??
    pick(PREFERRED_REGION[base]) ??
    available.find((code) => code.toLowerCase().startsWith(`${base}-`)) ??
    fallback;
  return found ? [found] : [];
}
