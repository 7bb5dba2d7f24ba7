import emojiData from 'emoji-datasource-google/emoji.json';
import twitterData from 'emoji-datasource-twitter/emoji.json';
import { describe, expect, it } from 'vitest';
import {
  buildSheetIndex,
  codeKey,
  type DatasourceEmoji,
  emojiLookOf,
  sheetBackgroundPosition,
  sheetCell,
} from './emojiSheet';

const index = buildSheetIndex(emojiData as readonly DatasourceEmoji[]);

describe('emojiLookOf', () => {
  it('maps every emojiset to how it shows; the blob style has no sheet and shows google', () => {
    // The service's names (spec: setA = google, setA-blob = google-blob, setB = twitter).
    expect(emojiLookOf('setA')).toBe('google');
    expect(emojiLookOf('setA-blob')).toBe('google');
    expect(emojiLookOf('setB')).toBe('twitter');
    expect(emojiLookOf('google')).toBe('google');
    expect(emojiLookOf('google-blob')).toBe('google');
    expect(emojiLookOf('twitter')).toBe('twitter');
    expect(emojiLookOf('text')).toBe('text');
    expect(emojiLookOf(undefined)).toBe('native');
    expect(emojiLookOf('apple')).toBe('native');
  });
});

describe('the sprite sheet index of emoji-datasource', () => {
  it('reads the square 62-cell grid of the 32 px sheets (2108 px = 62 × 34)', () => {
    expect(index.size).toBe(62);
  });

  it('is the same data in both packages, so one index serves both sets', () => {
    expect(twitterData).toEqual(emojiData);
  });

  it('finds an emoji by its emoji_code, with or without U+FE0F, and by name', () => {
    // grinning (1F600), heart (2764-FE0F, emoji_code 2764), a flag, a keycap, a skin tone.
    expect(sheetCell(index, 'google', '1f600', 'grinning')).toEqual({
      x: 32,
      y: 47,
      google: true,
      twitter: true,
    });
    const heart = { x: 60, y: 46, google: true, twitter: true };
    expect(sheetCell(index, 'twitter', '2764', 'heart')).toEqual(heart);
    expect(sheetCell(index, 'twitter', '2764-fe0f', undefined)).toEqual(heart);
    expect(sheetCell(index, 'google', '2764-FE0F', undefined)).toEqual(heart);
    expect(sheetCell(index, 'google', undefined, 'heart')).toEqual(heart);
    const flag = (emojiData as readonly DatasourceEmoji[]).find((e) => e.unified === '1F1FA-1F1F8');
    expect(sheetCell(index, 'google', '1f1fa-1f1f8', undefined)).toMatchObject({
      x: flag?.sheet_x,
      y: flag?.sheet_y,
    });
    const wave = (emojiData as readonly DatasourceEmoji[]).find((e) => e.short_name === 'wave');
    const darkWave = wave?.skin_variations?.['1F3FF'];
    expect(darkWave).toBeDefined();
    expect(sheetCell(index, 'twitter', '1f44b-1f3ff', undefined)).toMatchObject({
      x: darkWave?.sheet_x,
      y: darkWave?.sheet_y,
    });
  });

  it('has no cell for what is not an emoji of the sheets, nor for a set lacking the image', () => {
    expect(sheetCell(index, 'google', '110000', undefined)).toBeNull();
    expect(sheetCell(index, 'google', undefined, 'no_such_emoji')).toBeNull();
    expect(sheetCell(index, 'google', undefined, undefined)).toBeNull();
    const partial = buildSheetIndex([
      {
        unified: '1F600',
        short_name: 'grinning',
        sheet_x: 3,
        sheet_y: 4,
        has_img_google: true,
        has_img_twitter: false,
      },
    ]);
    expect(sheetCell(partial, 'google', '1f600', undefined)).toEqual({
      x: 3,
      y: 4,
      google: true,
      twitter: false,
    });
    expect(sheetCell(partial, 'twitter', '1f600', undefined)).toBeNull();
  });

  it('keys codes in lowercase without U+FE0F', () => {
    expect(codeKey('0023-FE0F-20E3')).toBe('0023-20e3');
    expect(codeKey('1F600')).toBe('1f600');
  });
});

describe('sheetBackgroundPosition', () => {
  it('places the first cell at 0%, the last at 100%, the others in 1/(size-1) steps', () => {
    expect(sheetBackgroundPosition({ x: 0, y: 0 }, 62)).toBe('0% 0%');
    expect(sheetBackgroundPosition({ x: 61, y: 61 }, 62)).toBe('100% 100%');
    expect(sheetBackgroundPosition({ x: 60, y: 46 }, 62)).toBe('98.3607% 75.4098%');
    expect(sheetBackgroundPosition({ x: 1, y: 2 }, 3)).toBe('50% 100%');
  });
});
