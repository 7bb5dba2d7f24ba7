/** The merge rules on their own: server drafts against local ones, by timestamp. */
import { describe, expect, it } from 'vitest';
import type { Draft } from '../../../shared/protocol';
import type { DraftRecord } from './log';
import { applyServerList, Changes, detachAll, mergeServerDraft, removeServerDraft } from './merge';

function local(patch: Partial<DraftRecord> & { localId: string }): DraftRecord {
  return {
    serverId: null,
    type: '',
    to: [],
    topic: '',
    content: 'text',
    timestamp: 100,
    syncedTimestamp: null,
    sent: null,
    deleted: false,
    syncError: null,
    ...patch,
  };
}

const server = (patch: Partial<Draft> & { id: number }): Draft => ({
  type: '',
  to: [],
  topic: '',
  content: 'text',
  timestamp: 100,
  ...patch,
});

function changes(...drafts: DraftRecord[]): Changes {
  let n = 0;
  return new Changes(new Map(drafts.map((d) => [d.localId, d])), () => `new-${++n}`);
}

const texts = (ch: Changes) =>
  ch
    .all()
    .map((d) => ({ content: d.content, serverId: d.serverId, synced: d.syncedTimestamp }))
    .sort((a, b) => a.content.localeCompare(b.content));

describe('merging server drafts', () => {
  it("adds another client's new draft as synced", () => {
    const ch = changes();
    mergeServerDraft(ch, server({ id: 7, content: 'from the phone', timestamp: 200 }));
    expect(ch.all()).toEqual([
      local({
        localId: 'new-1',
        serverId: 7,
        content: 'from the phone',
        timestamp: 200,
        syncedTimestamp: 200,
      }),
    ]);
  });

  it('adopts the server id of our own create whose answer was lost (same timestamp and text)', () => {
    const ch = changes(
      local({
        localId: 'a',
        content: 'hello  ',
        timestamp: 150,
        sent: { timestamp: 150, content: 'hello  ' },
      }),
    );
    // The server trims the end of the text; microsecond rounding moves the timestamp a little.
    mergeServerDraft(ch, server({ id: 3, content: 'hello', timestamp: 150.000001 }));
    expect(ch.all()).toHaveLength(1);
    expect(ch.get('a')).toMatchObject({
      serverId: 3,
      content: 'hello  ',
      syncedTimestamp: 150.000001,
      sent: null,
    });
  });

  it('takes a newer server version over an unchanged local draft, and ignores a stale one', () => {
    const ch = changes(
      local({ localId: 'a', serverId: 1, content: 'old', timestamp: 100, syncedTimestamp: 100 }),
    );
    mergeServerDraft(ch, server({ id: 1, content: 'new', timestamp: 120 }));
    expect(ch.get('a')).toMatchObject({ content: 'new', timestamp: 120, syncedTimestamp: 120 });
    mergeServerDraft(ch, server({ id: 1, content: 'older', timestamp: 110 }));
    expect(ch.get('a')).toMatchObject({ content: 'new', timestamp: 120 });
  });

  it('keeps both texts when both sides changed: the newer server text stays the draft', () => {
    const ch = changes(
      local({ localId: 'a', serverId: 1, content: 'mine', timestamp: 130, syncedTimestamp: 100 }),
    );
    mergeServerDraft(ch, server({ id: 1, content: 'theirs', timestamp: 140 }));
    expect(texts(ch)).toEqual([
      { content: 'mine', serverId: null, synced: null },
      { content: 'theirs', serverId: 1, synced: 140 },
    ]);
    expect(ch.get('new-1')).toMatchObject({ content: 'mine', timestamp: 130 });
  });

  it('keeps both texts when both sides changed: the newer local text stays the draft', () => {
    const ch = changes(
      local({ localId: 'a', serverId: 1, content: 'mine', timestamp: 150, syncedTimestamp: 100 }),
    );
    mergeServerDraft(ch, server({ id: 1, content: 'theirs', timestamp: 140 }));
    expect(texts(ch)).toEqual([
      { content: 'mine', serverId: 1, synced: 140 },
      { content: 'theirs', serverId: null, synced: null },
    ]);
    // Still ahead of the server: the outbox will PATCH it.
    expect(ch.get('a')).toMatchObject({ timestamp: 150, syncedTimestamp: 140 });
  });

  it('recognizes the echo of our own edit while the answer is on its way', () => {
    const ch = changes(
      local({
        localId: 'a',
        serverId: 1,
        content: 'typed on',
        timestamp: 160,
        syncedTimestamp: 100,
        sent: { timestamp: 150, content: 'typed' },
      }),
    );
    mergeServerDraft(ch, server({ id: 1, content: 'typed', timestamp: 150 }));
    expect(ch.all()).toHaveLength(1);
    expect(ch.get('a')).toMatchObject({ content: 'typed on', syncedTimestamp: 150, sent: null });
  });

  it('a removal keeps a locally edited draft (to create again) and drops an unchanged one', () => {
    const ch = changes(
      local({ localId: 'a', serverId: 1, content: 'edited', timestamp: 130, syncedTimestamp: 100 }),
      local({ localId: 'b', serverId: 2, content: 'same', timestamp: 100, syncedTimestamp: 100 }),
    );
    removeServerDraft(ch, 1);
    removeServerDraft(ch, 2);
    expect(ch.all()).toEqual([
      local({ localId: 'a', serverId: null, content: 'edited', timestamp: 130, syncedTimestamp: null }),
    ]);
    expect([...ch.forgets]).toEqual(['b']);
  });

  it('a full list removes synced drafts it lacks and re-sends creates that never arrived', () => {
    const ch = changes(
      local({ localId: 'gone', serverId: 5, timestamp: 100, syncedTimestamp: 100 }),
      local({ localId: 'kept', serverId: 6, content: 'kept', timestamp: 100, syncedTimestamp: 100 }),
      local({ localId: 'lost', content: 'lost', sent: { timestamp: 100, content: 'lost' } }),
    );
    applyServerList(ch, [server({ id: 6, content: 'kept', timestamp: 100 })]);
    expect(ch.get('gone')).toBeUndefined();
    expect(ch.get('kept')).toMatchObject({ serverId: 6 });
    expect(ch.get('lost')).toMatchObject({ serverId: null, sent: null });
  });

  it('turning synchronization off makes every draft local and drops pending deletions', () => {
    const ch = changes(
      local({ localId: 'a', serverId: 1, timestamp: 100, syncedTimestamp: 100 }),
      local({ localId: 'b', serverId: 2, deleted: true }),
    );
    detachAll(ch);
    expect(ch.all()).toEqual([local({ localId: 'a' })]);
  });
});
