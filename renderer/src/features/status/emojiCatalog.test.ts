import compact from 'emojibase-data/en/compact.json';
import cldr from 'emojibase-data/en/shortcodes/cldr.json';
import github from 'emojibase-data/en/shortcodes/github.json';
import { describe, expect, it } from 'vitest';
import {
  buildUnicodeCatalog,
  customEmojiChoices,
  DEFAULT_FREQUENT,
  emojiCodeOfHexcode,
  frequentlyUsed,
  recordUse,
  searchEmoji,
} from './emojiCatalog';

const catalog = buildUnicodeCatalog(compact as never, [github, cldr] as never);

describe('the Unicode catalogue', () => {
  it('names emoji as the server does: GitHub shortcodes first, codes without FE0F', () => {
    expect(catalog.find((c) => c.name === 'palm_tree')).toMatchObject({ code: '1f334', glyph: '🌴' });
    expect(catalog.find((c) => c.code === '1f44d')?.name).toBe('+1');
    expect(catalog.find((c) => c.code === '2764')?.name).toBe('heart');
    expect(emojiCodeOfHexcode('2764-FE0F')).toBe('2764');
  });

  it('leaves out components and gives every name once', () => {
    expect(catalog.some((c) => c.keywords.includes('light skin tone'))).toBe(false);
    expect(new Set(catalog.map((c) => c.name)).size).toBe(catalog.length);
    expect(catalog.length).toBeGreaterThan(1800);
  });

  it('skips an emoji whose only name another claimed first', () => {
    const entries = [
      { hexcode: 'A', label: 'first', unicode: 'a', group: 0 },
      { hexcode: 'B', label: 'second', unicode: 'b', group: 0 },
    ];
    const built = buildUnicodeCatalog(entries, [{ A: 'same', B: ['same'] }]);
    expect(built.map((c) => c.glyph)).toEqual(['a']);
  });

  it('has every default frequent emoji', () => {
    for (const name of DEFAULT_FREQUENT)
      expect(
        catalog.some((c) => c.name === name),
        name,
      ).toBe(true);
  });
});

describe('searchEmoji', () => {
  it('ranks the exact name, then names starting with the query, then keywords', () => {
    const found = searchEmoji(catalog, 'palm');
    expect(found[0]?.name).toBe('palm_tree');
    expect(searchEmoji(catalog, ':tada:')[0]?.name).toBe('tada');
    expect(searchEmoji(catalog, 'thumbs up').map((c) => c.name)).toContain('+1');
  });

  it('finds custom emoji by name and returns everything for an empty query', () => {
    const custom = customEmojiChoices([{ id: '7', name: 'confab_logo' }]);
    expect(searchEmoji([...custom, ...catalog], 'confab')[0]).toMatchObject({
      type: 'realm_emoji',
      code: '7',
    });
    expect(searchEmoji(catalog, '  ')).toHaveLength(catalog.length);
    expect(searchEmoji(catalog, 'zzzzqqq')).toEqual([]);
  });
});

describe('frequentlyUsed', () => {
  it('puts the most used first, then the defaults, within the limit', () => {
    const tada = catalog.find((c) => c.name === 'tada');
    const car = catalog.find((c) => c.name === 'car');
    if (!tada || !car) throw new Error('missing');
    const usage = recordUse(recordUse(recordUse({}, car), tada), tada);
    const list = frequentlyUsed(catalog, usage, 4).map((c) => c.name);
    expect(list).toEqual(['tada', 'car', 'spiral_calendar', 'palm_tree']);
  });

  it('ignores usage of emoji no longer there', () => {
    expect(frequentlyUsed(catalog, { 'realm_emoji:99': 5 }, 2).map((c) => c.name)).toEqual([
      'spiral_calendar',
      'palm_tree',
    ]);
  });
});
