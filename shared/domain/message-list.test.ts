/** One narrow's message list: pages merged, and every live event form applied. */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME } from '../../test/fixtures/domain';
import type { EventOf, Message, ServerEvent } from '../protocol';
import {
  applyMessageEvents,
  editMarkOf,
  emptyMessageList,
  type MessageListState,
  mergePage,
  messageFromEvent,
  type Narrow,
} from './index';

function streamMessage(id: number, extra: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    stream_id: 1,
    subject: 'lunch',
    content: `<p>message ${id}</p>`,
    display_recipient: 'general',
    sender_id: BOB,
    sender_email: 'bob@example.com',
    sender_full_name: 'Bob',
    timestamp: 1_700_000_000 + id,
    is_me_message: false,
    avatar_url: null,
    reactions: [],
    flags: [],
    ...extra,
  };
}

function privateMessage(id: number, people: number[], extra: Partial<Message> = {}): Message {
  return {
    ...streamMessage(id),
    type: 'private',
    stream_id: undefined,
    subject: '',
    display_recipient: people.map((p) => ({ id: p, email: `${p}@example.com`, full_name: `U${p}` })),
    ...extra,
  };
}

function listOf(
  narrow: Narrow,
  messages: Message[],
  found = { oldest: true, newest: true },
): MessageListState {
  return mergePage(emptyMessageList(narrow), {
    messages,
    foundOldest: found.oldest,
    foundNewest: found.newest,
  });
}

const topicNarrow: Narrow = { kind: 'topic', streamId: 1, topic: 'lunch' };
const ids = (list: MessageListState) => list.messages.map((m) => m.id);

function messageEvent(message: Message, flags: string[] = []): EventOf<'message'> {
  const { flags: _ignored, ...rest } = message;
  return { id: 0, type: 'message', message: rest, flags } as EventOf<'message'>;
}

const update = (fields: Record<string, unknown>): ServerEvent =>
  ({ id: 0, type: 'update_message', user_id: BOB, edit_timestamp: 1_800_000_000, ...fields }) as ServerEvent;

