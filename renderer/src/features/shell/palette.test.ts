import { describe, expect, it } from 'vitest';
import { filterPalette, fuzzyScore, type PaletteEntry } from './palette';

const entry = (id: string, kind: PaletteEntry['kind'], label: string, extra: Partial<PaletteEntry> = {}) => ({
  id,
  kind,
  label,
  ...extra,
});

describe('fuzzyScore', () => {
  it('matches characters in order, not out of order', () => {
    expect(fuzzyScore('gnl', 'general')).not.toBeNull();
    expect(fuzzyScore('lng', 'general')).toBeNull();
  });

  it('ranks a prefix above a substring above a scattered match', () => {
    const prefix = fuzzyScore('gen', 'general') ?? 0;
    const inner = fuzzyScore('gen', 'regenerate') ?? 0;
    const scattered = fuzzyScore('gen', 'gardening') ?? 0;
    expect(prefix).toBeGreaterThan(inner);
    expect(inner).toBeGreaterThan(scattered);
  });

  it('prefers word starts', () => {
    expect(fuzzyScore('dnd', 'do not disturb') ?? 0).toBeGreaterThan(fuzzyScore('dnd', 'addendum') ?? 0);
  });
});

describe('filterPalette', () => {
  const entries = [
    entry('s-design', 'stream', 'design'),
    entry('s-general', 'stream', 'general'),
    entry('p-eve', 'person', 'Eve Designer', { detail: 'eve@example.com', searchOnly: true }),
    entry('a-dnd', 'action', 'Turn on do not disturb', { keywords: 'dnd mute notifications' }),
    entry('set-notif', 'setting', 'Notifications'),
  ];

  it('lists everything but search-only entries in section order for an empty query', () => {
    expect(filterPalette(entries, '').map((e) => e.id)).toEqual([
      'a-dnd',
      's-design',
      's-general',
      'set-notif',
    ]);
  });

  it('puts the best match first and drops the rest', () => {
    expect(filterPalette(entries, 'gene').map((e) => e.id)).toEqual(['s-general']);
    expect(filterPalette(entries, 'desi').map((e) => e.id)).toEqual(['s-design', 'p-eve']);
  });

  it('matches details and keywords', () => {
    expect(filterPalette(entries, 'eve@').map((e) => e.id)).toEqual(['p-eve']);
    expect(filterPalette(entries, 'dnd')[0]?.id).toBe('a-dnd');
  });

  it('limits the results', () => {
    expect(filterPalette(entries, '', 2)).toHaveLength(2);
  });
});
