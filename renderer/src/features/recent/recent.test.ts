import { describe, expect, it } from 'vitest';
import { topicKey, unreadsFromLocations } from '../../../../shared/domain';
import type { ServerEvent, Subscription, User } from '../../../../shared/protocol';
import {
  addMessages,
  applyRecentEvents,
  DEFAULT_FILTER,
  emptyRecent,
  filterRows,
  groupConversations,
  type RecentInputs,
  type RecentMessageInput,
  recentRows,
} from './recent';

const ME = 1;
const BOB = 2;
const CAROL = 3;

const streamMsg = (
  id: number,
  streamId: number,
  topic: string,
  sender: number,
  ts = id * 10,
): RecentMessageInput => ({
  id,
  type: 'stream',
  stream_id: streamId,
  subject: topic,
  sender_id: sender,
  display_recipient: streamId === 10 ? 'general' : 'design',
  timestamp: ts,
});

const dm = (id: number, sender: number, people: number[]): RecentMessageInput => ({
  id,
  type: 'private',
  subject: '',
  sender_id: sender,
  display_recipient: people.map((p) => ({ id: p, email: `${p}@x`, full_name: `u${p}` })),
  timestamp: id * 10,
});

const sub = (id: number, name: string, extra: Partial<Subscription> = {}) =>
  ({ stream_id: id, name, color: '#336699', is_muted: false, invite_only: false, ...extra }) as Subscription;
const user = (id: number, name: string) => ({ user_id: id, full_name: name }) as User;

function inputs(extra: Partial<RecentInputs> = {}): RecentInputs {
  return {
    userId: ME,
    users: {
      active: { 1: user(1, 'Me'), 2: user(2, 'Bob Brown'), 3: user(3, 'Alice Smith') },
      nonActive: {},
    },
    subscriptions: {
      subscribed: { 10: sub(10, 'general'), 11: sub(11, 'design', { is_muted: true }) },
    } as unknown as RecentInputs['subscriptions'],
    userTopics: {},
    unreads: unreadsFromLocations({}),
    ...extra,
  };
}

const sample = () =>
  addMessages(
    emptyRecent(),
    [
      streamMsg(1, 10, 'lunch', BOB),
      streamMsg(2, 10, 'Lunch', CAROL),
      dm(3, BOB, [ME, BOB]),
      streamMsg(4, 11, 'logo', CAROL),
      dm(5, ME, [ME, BOB, CAROL]),
      streamMsg(6, 10, 'lunch', BOB),
      dm(7, ME, [ME]),
    ],
    ME,
  );

describe('groupConversations', () => {
  it('groups by topic (any case) and by the other people, newest activity first, senders newest first', () => {
    const groups = groupConversations(sample(), [], ME);
    expect(groups.map((g) => [g.key, g.maxId, g.senders, g.timestamp])).toEqual([
      ['dm:1', 7, [ME], 70],
      ['topic:10:lunch', 6, [BOB, CAROL], 60],
      ['dm:2,3', 5, [ME], 50],
      ['topic:11:logo', 4, [CAROL], 40],
      ['dm:2', 3, [BOB], 30],
    ]);
    // The topic's name as its newest message writes it.
    expect(groups[1]?.narrow).toEqual({ kind: 'topic', streamId: 10, topic: 'lunch' });
    expect(groups[1]?.streamName).toBe('general');
  });

  it('adds recent private conversations that no fetched message shows, and raises known ones', () => {
    const groups = groupConversations(
      sample(),
      [
        { max_message_id: 9, user_ids: [BOB] },
        { max_message_id: 2, user_ids: [CAROL] },
      ],
      ME,
    );
    expect(groups.map((g) => [g.key, g.maxId, g.timestamp])).toEqual([
      ['dm:2', 9, 30],
      ['dm:1', 7, 70],
      ['topic:10:lunch', 6, 60],
      ['dm:2,3', 5, 50],
      ['topic:11:logo', 4, 40],
      ['dm:3', 2, null],
    ]);
  });

  it('keeps a message once, whichever way it arrives', () => {
    const state = sample();
    expect(addMessages(state, [streamMsg(6, 10, 'other', BOB)], ME)).toBe(state);
  });
});

