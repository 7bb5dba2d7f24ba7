import { describe, expect, it } from 'vitest';
import {
  filterPalette,
  fuzzyScore,
  type KnownTopic,
  mergeTopics,
  type PaletteEntry,
  searchEntry,
  streamQuery,
} from './palette';

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

describe('streamQuery', () => {
  const streams = ['design', 'design team', 'general', 'Rust'];

  it('finds a whole stream name at the start, with or without #, the longest first', () => {
    expect(streamQuery('#general', streams)).toEqual({ streams: ['general'], topic: '' });
    expect(streamQuery('general', streams)).toEqual({ streams: ['general'], topic: '' });
    expect(streamQuery('design team / standup', streams)).toEqual({
      streams: ['design team'],
      topic: 'standup',
    });
    expect(streamQuery('#design>standup', streams)).toEqual({ streams: ['design'], topic: 'standup' });
    expect(streamQuery('rust: async', streams)).toEqual({ streams: ['Rust'], topic: 'async' });
  });

  it('after # takes the start of names, with the topic after a separator or a space', () => {
    expect(streamQuery('#des', streams)).toEqual({ streams: ['design', 'design team'], topic: '' });
    expect(streamQuery('#gen/greet', streams)).toEqual({ streams: ['general'], topic: 'greet' });
    expect(streamQuery('#gen greet', streams)).toEqual({ streams: ['general'], topic: 'greet' });
  });

  it('names no stream for other queries', () => {
    expect(streamQuery('generally', streams)).toBeNull();
    expect(streamQuery('gen', streams)).toBeNull();
    expect(streamQuery('#nothing', streams)).toBeNull();
    expect(streamQuery('#', streams)).toBeNull();
    expect(streamQuery('', streams)).toBeNull();
  });
});

describe('topics in the palette', () => {
  const topics = [
    entry('s-general', 'stream', '#general'),
    entry('s-design', 'stream', '#design'),
    entry('t-greet', 'topic', 'greetings', { detail: '#general', scope: 'general', searchOnly: true }),
    entry('t-lunch', 'topic', 'lunch', { detail: '#general', scope: 'general', searchOnly: true }),
    entry('t-design-lunch', 'topic', 'lunch', { detail: '#design', scope: 'design', searchOnly: true }),
    entry('t-unread', 'topic', 'release plan', { detail: '#design · 2 unread', scope: 'design' }),
  ];

  it('offers unread topics before typing, read ones only once searched for', () => {
    expect(filterPalette(topics, '').map((e) => e.id)).toEqual(['s-general', 's-design', 't-unread']);
    expect(filterPalette(topics, 'greet').map((e) => e.id)).toEqual(['t-greet']);
  });

  it('lists every topic of a stream the query names, after the stream itself', () => {
    expect(filterPalette(topics, '#general').map((e) => e.id)).toEqual(['s-general', 't-greet', 't-lunch']);
  });

  it('matches the rest of the query against the named stream’s topics first', () => {
    expect(filterPalette(topics, '#design lunch').map((e) => e.id)[0]).toBe('t-design-lunch');
    expect(filterPalette(topics, 'general/lun').map((e) => e.id)).toEqual(['t-lunch']);
    // Without a stream both lunches match, by their label.
    expect(
      filterPalette(topics, 'lunch')
        .map((e) => e.id)
        .sort(),
    ).toEqual(['t-design-lunch', 't-lunch']);
  });
});

describe('mergeTopics', () => {
  const topic = (streamId: number, name: string, extra: Partial<KnownTopic> = {}): KnownTopic => ({
    streamId,
    streamName: `s${streamId}`,
    topic: name,
    unread: 0,
    mentioned: false,
    maxId: 0,
    ...extra,
  });

  it('lists each topic once (names without regard to case), unread first, then newest first', () => {
    const merged = mergeTopics([
      [topic(1, 'Lunch', { unread: 3, maxId: 40 })],
      [topic(1, 'lunch', { maxId: 50 }), topic(1, 'old', { maxId: 10 }), topic(2, 'lunch', { maxId: 30 })],
      [topic(1, 'followed', { mentioned: true })],
    ]);
    expect(merged.map((t) => [t.streamId, t.topic, t.unread, t.maxId])).toEqual([
      [1, 'Lunch', 3, 50],
      [2, 'lunch', 0, 30],
      [1, 'old', 0, 10],
      [1, 'followed', 0, 0],
    ]);
    expect(merged[3]?.mentioned).toBe(true);
  });
});

describe('searchEntry', () => {
  it('offers a search of the messages for the trimmed query, none for a blank one', () => {
    expect(searchEntry('  lunch plans ')).toEqual({
      id: 'search:messages',
      kind: 'search',
      label: 'Search for “lunch plans”',
      detail: 'in messages',
    });
    expect(searchEntry('   ')).toBeNull();
  });
});
