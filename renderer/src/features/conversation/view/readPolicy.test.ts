import { describe, expect, it } from 'vitest';
import type { Narrow } from '../../../../../shared/domain/narrow';
import { marksReadOnScroll, seenUnreadIds } from './readPolicy';

const topic: Narrow = { kind: 'topic', streamId: 1, topic: 'lunch' };
const dm: Narrow = { kind: 'dm', userIds: [11] };
const stream: Narrow = { kind: 'stream', streamId: 1 };
const all: Narrow = { kind: 'all' };
const search: Narrow = { kind: 'search', query: 'lunch' };

describe('marksReadOnScroll', () => {
  it('always (1, and the default when the setting is unknown) marks read in every view but a search', () => {
    for (const policy of [1, undefined, 'x']) {
      expect(
        [topic, dm, stream, all, { kind: 'starred' } as Narrow].map((n) => marksReadOnScroll(policy, n)),
      ).toEqual([true, true, true, true, true]);
      expect(marksReadOnScroll(policy, search)).toBe(false);
    }
  });

  it('only in conversation views (2): a topic or a private conversation', () => {
    expect(marksReadOnScroll(2, topic)).toBe(true);
    expect(marksReadOnScroll(2, dm)).toBe(true);
    expect(marksReadOnScroll(2, stream)).toBe(false);
    expect(marksReadOnScroll(2, all)).toBe(false);
    expect(marksReadOnScroll(2, { kind: 'dms' })).toBe(false);
    expect(marksReadOnScroll(2, search)).toBe(false);
  });

  it('never (3)', () => {
    for (const n of [topic, dm, stream, all, search]) expect(marksReadOnScroll(3, n)).toBe(false);
  });
});

describe('seenUnreadIds', () => {
  const rows = [
    { id: 1, unread: true, start: 0, end: 100 }, // above the viewport
    { id: 2, unread: true, start: 100, end: 250 }, // top cut off, bottom visible
    { id: 3, unread: false, start: 250, end: 300 }, // read already
    { id: 4, unread: true, start: 300, end: 400 }, // fully visible
    { id: 5, unread: true, start: 400, end: 520 }, // bottom below the viewport
  ];

  it('takes unread messages whose bottom is on screen, in id order, skipping those already asked for', () => {
    expect(seenUnreadIds(rows, 150, 300, new Set())).toEqual([2, 4]);
    expect(seenUnreadIds(rows, 150, 300, new Set([4]))).toEqual([2]);
    expect(seenUnreadIds(rows, 0, 1000, new Set())).toEqual([1, 2, 4, 5]);
  });

  it('takes a message taller than the viewport once the viewport is inside it', () => {
    const tall = [{ id: 9, unread: true, start: 0, end: 2000 }];
    expect(seenUnreadIds(tall, 500, 400, new Set())).toEqual([9]);
    expect(seenUnreadIds(tall, 0, 400, new Set())).toEqual([9]);
  });

  it('takes nothing when no unread bottom is on screen', () => {
    expect(seenUnreadIds(rows, 255, 40, new Set())).toEqual([]);
  });
});
