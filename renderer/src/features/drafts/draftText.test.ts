import { describe, expect, it } from 'vitest';
import type { LocalDraft } from '../../../../shared/ipc';
import {
  deletedText,
  draftSyncText,
  draftTarget,
  draftTargetText,
  draftTime,
  groupDrafts,
  joinNames,
  type Names,
  newestFirst,
} from './draftText';

const names: Names = {
  streamName: (id) => ({ 4: 'engineering', 5: 'design' })[id],
  userName: (id) => ({ 8: 'Bob', 9: 'Carol', 10: 'Alice' })[id],
  ownUserId: 10,
};

function draft(localId: string, timestamp: number, fields: Partial<LocalDraft> = {}): LocalDraft {
  return {
    localId,
    serverId: null,
    type: '',
    to: [],
    topic: '',
    content: 'text',
    timestamp,
    status: 'synced',
    syncError: null,
    ...fields,
  };
}

describe('draft targets', () => {
  it('names streams and people by name, never by id', () => {
    expect(draftTargetText(draftTarget({ type: 'stream', to: [4], topic: 'lunch' }, names))).toBe(
      '#engineering > lunch',
    );
    expect(draftTargetText(draftTarget({ type: 'stream', to: [4], topic: '' }, names))).toBe('#engineering');
    expect(draftTargetText(draftTarget({ type: 'stream', to: [77], topic: 'x' }, names))).toBe(
      '#unknown stream > x',
    );
    expect(draftTargetText(draftTarget({ type: 'private', to: [8, 9, 10], topic: '' }, names))).toBe(
      'Bob and Carol',
    );
    // A note to oneself names oneself.
    expect(draftTargetText(draftTarget({ type: 'private', to: [10], topic: '' }, names))).toBe('Alice');
  });

  it('says when a draft has no recipient yet', () => {
    expect(draftTarget({ type: '', to: [], topic: '' }, names)).toEqual({ kind: 'none' });
    expect(draftTarget({ type: 'stream', to: [], topic: 'x' }, names)).toEqual({ kind: 'none' });
    expect(draftTarget({ type: 'private', to: [], topic: '' }, names)).toEqual({ kind: 'none' });
    expect(draftTargetText({ kind: 'none' })).toBe('No recipient yet');
  });

  it('joins names as a sentence', () => {
    expect(joinNames([])).toBe('');
    expect(joinNames(['Bob'])).toBe('Bob');
    expect(joinNames(['Bob', 'Carol', 'Dan'])).toBe('Bob, Carol and Dan');
  });
});

describe('sync state', () => {
  it('says where the text is', () => {
    expect(draftSyncText({ status: 'synced', syncError: null, content: 'a' })).toBe('Synced');
    expect(draftSyncText({ status: 'pending', syncError: null, content: 'a' })).toBe(
      'Saved on this computer, will sync',
    );
    expect(draftSyncText({ status: 'local-only', syncError: 'Invalid stream', content: 'a' })).toBe(
      'Not synced: the server refused it (Invalid stream)',
    );
    expect(draftSyncText({ status: 'local-only', syncError: null, content: ' ' })).toBe(
      'Not synced: empty drafts stay on this computer',
    );
    expect(draftSyncText({ status: 'local-only', syncError: null, content: 'a' })).toBe(
      'Not synced: draft synchronization is off',
    );
  });

  it('counts deleted drafts', () => {
    expect(deletedText(1)).toBe('Draft deleted.');
    expect(deletedText(3)).toBe('3 drafts deleted.');
  });
});

describe('draft time', () => {
  const now = new Date(2024, 4, 10, 15, 0, 0);
  const at = (d: Date) => d.getTime() / 1000;

  it('shows the time of day for today, in 12 or 24 hours', () => {
    const t = at(new Date(2024, 4, 10, 14, 5, 9));
    expect(draftTime(t, now, false, 'en-US').short.replace(/\s/g, ' ')).toBe('2:05 PM');
    expect(draftTime(t, now, true, 'en-US').short).toBe('14:05');
  });

  it('shows the date for other days, with the year only when not this year', () => {
    expect(draftTime(at(new Date(2024, 4, 9, 23, 59)), now, false, 'en-US').short).toBe('May 9');
    expect(draftTime(at(new Date(2023, 11, 31, 9, 0)), now, false, 'en-US').short).toBe('Dec 31, 2023');
  });

  it('gives the exact date and time for the hover', () => {
    const t = draftTime(at(new Date(2024, 4, 9, 8, 7, 6)), now, true, 'en-US');
    expect(t.exact).toContain('Thursday, May 9, 2024');
    expect(t.exact).toContain('08:07:06');
    expect(t.iso).toBe(new Date(2024, 4, 9, 8, 7, 6).toISOString());
  });
});

describe('grouping', () => {
  const a = draft('a', 100, { type: 'stream', to: [4], topic: 'lunch' });
  const b = draft('b', 300, { type: 'stream', to: [4], topic: 'other' });
  const c = draft('c', 200);
  const d = draft('d', 400, { type: 'stream', to: [5], topic: 'lunch' });

  it('orders newest first', () => {
    expect(newestFirst([a, b, c, d]).map((x) => x.localId)).toEqual(['d', 'b', 'c', 'a']);
  });

  it('puts the open topic’s drafts first, each group newest first', () => {
    const groups = groupDrafts([a, b, c, d], { streamId: 4, topic: 'lunch' }, names.streamName);
    expect(groups.map((g) => [g.title, g.drafts.map((x) => x.localId)])).toEqual([
      ['Drafts for #engineering > lunch', ['a']],
      ['Other drafts', ['d', 'b', 'c']],
    ]);
  });

  it('takes a whole stream when no topic is open', () => {
    const groups = groupDrafts([a, b, c, d], { streamId: 4 }, names.streamName);
    expect(groups[0]?.title).toBe('Drafts for #engineering');
    expect(groups[0]?.drafts.map((x) => x.localId)).toEqual(['b', 'a']);
  });

  it('has one group without a conversation, or when the conversation has no drafts', () => {
    expect(groupDrafts([a, c], null, names.streamName).map((g) => g.title)).toEqual(['All drafts']);
    expect(groupDrafts([a, c], { streamId: 5 }, names.streamName).map((g) => g.title)).toEqual([
      'All drafts',
    ]);
  });
});
