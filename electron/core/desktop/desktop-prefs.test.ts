/** Where the window reopens (saved place against the connected displays) and which spellchecker it uses. */
import { describe, expect, it } from 'vitest';
import { restoreBounds, spellcheckerLanguages, windowStateToSave } from './desktop-prefs';

const DEFAULTS = { width: 1100, height: 760, minWidth: 480, minHeight: 400 };
const LAPTOP = { x: 0, y: 0, width: 1440, height: 875 };
const RIGHT_MONITOR = { x: 1440, y: -200, width: 2560, height: 1400 };

describe('restoreBounds', () => {
  it('restores a window that is on a connected display', () => {
    expect(
      restoreBounds({ x: 100, y: 50, width: 900, height: 700, maximized: false }, [LAPTOP], DEFAULTS),
    ).toEqual({ x: 100, y: 50, width: 900, height: 700, maximized: false });
    expect(
      restoreBounds(
        { x: 2000, y: -100, width: 1600, height: 1000, maximized: true },
        [LAPTOP, RIGHT_MONITOR],
        DEFAULTS,
      ),
    ).toEqual({ x: 2000, y: -100, width: 1600, height: 1000, maximized: true });
  });

  it('centres a window whose display is gone, keeping a size that fits the primary display', () => {
    expect(
      restoreBounds({ x: 2000, y: -100, width: 1600, height: 1000, maximized: true }, [LAPTOP], DEFAULTS),
    ).toEqual({ width: 1440, height: 875, maximized: true });
  });

  it('refuses a title bar off the top of every display or only slightly on screen', () => {
    expect(restoreBounds({ x: 100, y: -300, width: 900, height: 700 }, [LAPTOP], DEFAULTS)).toEqual({
      width: 900,
      height: 700,
      maximized: false,
    });
    // 40 px of the title bar at the right edge: too little to grab.
    expect(restoreBounds({ x: 1400, y: 100, width: 900, height: 700 }, [LAPTOP], DEFAULTS)).toEqual({
      width: 900,
      height: 700,
      maximized: false,
    });
    // 150 px: enough.
    expect(restoreBounds({ x: 1290, y: 100, width: 900, height: 700 }, [LAPTOP], DEFAULTS)).toMatchObject({
      x: 1290,
      y: 100,
    });
  });

  it('keeps sizes between the minimum and the largest display', () => {
    expect(restoreBounds({ x: 10, y: 10, width: 100, height: 50 }, [LAPTOP], DEFAULTS)).toEqual({
      x: 10,
      y: 10,
      width: 480,
      height: 400,
      maximized: false,
    });
    expect(restoreBounds({ x: 0, y: 0, width: 9000, height: 9000 }, [LAPTOP], DEFAULTS)).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      maximized: false,
    });
  });

  it.each([
    null,
    undefined,
    'garbage',
    { x: 1, y: 2 },
    { x: 1.5, y: 2, width: 900, height: 700 },
    { x: 0, y: 0, width: -5, height: 700 },
    { x: 0, y: 0, width: 900, height: 700, maximized: 'yes' },
  ])('uses the defaults for %j', (saved) => {
    expect(restoreBounds(saved, [LAPTOP], DEFAULTS)).toEqual({ width: 1100, height: 760, maximized: false });
  });

  it('copes with no displays at all', () => {
    expect(restoreBounds({ x: 0, y: 0, width: 900, height: 700 }, [], DEFAULTS)).toEqual({
      width: 480,
      height: 400,
      maximized: false,
    });
  });

  it('saves whole pixels, and round-trips', () => {
    const saved = windowStateToSave({ x: 10.4, y: 20.6, width: 800.2, height: 600 }, true);
    expect(saved).toEqual({ x: 10, y: 21, width: 800, height: 600, maximized: true });
    expect(restoreBounds(JSON.parse(JSON.stringify(saved)), [LAPTOP], DEFAULTS)).toEqual(saved);
  });
});

// A typical Windows/Linux list from session.availableSpellCheckerLanguages.
const CHROMIUM = [
  'af',
  'bg',
  'de',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-US',
  'es',
  'es-419',
  'es-ES',
  'fr',
  'nl',
  'pt-BR',
  'pt-PT',
  'sv',
  'ru',
];

describe('spellcheckerLanguages', () => {
  it.each([
    ['en', ['en-US']],
    ['en_GB', ['en-GB']],
    ['en-gb', ['en-GB']],
    ['de', ['de']],
    ['es', ['es']],
    ['es_MX', ['es']],
    ['pt', ['pt-BR']],
    ['pt_PT', ['pt-PT']],
    ['fr', ['fr']],
    ['ru', ['ru']],
    // No dictionary for these: US English.
    ['zh-hans', ['en-US']],
    ['ja', ['en-US']],
    ['', ['en-US']],
    [null, ['en-US']],
  ])('%j -> %j', (language, expected) => {
    expect(spellcheckerLanguages(language, CHROMIUM)).toEqual(expected);
  });

  it('takes a regional dictionary when only those exist, and nothing when nothing fits', () => {
    expect(spellcheckerLanguages('de', ['de-DE', 'de-CH', 'en-US'])).toEqual(['de-DE']);
    expect(spellcheckerLanguages('sv', ['sv-FI', 'en-US'])).toEqual(['sv-FI']);
    expect(spellcheckerLanguages('ja', ['de'])).toEqual([]);
    expect(spellcheckerLanguages('en', [])).toEqual([]);
  });
});
