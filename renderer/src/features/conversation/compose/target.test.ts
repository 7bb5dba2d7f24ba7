import { describe, expect, it } from 'vitest';
import type { LocalDraft } from '../../../../../shared/ipc';
import {
  checkSend,
  draftCountText,
  draftInputOf,
  draftKey,
  draftsFor,
  fieldsOfTarget,
  narrowOfTarget,
  outgoingOf,
  targetKey,
  targetOfDraft,
  targetOfFields,
  targetOfMessage,
  targetOfNarrow,
} from './target';

const ME = 10;

function draft(over: Partial<LocalDraft>): LocalDraft {
  return {
    localId: 'd1',
    serverId: null,
    type: 'stream',
    to: [4],
    topic: 'release',
    content: 'text',
    timestamp: 100,
    status: 'pending',
    syncError: null,
    ...over,
  };
}

describe('targetOfNarrow', () => {
  it('writes to a topic, a stream with an empty topic, or the people of a conversation', () => {
    expect(targetOfNarrow({ kind: 'topic', streamId: 4, topic: 'Release' })).toEqual({
      type: 'stream',
      streamId: 4,
      topic: 'Release',
    });
    expect(targetOfNarrow({ kind: 'stream', streamId: 4 })).toEqual({
      type: 'stream',
      streamId: 4,
      topic: '',
    });
    expect(targetOfNarrow({ kind: 'dm', userIds: [9, 8, 9] })).toEqual({ type: 'private', userIds: [8, 9] });
  });

  it('has no target for the views that mix conversations', () => {
    for (const narrow of [
      { kind: 'all' },
      { kind: 'dms' },
      { kind: 'starred' },
      { kind: 'mentions' },
      { kind: 'search', query: 'x' },
    ] as const) {
      expect(targetOfNarrow(narrow)).toBeNull();
    }
  });
});

describe('targetOfMessage', () => {
  it("replies in a stream message's topic", () => {
    expect(
      targetOfMessage(
        { type: 'stream', stream_id: 4, subject: 'lunch', sender_id: 8, display_recipient: 'general' },
        ME,
      ),
    ).toEqual({ type: 'stream', streamId: 4, topic: 'lunch' });
  });

  it("replies to a private message's other people, and to oneself when alone in it", () => {
    const people = (ids: number[]) => ids.map((id) => ({ id, email: `${id}@x`, full_name: `U${id}` }));
    expect(
      targetOfMessage(
        { type: 'private', subject: '', sender_id: 8, display_recipient: people([ME, 8, 9]) },
        ME,
      ),
    ).toEqual({ type: 'private', userIds: [8, 9] });
    expect(
      targetOfMessage({ type: 'private', subject: '', sender_id: ME, display_recipient: people([ME]) }, ME),
    ).toEqual({ type: 'private', userIds: [ME] });
  });
});

describe('targetKey and draftKey', () => {
  it('ignores the case and outer spaces of a topic', () => {
    expect(targetKey({ type: 'stream', streamId: 4, topic: ' Release ' })).toBe('stream:4:release');
    expect(targetKey({ type: 'stream', streamId: 4, topic: '' })).toBe('stream:4:');
  });

  it('ignores order, duplicates and oneself among the people', () => {
    expect(targetKey({ type: 'private', userIds: [9, 8] }, ME)).toBe('dm:8,9');
    expect(targetKey({ type: 'private', userIds: [8, ME, 9] }, ME)).toBe('dm:8,9');
    expect(targetKey({ type: 'private', userIds: [ME] }, ME)).toBe('dm:');
    expect(targetKey({ type: 'private', userIds: [] }, ME)).toBe('dm:');
  });

  it('keys a draft like its conversation; a draft without recipient has no key', () => {
    expect(draftKey(draft({ type: 'stream', to: [4], topic: 'RELEASE' }), ME)).toBe('stream:4:release');
    expect(draftKey(draft({ type: 'private', to: [ME, 9], topic: '' }), ME)).toBe('dm:9');
    expect(draftKey(draft({ type: '', to: [], topic: '' }), ME)).toBeNull();
    expect(targetOfDraft(draft({ type: 'private', to: [9, 8] }))).toEqual({
      type: 'private',
      userIds: [8, 9],
    });
  });

  it("lists a conversation's drafts newest first", () => {
    const drafts = [
      draft({ localId: 'a', timestamp: 5 }),
      draft({ localId: 'b', timestamp: 9, topic: 'Release' }),
      draft({ localId: 'c', timestamp: 7, topic: 'other' }),
      draft({ localId: 'd', type: 'private', to: [8], topic: '' }),
    ];
    expect(
      draftsFor(drafts, { type: 'stream', streamId: 4, topic: 'release' }, ME).map((d) => d.localId),
    ).toEqual(['b', 'a']);
    expect(draftsFor(drafts, { type: 'private', userIds: [8, ME] }, ME).map((d) => d.localId)).toEqual(['d']);
  });

  it('counts drafts in words, capped at 99+', () => {
    expect(draftCountText(1)).toBe('1 draft');
    expect(draftCountText(2)).toBe('2 drafts');
    expect(draftCountText(100)).toBe('99+ drafts');
  });
});