describe('mergePage', () => {
  it('starts empty', () => {
    expect(emptyMessageList(topicNarrow)).toEqual({
      narrow: topicNarrow,
      messages: [],
      foundOldest: false,
      foundNewest: false,
    });
  });

  it('merges older, newer and overlapping pages ascending, one message per id, the page winning', () => {
    let list = listOf(topicNarrow, [streamMessage(5), streamMessage(3), streamMessage(4)], {
      oldest: false,
      newest: false,
    });
    expect(ids(list)).toEqual([3, 4, 5]);
    list = mergePage(list, { messages: [streamMessage(1), streamMessage(2)], foundOldest: true });
    expect(ids(list)).toEqual([1, 2, 3, 4, 5]);
    expect(list.foundOldest).toBe(true);
    expect(list.foundNewest).toBe(false);
    list = mergePage(list, { messages: [streamMessage(7), streamMessage(6)], foundNewest: true });
    expect(ids(list)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(list.foundNewest).toBe(true);
    const edited = streamMessage(4, { content: '<p>new</p>' });
    list = mergePage(list, {
      messages: [streamMessage(8), edited, streamMessage(2)],
      foundOldest: false,
      foundNewest: false,
    });
    expect(ids(list)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(list.messages[3]?.content).toBe('<p>new</p>');
    // Once reached, an end stays reached.
    expect(list.foundOldest).toBe(true);
    expect(list.foundNewest).toBe(true);
  });

  it('answers the same list for an empty page that reaches nothing new', () => {
    const list = listOf(topicNarrow, [streamMessage(1)], { oldest: false, newest: true });
    expect(mergePage(list, { messages: [] })).toBe(list);
    expect(mergePage(list, { messages: [], foundOldest: true })).toEqual({ ...list, foundOldest: true });
  });

  it('replace starts over with the page and its ends', () => {
    const list = listOf(topicNarrow, [streamMessage(1), streamMessage(2)]);
    const next = mergePage(list, { messages: [streamMessage(9), streamMessage(8)], replace: true });
    expect(ids(next)).toEqual([8, 9]);
    expect(next.foundOldest).toBe(false);
    expect(next.foundNewest).toBe(false);
    expect(next.narrow).toBe(topicNarrow);
  });
});

describe('message events', () => {
  it('messageFromEvent puts the flags beside it into the message', () => {
    const m = streamMessage(4);
    expect(messageFromEvent(messageEvent(m, ['mentioned']))).toEqual({ ...m, flags: ['mentioned'] });
  });

  it('appends a message of the narrow when the list reaches the newest', () => {
    const list = listOf(topicNarrow, [streamMessage(1)]);
    const next = applyMessageEvents(
      list,
      [messageEvent(streamMessage(2), ['read']), messageEvent(streamMessage(3, { subject: 'LUNCH' }))],
      ME,
    );
    expect(ids(next)).toEqual([1, 2, 3]);
    expect(next.messages[1]?.flags).toEqual(['read']);
  });

  it('ignores messages of other narrows, duplicates, and news when the newest is not loaded', () => {
    const list = listOf(topicNarrow, [streamMessage(1)]);
    const events = [
      messageEvent(streamMessage(2, { subject: 'dinner' })),
      messageEvent(streamMessage(3, { stream_id: 2 })),
      messageEvent(privateMessage(4, [ME, BOB])),
      messageEvent(streamMessage(1)),
    ];
    expect(applyMessageEvents(list, events, ME)).toBe(list);
    const notNewest = listOf(topicNarrow, [streamMessage(1)], { oldest: true, newest: false });
    expect(applyMessageEvents(notNewest, [messageEvent(streamMessage(5))], ME)).toBe(notNewest);
  });

  it('keeps ascending order when a message arrives out of order', () => {
    const list = listOf({ kind: 'all' }, [streamMessage(1), streamMessage(5)]);
    const next = applyMessageEvents(
      list,
      [messageEvent(streamMessage(7)), messageEvent(streamMessage(3))],
      ME,
    );
    expect(ids(next)).toEqual([1, 3, 5, 7]);
  });

  it('matches private conversations, starred and mentions by the event', () => {
    const dm = listOf({ kind: 'dm', userIds: [BOB] }, []);
    const events = [
      messageEvent(privateMessage(2, [ME, BOB])),
      messageEvent(privateMessage(3, [ME, BOB, CAROL])),
      messageEvent(privateMessage(4, [ME], { sender_id: ME })),
    ];
    expect(ids(applyMessageEvents(dm, events, ME))).toEqual([2]);
    const mentions = listOf({ kind: 'mentions' }, []);
    const mentioned = [
      messageEvent(streamMessage(5), ['mentioned']),
      messageEvent(streamMessage(6), []),
      messageEvent(streamMessage(7), ['wildcard_mentioned']),
    ];
    expect(ids(applyMessageEvents(mentions, mentioned, ME))).toEqual([5, 7]);
    const search = listOf({ kind: 'search', query: 'lunch' }, []);
    expect(applyMessageEvents(search, [messageEvent(streamMessage(8))], ME)).toBe(search);
  });

  it('answers the same list for events that are not about it', () => {
    const list = listOf(topicNarrow, [streamMessage(1)]);
    const events: ServerEvent[] = [
      { id: 0, type: 'heartbeat' },
      { id: 1, type: 'delete_message', message_type: 'stream', message_ids: [99] },
      update({ message_id: 98, message_ids: [98], rendered_content: '<p>x</p>', content: 'x' }),
      {
        id: 2,
        type: 'reaction',
        op: 'add',
        user_id: BOB,
        message_id: 97,
        emoji_name: 'smile',
        emoji_code: '1f604',
        reaction_type: 'unicode_emoji',
      },
      { id: 3, type: 'update_message_flags', op: 'add', flag: 'starred', messages: [96], all: false },
    ];
    expect(applyMessageEvents(list, events, ME)).toBe(list);
  });
});

describe('update_message', () => {
  it('changes the content, the content flags and marks the message edited', () => {
    const list = listOf(topicNarrow, [streamMessage(1, { flags: ['read', 'mentioned'] }), streamMessage(2)]);
    const next = applyMessageEvents(
      list,
      [
        update({
          message_id: 1,
          message_ids: [1],
          orig_content: 'message 1',
          orig_rendered_content: '<p>message 1</p>',
          content: '/me waves',
          rendered_content: '<p>waves</p>',
          is_me_message: true,
          flags: ['read', 'has_alert_word'],
          rendering_only: false,
        }),
      ],
      ME,
    );
    expect(next.messages[0]).toEqual({
      ...streamMessage(1),
      content: '<p>waves</p>',
      is_me_message: true,
      flags: ['read', 'has_alert_word'],
      last_edit_timestamp: 1_800_000_000,
      edit_history: [
        {
          user_id: BOB,
          timestamp: 1_800_000_000,
          prev_content: 'message 1',
          prev_rendered_content: '<p>message 1</p>',
        },
      ],
    });
    expect(editMarkOf(next.messages[0] as Message)).toBe('edited');
    expect(next.messages[1]).toBe(list.messages[1]);
  });

  it('keeps Markdown content for lists fetched without apply_markdown', () => {
    const list = listOf(topicNarrow, [streamMessage(1, { content: 'old', content_type: 'text/x-markdown' })]);
    const next = applyMessageEvents(
      list,
      [update({ message_id: 1, content: '**new**', rendered_content: '<p><strong>new</strong></p>' })],
      ME,
    );
    expect(next.messages[0]?.content).toBe('**new**');
  });

  it('a rendering-only update changes the content without an edit mark', () => {
    const list = listOf(topicNarrow, [streamMessage(1)]);
    const next = applyMessageEvents(
      list,
      [update({ message_id: 1, rendered_content: '<p>with preview</p>', rendering_only: true })],
      ME,
    );
    expect(next.messages[0]).toEqual({ ...streamMessage(1), content: '<p>with preview</p>' });
    expect(editMarkOf(next.messages[0] as Message)).toBeNull();
  });

  it('a topic move takes the listed messages out of the old topic narrow', () => {
    const list = listOf(topicNarrow, [streamMessage(1), streamMessage(2), streamMessage(3)]);
    const next = applyMessageEvents(
      list,
      [
        update({
          message_id: 2,
          message_ids: [2, 3, 50],
          stream_id: 1,
          orig_subject: 'lunch',
          subject: 'dinner',
          propagate_mode: 'change_later',
        }),
      ],
      ME,
    );
    expect(ids(next)).toEqual([1]);
  });

  it('a topic move keeps the messages in the stream narrow with the new topic, marked moved', () => {
    const list = listOf({ kind: 'stream', streamId: 1 }, [streamMessage(1), streamMessage(2)]);
    const next = applyMessageEvents(
      list,
      [
        update({
          message_id: 1,
          message_ids: [1, 2],
          stream_id: 1,
          orig_subject: 'lunch',
          subject: 'dinner',
          topic_links: [],
          propagate_mode: 'change_all',
        }),
      ],
      ME,
    );
    expect(next.messages.map((m) => m.subject)).toEqual(['dinner', 'dinner']);
    expect(next.messages[1]).toEqual({
      ...streamMessage(2),
      subject: 'dinner',
      topic_links: [],
      last_edit_timestamp: 1_800_000_000,
      edit_history: [{ user_id: BOB, timestamp: 1_800_000_000, prev_topic: 'lunch', topic: 'dinner' }],
    });
    expect(editMarkOf(next.messages[1] as Message)).toBe('moved');
  });

  it('a stream move leaves the stream narrow and stays in the combined feed with the new stream', () => {
    const event = update({
      message_id: 1,
      message_ids: [1],
      stream_id: 1,
      new_stream_id: 2,
      propagate_mode: 'change_one',
    });
    const stream = listOf({ kind: 'stream', streamId: 1 }, [streamMessage(1), streamMessage(2)]);
    expect(ids(applyMessageEvents(stream, [event], ME))).toEqual([2]);
    const all = listOf({ kind: 'all' }, [streamMessage(1)]);
    const moved = applyMessageEvents(all, [event], ME).messages[0] as Message;
    expect(moved.stream_id).toBe(2);
    expect(moved.edit_history).toEqual([
      { user_id: BOB, timestamp: 1_800_000_000, prev_stream: 1, stream: 2 },
    ]);
  });

  it('a move into the narrow does not add messages the list does not have', () => {
    const list = listOf({ kind: 'topic', streamId: 1, topic: 'dinner' }, [
      streamMessage(9, { subject: 'dinner' }),
    ]);
    const event = update({ message_id: 1, message_ids: [1, 2], stream_id: 1, subject: 'dinner' });
    expect(applyMessageEvents(list, [event], ME)).toBe(list);
  });

  it('a search list keeps moved messages (the service decides what it matches)', () => {
    const list = listOf({ kind: 'search', query: 'lunch' }, [streamMessage(1)]);
    const next = applyMessageEvents(list, [update({ message_id: 1, message_ids: [1], subject: 'x' })], ME);
    expect(next.messages[0]?.subject).toBe('x');
  });
});

describe('delete_message', () => {
  it('removes one message or many', () => {
    const list = listOf(
      topicNarrow,
      [1, 2, 3, 4].map((id) => streamMessage(id)),
    );
    const next = applyMessageEvents(
      list,
      [
        {
          id: 0,
          type: 'delete_message',
          message_type: 'stream',
          message_id: 2,
          stream_id: 1,
          topic: 'lunch',
        },
        { id: 1, type: 'delete_message', message_type: 'stream', message_ids: [3, 4, 77] },
      ],
      ME,
    );
    expect(ids(next)).toEqual([1]);
  });

  it('a message deleted in the batch is not found by later events, and new ones still append', () => {
    const list = listOf(topicNarrow, [streamMessage(1), streamMessage(2)]);
    const next = applyMessageEvents(
      list,
      [
        { id: 0, type: 'delete_message', message_type: 'stream', message_ids: [1] },
        update({ message_id: 1, rendered_content: '<p>gone</p>' }),
        messageEvent(streamMessage(3)),
      ],
      ME,
    );
    expect(ids(next)).toEqual([2, 3]);
  });
});

describe('reaction', () => {
  const reaction = (op: 'add' | 'remove', userId: number): ServerEvent => ({
    id: 0,
    type: 'reaction',
    op,
    user_id: userId,
    message_id: 1,
    emoji_name: 'smile',
    emoji_code: '1f604',
    reaction_type: 'unicode_emoji',
  });
  const smile = (userId: number) => ({
    emoji_name: 'smile',
    emoji_code: '1f604',
    reaction_type: 'unicode_emoji',
    user_id: userId,
  });

  it('adds a reaction once and removes it', () => {
    const list = listOf(topicNarrow, [streamMessage(1)]);
    const added = applyMessageEvents(
      list,
      [reaction('add', BOB), reaction('add', ME), reaction('add', BOB)],
      ME,
    );
    expect(added.messages[0]?.reactions).toEqual([smile(BOB), smile(ME)]);
    const removed = applyMessageEvents(added, [reaction('remove', BOB)], ME);
    expect(removed.messages[0]?.reactions).toEqual([smile(ME)]);
    expect(applyMessageEvents(removed, [reaction('remove', BOB)], ME)).toBe(removed);
  });
});

describe('update_message_flags', () => {
  const flags = (op: 'add' | 'remove', flag: string, messages: number[], all = false): ServerEvent => ({
    id: 0,
    type: 'update_message_flags',
    op,
    flag,
    messages,
    all,
  });

  it('adds and removes a flag on the listed messages', () => {
    const list = listOf(topicNarrow, [streamMessage(1), streamMessage(2, { flags: ['read'] })]);
    const next = applyMessageEvents(
      list,
      [flags('add', 'starred', [1, 2, 9]), flags('remove', 'read', [2])],
      ME,
    );
    expect(next.messages.map((m) => m.flags)).toEqual([['starred'], ['starred']]);
    expect(applyMessageEvents(next, [flags('add', 'starred', [1])], ME)).toBe(next);
  });

  it('all: true marks every message read', () => {
    const list = listOf({ kind: 'all' }, [
      streamMessage(1),
      streamMessage(2, { flags: ['read'] }),
      streamMessage(3),
    ]);
    const next = applyMessageEvents(list, [flags('add', 'read', [], true)], ME);
    expect(next.messages.map((m) => m.flags)).toEqual([['read'], ['read'], ['read']]);
    expect(next.messages[1]).toBe(list.messages[1]);
  });

  it('an unstarred message leaves the starred narrow, and stays (unstarred) elsewhere', () => {
    const starred = [
      streamMessage(1, { flags: ['starred'] }),
      streamMessage(2, { flags: ['read', 'starred'] }),
    ];
    const list = listOf({ kind: 'starred' }, starred);
    expect(ids(applyMessageEvents(list, [flags('remove', 'starred', [2])], ME))).toEqual([1]);
    const topic = listOf(topicNarrow, starred);
    const next = applyMessageEvents(topic, [flags('remove', 'starred', [2])], ME);
    expect(next.messages[1]?.flags).toEqual(['read']);
  });
});

describe('bursts', () => {
  it('applies 10 000 new messages in one pass', () => {
    const list = listOf({ kind: 'all' }, [streamMessage(1)]);
    const events = Array.from({ length: 10_000 }, (_, i) => messageEvent(streamMessage(i + 2)));
    const next = applyMessageEvents(list, events, ME);
    expect(next.messages.length).toBe(10_001);
    expect(next.messages[10_000]?.id).toBe(10_001);
  });
});
