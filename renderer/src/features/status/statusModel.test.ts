import compact from 'emojibase-data/en/compact.json';
import cldr from 'emojibase-data/en/shortcodes/cldr.json';
import github from 'emojibase-data/en/shortcodes/github.json';
import { describe, expect, it } from 'vitest';
import { buildUnicodeCatalog } from './emojiCatalog';
import {
  CLEAR_STATUS_PARAMS,
  STATUS_PRESETS,
  statusLength,
  statusParams,
  statusTextProblem,
} from './statusModel';

const palm = { name: 'palm_tree', code: '1f334', type: 'unicode_emoji' as const };

describe('the status text limit', () => {
  it('counts code points of the trimmed text', () => {
    expect(statusLength('  🌴 hi ')).toBe(4);
    expect(statusTextProblem('x'.repeat(60))).toBeNull();
    expect(statusTextProblem('x'.repeat(61))).toBe('The status is 1 character too long (at most 60).');
    expect(statusTextProblem('x'.repeat(65))).toContain('5 characters too long');
  });
});

describe('statusParams', () => {
  const none = { text: '', emoji: null, away: false };
  it('sends the text always, the emoji and away only when they changed', () => {
    expect(statusParams(none, { text: ' Lunch ', emoji: palm, away: false })).toEqual({
      status_text: 'Lunch',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
    expect(
      statusParams({ text: 'a', emoji: palm, away: false }, { text: 'b', emoji: palm, away: true }),
    ).toEqual({
      status_text: 'b',
      away: true,
    });
  });
  it('clears a removed emoji with an empty name', () => {
    expect(
      statusParams({ text: 'a', emoji: palm, away: false }, { text: 'a', emoji: null, away: false }),
    ).toEqual({
      status_text: 'a',
      emoji_name: '',
    });
    expect(CLEAR_STATUS_PARAMS).toEqual({ status_text: '', emoji_name: '' });
  });
});

describe('presets', () => {
  it('name their emoji as the server does', () => {
    const catalog = buildUnicodeCatalog(compact as never, [github, cldr] as never);
    for (const preset of STATUS_PRESETS) {
      const found = catalog.find((c) => c.name === preset.emoji.name);
      expect(found?.code, preset.emoji.name).toBe(preset.emoji.code);
    }
  });
});