describe('applyRecentEvents', () => {
  const ev = (e: Record<string, unknown>) => ({ id: 1, ...e }) as unknown as ServerEvent;

  it('adds new messages, moves topics and streams, and drops deleted messages and emptied conversations', () => {
    let state = sample();
    state = applyRecentEvents(
      state,
      [
        ev({ type: 'message', message: streamMsg(8, 11, 'logo', BOB), flags: [] }),
        ev({
          type: 'update_message',
          message_id: 4,
          message_ids: [4, 8],
          stream_id: 11,
          orig_subject: 'logo',
          subject: 'brand',
        }),
        ev({ type: 'update_message', message_id: 1, message_ids: [1], stream_id: 10, new_stream_id: 11 }),
        ev({ type: 'delete_message', message_type: 'private', message_ids: [3] }),
      ],
      ME,
    );
    const groups = groupConversations(state, [], ME);
    expect(groups.map((g) => [g.key, g.maxId, g.senders])).toEqual([
      ['topic:11:brand', 8, [BOB, CAROL]],
      ['dm:1', 7, [ME]],
      ['topic:10:lunch', 6, [BOB, CAROL]],
      ['dm:2,3', 5, [ME]],
      ['topic:11:lunch', 1, [BOB]],
    ]);
  });

  it('answers the same state for events that change nothing', () => {
    const state = sample();
    expect(
      applyRecentEvents(
        state,
        [
          ev({ type: 'update_message', message_id: 1, message_ids: [1], rendering_only: true }),
          ev({ type: 'delete_message', message_type: 'stream', message_ids: [999] }),
          ev({ type: 'heartbeat' }),
        ],
        ME,
      ),
    ).toBe(state);
  });
});

describe('recentRows and filterRows', () => {
  const unreadInputs = () =>
    inputs({
      unreads: unreadsFromLocations({
        2: { kind: 'stream', streamId: 10, topic: 'Lunch' },
        6: { kind: 'stream', streamId: 10, topic: 'lunch' },
        3: { kind: 'pm', userId: BOB },
        5: { kind: 'huddle', userIds: '1,2,3' },
      }),
    });

  it('names, colors and counts each conversation', () => {
    const rows = recentRows(groupConversations(sample(), [], ME), unreadInputs());
    expect(rows.map((r) => [r.label, r.kind, r.unread, r.muted])).toEqual([
      ['Me', 'private', 0, false],
      ['#general > lunch', 'stream', 2, false],
      ['Alice Smith, Bob Brown', 'private', 1, false],
      ['#design > logo', 'stream', 0, true],
      ['Bob Brown', 'private', 1, false],
    ]);
    expect(rows[1]?.color).toBe('#336699');
  });

  it('follows a topic’s own policy over its stream’s muting', () => {
    const state = inputs({
      userTopics: {
        [topicKey(11, 'logo')]: { stream_id: 11, topic_name: 'logo', visibility_policy: 2, last_updated: 0 },
        [topicKey(10, 'lunch')]: {
          stream_id: 10,
          topic_name: 'lunch',
          visibility_policy: 1,
          last_updated: 0,
        },
      },
    });
    const rows = recentRows(groupConversations(sample(), [], ME), state);
    expect(rows.filter((r) => r.muted).map((r) => r.label)).toEqual(['#general > lunch']);
  });

  it('filters by words over stream, topic and names, by unread, muting and kind', () => {
    const rows = recentRows(groupConversations(sample(), [], ME), unreadInputs());
    const labels = (f: Partial<typeof DEFAULT_FILTER>) =>
      filterRows(rows, { ...DEFAULT_FILTER, ...f }).map((r) => r.label);
    expect(labels({})).toEqual(['Me', '#general > lunch', 'Alice Smith, Bob Brown', 'Bob Brown']);
    expect(labels({ includeMuted: true })).toHaveLength(5);
    expect(labels({ text: 'GEN lun' })).toEqual(['#general > lunch']);
    expect(labels({ text: 'alice' })).toEqual(['Alice Smith, Bob Brown']);
    expect(labels({ text: 'logo' })).toEqual([]);
    expect(labels({ text: 'logo', includeMuted: true })).toEqual(['#design > logo']);
    expect(labels({ unreadOnly: true })).toEqual(['#general > lunch', 'Alice Smith, Bob Brown', 'Bob Brown']);
    expect(labels({ kind: 'private' })).toEqual(['Me', 'Alice Smith, Bob Brown', 'Bob Brown']);
    expect(labels({ kind: 'streams', includeMuted: true })).toEqual(['#general > lunch', '#design > logo']);
  });
});
