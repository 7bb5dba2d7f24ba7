import { describe, expect, it } from 'vitest';
import { topicKey, unreadsFromLocations } from '../../../../shared/domain';
import type { Subscription, User } from '../../../../shared/protocol';
import { conversationNarrow, type InboxInputs, inboxModel, nextUnreadTopic } from './inbox';

const sub = (id: number, name: string, extra: Partial<Subscription> = {}) =>
  ({ stream_id: id, name, color: '#336699', is_muted: false, pin_to_top: false, ...extra }) as Subscription;
const user = (id: number, name: string) => ({ user_id: id, full_name: name }) as User;

function inputs(): InboxInputs {
  return {
    userId: 1,
    users: { active: { 2: user(2, 'Bob'), 3: user(3, 'Carol') }, nonActive: {} },
    subscriptions: {
      subscribed: {
        10: sub(10, 'general'),
        11: sub(11, 'design', { is_muted: true }),
        12: sub(12, 'announce', { pin_to_top: true }),
      },
    } as unknown as InboxInputs['subscriptions'],
    userTopics: {
      [topicKey(11, 'followed one')]: {
        stream_id: 11,
        topic_name: 'followed one',
        visibility_policy: 3,
        last_updated: 0,
      },
      [topicKey(10, 'muted topic')]: {
        stream_id: 10,
        topic_name: 'muted topic',
        visibility_policy: 1,
        last_updated: 0,
      },
    },
    unreads: unreadsFromLocations(
      {
        100: { kind: 'stream', streamId: 10, topic: 'lunch' },
        101: { kind: 'stream', streamId: 10, topic: 'welcome' },
        105: { kind: 'stream', streamId: 10, topic: 'lunch' },
        102: { kind: 'stream', streamId: 10, topic: 'muted topic' },
        103: { kind: 'stream', streamId: 11, topic: 'inherits mute' },
        104: { kind: 'stream', streamId: 11, topic: 'followed one' },
        106: { kind: 'stream', streamId: 12, topic: 'news' },
        107: { kind: 'stream', streamId: 99, topic: 'not subscribed' },
        108: { kind: 'pm', userId: 2 },
        109: { kind: 'huddle', userIds: '1,2,3' },
        110: { kind: 'pm', userId: 2 },
      },
      [101],
    ),
  };
}

describe('inboxModel', () => {
  const model = inboxModel(inputs());

  it('groups by stream (pinned first, muted last) and topic (newest first)', () => {
    expect(model.streams.map((s) => s.name)).toEqual(['announce', 'general', 'design']);
    const general = model.streams[1];
    expect(general?.topics.map((t) => [t.topic, t.count])).toEqual([
      ['lunch', 2],
      ['welcome', 1],
    ]);
    expect(general?.count).toBe(3);
    expect(general?.topics[1]?.mentioned).toBe(true);
  });

  it('leaves out muted topics and the inherited topics of muted streams, and unsubscribed streams', () => {
    const design = model.streams.find((s) => s.name === 'design');
    expect(design?.muted).toBe(true);
    expect(design?.topics.map((t) => t.topic)).toEqual(['followed one']);
    expect(design?.topics[0]?.followed).toBe(true);
    expect(model.streams.some((s) => s.streamId === 99)).toBe(false);
  });

  it('groups private conversations with their names, newest first', () => {
    expect(model.conversations.map((c) => [c.names.join(', '), c.count])).toEqual([
      ['Bob', 2],
      ['Bob, Carol', 1],
    ]);
    expect(model.total).toBe(1 + 3 + 1 + 3);
  });

  it('finds the next unread topic, wrapping around', () => {
    expect(nextUnreadTopic(model)).toEqual({ streamId: 12, topic: 'news' });
    expect(nextUnreadTopic(model, { streamId: 10, topic: 'lunch' })).toEqual({
      streamId: 10,
      topic: 'welcome',
    });
    expect(nextUnreadTopic(model, { streamId: 11, topic: 'followed one' })).toEqual({
      streamId: 12,
      topic: 'news',
    });
    // From a stream's page: the next stream.
    expect(nextUnreadTopic(model, { streamId: 12 })).toEqual({ streamId: 10, topic: 'lunch' });
  });

  it('opens a private conversation by its other people (sorted)', () => {
    expect(model.conversations.map(conversationNarrow)).toEqual([
      { kind: 'dm', userIds: [2] },
      { kind: 'dm', userIds: [2, 3] },
    ]);
    expect(conversationNarrow({ userIds: [3, 2] })).toEqual({ kind: 'dm', userIds: [2, 3] });
  });

  it('is empty with nothing unread', () => {
    const empty = inboxModel({ ...inputs(), unreads: unreadsFromLocations({}) });
    expect(empty).toEqual({ streams: [], conversations: [], total: 0 });
    expect(nextUnreadTopic(empty)).toBeNull();
  });
});