describe('fields, outgoing messages and drafts', () => {
  it('is a target once a stream or someone is chosen', () => {
    expect(targetOfFields({ kind: 'stream', streamId: null, topic: 'x', userIds: [] })).toBeNull();
    expect(targetOfFields({ kind: 'private', streamId: 4, topic: '', userIds: [] })).toBeNull();
    expect(targetOfFields({ kind: 'private', streamId: null, topic: '', userIds: [9, 8] })).toEqual({
      type: 'private',
      userIds: [8, 9],
    });
    expect(fieldsOfTarget(null, 'private')).toEqual({
      kind: 'private',
      streamId: null,
      topic: '',
      userIds: [],
    });
    expect(fieldsOfTarget({ type: 'stream', streamId: 4, topic: 't' })).toEqual({
      kind: 'stream',
      streamId: 4,
      topic: 't',
      userIds: [],
    });
  });

  it('addresses the outbox: the stream, or the others (oneself when alone)', () => {
    expect(outgoingOf({ type: 'stream', streamId: 4, topic: ' lunch ' }, ME)).toEqual({
      type: 'stream',
      to: [4],
      topic: 'lunch',
    });
    expect(outgoingOf({ type: 'private', userIds: [ME, 9] }, ME)).toEqual({
      type: 'private',
      to: [9],
      topic: '',
    });
    expect(outgoingOf({ type: 'private', userIds: [] }, ME)).toEqual({
      type: 'private',
      to: [ME],
      topic: '',
    });
  });

  it('opens the topic, the stream (no topic) or the conversation once sent', () => {
    expect(narrowOfTarget({ type: 'stream', streamId: 4, topic: 'lunch' }, ME)).toEqual({
      kind: 'topic',
      streamId: 4,
      topic: 'lunch',
    });
    expect(narrowOfTarget({ type: 'stream', streamId: 4, topic: ' ' }, ME)).toEqual({
      kind: 'stream',
      streamId: 4,
    });
    expect(narrowOfTarget({ type: 'private', userIds: [ME] }, ME)).toEqual({ kind: 'dm', userIds: [ME] });
    expect(narrowOfTarget({ type: 'private', userIds: [9, ME, 8] }, ME)).toEqual({
      kind: 'dm',
      userIds: [8, 9],
    });
  });

  it('saves a draft with its id, and without recipient while there is none', () => {
    expect(draftInputOf({ kind: 'stream', streamId: 4, topic: 'x', userIds: [] }, 'hi', 'abc')).toEqual({
      localId: 'abc',
      type: 'stream',
      to: [4],
      topic: 'x',
      content: 'hi',
    });
    expect(draftInputOf({ kind: 'stream', streamId: null, topic: 'x', userIds: [] }, 'hi', null)).toEqual({
      type: '',
      to: [],
      topic: '',
      content: 'hi',
    });
    expect(draftInputOf({ kind: 'private', streamId: null, topic: '', userIds: [9] }, 'hi', null)).toEqual({
      type: 'private',
      to: [9],
      topic: '',
      content: 'hi',
    });
  });
});

describe('checkSend', () => {
  const stream = { kind: 'stream' as const, streamId: 4, topic: '', userIds: [] };
  it('asks for a stream, a required topic, people and text, in that order', () => {
    expect(checkSend({ ...stream, streamId: null }, '', { mandatoryTopics: true })).toEqual({
      field: 'stream',
      message: 'Choose a stream to send to.',
    });
    expect(checkSend(stream, 'hi', { mandatoryTopics: true })).toEqual({
      field: 'topic',
      message: 'Topics are required in this organization.',
    });
    expect(checkSend({ ...stream, topic: '  ' }, 'hi', { mandatoryTopics: true })?.field).toBe('topic');
    expect(checkSend(stream, 'hi', { mandatoryTopics: false })).toBeNull();
    expect(checkSend({ ...stream, topic: 'x'.repeat(61) }, 'hi', { mandatoryTopics: false })).toEqual({
      field: 'topic',
      message: 'Topics are at most 60 characters long.',
    });
    expect(
      checkSend({ kind: 'private', streamId: null, topic: '', userIds: [] }, 'hi', {
        mandatoryTopics: false,
      }),
    ).toEqual({ field: 'to', message: 'Choose at least one person to send to.' });
    expect(checkSend({ ...stream, topic: 't' }, ' \n ', { mandatoryTopics: false })).toEqual({
      field: 'message',
      message: 'Write a message first.',
    });
    expect(checkSend({ ...stream, topic: 't' }, 'x'.repeat(10_001), { mandatoryTopics: false })).toEqual({
      field: 'message',
      message: 'Messages are at most 10,000 characters long.',
    });
  });
});
