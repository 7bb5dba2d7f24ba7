import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DraftInput, LocalDraft } from '../../../../../shared/ipc';
import { createDraftSaver, DRAFT_SAVE_DELAY_MS, type DraftSaver } from './draftSaver';
import type { ComposeEntry } from './store';

/** A drafts store in memory, whose saves can be held to answer later. */
function setup() {
  const entries = new Map<string, ComposeEntry>();
  const drafts = new Map<string, LocalDraft>();
  const log: string[] = [];
  let next = 0;
  let hold = false;
  const held: (() => void)[] = [];
  const saver: DraftSaver = createDraftSaver({
    async save(accountId, draft: DraftInput) {
      const localId = draft.localId ?? `d${++next}`;
      log.push(
        `save ${accountId} ${localId} ${draft.type}:${draft.to.join(',')}:${draft.topic} "${draft.content}"`,
      );
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      const saved: LocalDraft = {
        localId,
        serverId: null,
        type: draft.type,
        to: draft.to,
        topic: draft.topic,
        content: draft.content,
        timestamp: 1,
        status: 'pending',
        syncError: null,
      };
      drafts.set(localId, saved);
      return saved;
    },
    async remove(accountId, localId) {
      log.push(`delete ${accountId} ${localId}`);
      drafts.delete(localId);
    },
    read: (key) => entries.get(key),
    write: (key, update) => {
      const entry = entries.get(key);
      if (entry) entries.set(key, update(entry));
    },
  });
  entries.set('k', {
    accountId: 'acct',
    fields: { kind: 'stream', streamId: 4, topic: 'lunch', userIds: [] },
    text: '',
    draftLocalId: null,
    generation: 0,
    restorable: false,
  });
  const type = (text: string) => {
    const entry = entries.get('k') as ComposeEntry;
    entries.set('k', { ...entry, text });
    saver.schedule('k');
  };
  return {
    saver,
    entries,
    drafts,
    log,
    type,
    holdSaves: () => {
      hold = true;
    },
    release: () => {
      hold = false;
      for (const r of held.splice(0)) r();
    },
  };
}

/** Lets the timers and the promise callbacks run. */
async function settle(ms = 0) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('createDraftSaver', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('saves once, a moment after the last keystroke, then updates that same draft', async () => {
    const t = setup();
    t.type('H');
    await settle(DRAFT_SAVE_DELAY_MS / 2);
    t.type('Hi');
    await settle(DRAFT_SAVE_DELAY_MS - 1);
    expect(t.log).toEqual([]);
    await settle(1);
    expect(t.log).toEqual(['save acct d1 stream:4:lunch "Hi"']);
    expect(t.entries.get('k')?.draftLocalId).toBe('d1');
    t.type('Hi there');
    await settle(DRAFT_SAVE_DELAY_MS);
    expect(t.log).toEqual(['save acct d1 stream:4:lunch "Hi"', 'save acct d1 stream:4:lunch "Hi there"']);
    expect([...t.drafts.keys()]).toEqual(['d1']);
  });

  it('saves at once on flush (leaving the conversation)', async () => {
    const t = setup();
    t.type('Hi');
    await t.saver.flush('k');
    expect(t.log).toEqual(['save acct d1 stream:4:lunch "Hi"']);
    await settle(DRAFT_SAVE_DELAY_MS * 2);
    expect(t.log).toHaveLength(1);
  });

  it('deletes the draft when the box is emptied', async () => {
    const t = setup();
    t.type('Hi');
    await settle(DRAFT_SAVE_DELAY_MS);
    t.type('  ');
    await settle(DRAFT_SAVE_DELAY_MS);
    expect(t.log).toEqual(['save acct d1 stream:4:lunch "Hi"', 'delete acct d1']);
    expect(t.entries.get('k')?.draftLocalId).toBeNull();
    expect(t.saver.isForgotten('d1')).toBe(true);
  });

  it('empties the entry and deletes its draft once sent', async () => {
    const t = setup();
    t.type('Hi');
    await settle(DRAFT_SAVE_DELAY_MS);
    await t.saver.sent('k');
    expect(t.log).toEqual(['save acct d1 stream:4:lunch "Hi"', 'delete acct d1']);
    expect(t.entries.get('k')).toMatchObject({ text: '', draftLocalId: null, generation: 1 });
    expect(t.drafts.size).toBe(0);
  });

  it('drops a pending save when sent before it ran', async () => {
    const t = setup();
    t.type('Hi');
    await t.saver.sent('k');
    await settle(DRAFT_SAVE_DELAY_MS * 2);
    expect(t.log).toEqual([]);
  });

  it('deletes a draft whose first save was on its way as the text was sent', async () => {
    const t = setup();
    t.holdSaves();
    t.type('Hi');
    await settle(DRAFT_SAVE_DELAY_MS);
    const sent = t.saver.sent('k');
    // The user writes the next message meanwhile: it gets a draft of its own.
    t.type('Next');
    t.release();
    await sent;
    await settle(DRAFT_SAVE_DELAY_MS);
    expect(t.log).toEqual([
      'save acct d1 stream:4:lunch "Hi"',
      'delete acct d1',
      'save acct d2 stream:4:lunch "Next"',
    ]);
    expect([...t.drafts.keys()]).toEqual(['d2']);
    expect(t.entries.get('k')?.draftLocalId).toBe('d2');
  });

  it('saves the recipient with the text, and none while there is none', async () => {
    const t = setup();
    const entry = t.entries.get('k') as ComposeEntry;
    t.entries.set('k', { ...entry, fields: { kind: 'private', streamId: null, topic: '', userIds: [] } });
    t.type('Hi');
    await settle(DRAFT_SAVE_DELAY_MS);
    const saved = t.entries.get('k') as ComposeEntry;
    t.entries.set('k', { ...saved, fields: { kind: 'private', streamId: null, topic: '', userIds: [9, 8] } });
    t.saver.schedule('k');
    await settle(DRAFT_SAVE_DELAY_MS);
    expect(t.log).toEqual(['save acct d1 :: "Hi"', 'save acct d1 private:8,9: "Hi"']);
  });
});
