import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../../../../shared/ipc';
import type { Message } from '../../../../../shared/protocol/messages';
import { editMark, messageRows, pendingRows, SENDER_RUN_SECONDS } from './rows';

const ME = 10;
const BOB = 11;
const CAROL = 12;

function streamMessage(id: number, sender: number, topic: string, timestamp: number, streamId = 1): Message {
  return {
    id,
    type: 'stream',
    stream_id: streamId,
    subject: topic,
    content: `<p>m${id}</p>`,
    display_recipient: 'general',
    sender_id: sender,
    sender_email: `${sender}@example.com`,
    sender_full_name: `User ${sender}`,
    timestamp,
    is_me_message: false,
    avatar_url: null,
    reactions: [],
    flags: ['read'],
  };
}

function privateMessage(id: number, sender: number, people: number[], timestamp: number): Message {
  return {
    ...streamMessage(id, sender, '', timestamp),
    type: 'private',
    display_recipient: people.map((p) => ({ id: p, email: `${p}@example.com`, full_name: `User ${p}` })),
  };
}

const summary = (rows: ReturnType<typeof messageRows>) =>
  rows.map((r) => `${r.message.id}${r.recipientBar ? ' bar' : ''}${r.senderHeader ? ' head' : ''}`);

describe('messageRows', () => {
  it('puts a recipient bar before each run of a topic, case-insensitively, and per stream', () => {
    const rows = messageRows(
      [
        streamMessage(1, BOB, 'lunch', 1000),
        streamMessage(2, BOB, 'Lunch', 1010),
        streamMessage(3, BOB, 'design', 1020),
        streamMessage(4, BOB, 'design', 1030, 2),
        streamMessage(5, BOB, 'lunch', 1040),
      ],
      ME,
    );
    expect(summary(rows)).toEqual(['1 bar head', '2', '3 bar head', '4 bar head', '5 bar head']);
  });

  it('shows the sender again when the sender changes, after a pause, or for a /me message', () => {
    const me = { ...streamMessage(5, CAROL, 't', 1100), is_me_message: true };
    const rows = messageRows(
      [
        streamMessage(1, BOB, 't', 1000),
        streamMessage(2, BOB, 't', 1000 + SENDER_RUN_SECONDS),
        streamMessage(3, BOB, 't', 1001 + 2 * SENDER_RUN_SECONDS),
        streamMessage(4, CAROL, 't', 1002 + 2 * SENDER_RUN_SECONDS),
        me,
        streamMessage(6, CAROL, 't', 1003 + 2 * SENDER_RUN_SECONDS),
      ],
      ME,
    );
    expect(summary(rows)).toEqual(['1 bar head', '2', '3 head', '4 head', '5 head', '6 head']);
  });

  it('groups private messages by their people, whoever sent them', () => {
    const rows = messageRows(
      [
        privateMessage(1, BOB, [ME, BOB], 1000),
        privateMessage(2, ME, [ME, BOB], 1010),
        privateMessage(3, ME, [ME, BOB, CAROL], 1020),
        privateMessage(4, CAROL, [CAROL, BOB, ME], 1030),
        streamMessage(5, CAROL, 't', 1040),
      ],
      ME,
    );
    expect(summary(rows)).toEqual(['1 bar head', '2 head', '3 bar head', '4 head', '5 bar head']);
  });

  it('keys rows by message id', () => {
    expect(messageRows([streamMessage(7, BOB, 't', 1)], ME).map((r) => r.key)).toEqual(['m7']);
  });
});

function outbox(localId: string, extra: Partial<OutboxItem>): OutboxItem {
  return {
    localId,
    type: 'stream',
    to: [1],
    topic: 'lunch',
    content: 'hi',
    createdAt: 1,
    status: 'queued',
    error: null,
    messageId: null,
    ...extra,
  };
}

describe('pendingRows', () => {
  const items = [
    outbox('b', { createdAt: 2 }),
    outbox('a', { createdAt: 1, status: 'failed', error: 'No such stream' }),
    outbox('c', { createdAt: 3, topic: 'other' }),
    outbox('d', { createdAt: 4, type: 'private', to: [BOB], topic: '' }),
    outbox('e', { createdAt: 5, status: 'sent', messageId: 40 }),
    outbox('f', { createdAt: 6, to: [2] }),
  ];

  it('keeps the outbox items of the narrow, oldest first, without those already in the list', () => {
    const rows = pendingRows(
      items,
      { kind: 'topic', streamId: 1, topic: 'Lunch' },
      ME,
      new Set([40]),
      undefined,
    );
    expect(rows.map((r) => r.item.localId)).toEqual(['a', 'b']);
    expect(rows.map((r) => r.recipientBar)).toEqual([true, false]);
  });

  it('matches private conversations by their people, and the combined feed takes all', () => {
    expect(
      pendingRows(items, { kind: 'dm', userIds: [BOB] }, ME, new Set(), undefined).map((r) => r.item.localId),
    ).toEqual(['d']);
    expect(pendingRows(items, { kind: 'all' }, ME, new Set(), undefined).map((r) => r.item.localId)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(pendingRows(items, { kind: 'starred' }, ME, new Set(), undefined)).toEqual([]);
  });

  it('continues the last message’s run without a new recipient bar', () => {
    const last = streamMessage(30, BOB, 'lunch', 1);
    const rows = pendingRows(items, { kind: 'stream', streamId: 1 }, ME, new Set(), last);
    expect(rows.map((r) => [r.item.localId, r.recipientBar])).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
      ['e', true],
    ]);
  });
});

describe('editMark', () => {
  it('says edited when the content changed, moved when only the topic or stream did', () => {
    expect(editMark({})).toBe(null);
    expect(editMark({ last_edit_timestamp: 5 })).toBe('edited');
    expect(editMark({ last_edit_timestamp: 5, edit_history: [{ prev_content: 'a', timestamp: 5 }] })).toBe(
      'edited',
    );
    expect(
      editMark({
        last_edit_timestamp: 6,
        edit_history: [
          { prev_topic: 'a', timestamp: 6 },
          { prev_content: 'x', prev_rendered_content: 'y', timestamp: 5 },
        ],
      }),
    ).toBe('edited');
    expect(editMark({ last_edit_timestamp: 6, edit_history: [{ prev_topic: 'a', timestamp: 6 }] })).toBe(
      'moved',
    );
    expect(editMark({ last_edit_timestamp: 6, edit_history: [{ prev_stream: 2, timestamp: 6 }] })).toBe(
      'moved',
    );
  });
});
