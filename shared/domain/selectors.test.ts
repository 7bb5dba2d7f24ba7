import { describe, expect, it } from 'vitest';
import { BOB, snapshotFixture, subscription } from './fixtures';
import {
  accountStateFromSnapshot,
  applyEvent,
  selectBadgeCount,
  selectMentionUnread,
  selectPrivateAndMentionUnread,
  selectPrivateUnread,
  selectStreamUnread,
  selectTopicUnread,
  selectUnreadTotal,
  unreadSummary,
} from './index';

// The fixture: PM 20 from Bob; general (1) "lunch" 21, 22 (22 mentions us); design (2, muted) "logo" 23.
const base = () => accountStateFromSnapshot(snapshotFixture());

const topicPolicy = (streamId: number, topic: string, policy: number) =>
  ({
    id: 0,
    type: 'user_topic',
    stream_id: streamId,
    topic_name: topic,
    last_updated: 1,
    visibility_policy: policy,
  }) as const;

describe('unread counts', () => {
  it('counts per stream, per topic, private messages and mentions; muted streams stay out of the total', () => {
    const state = base();
    expect(unreadSummary(state)).toEqual({
      total: 3,
      streams: { 1: 2, 2: 1 },
      topics: { '1\u0000lunch': 2, '2\u0000logo': 1 },
      privateMessages: 1,
      mentions: 1,
      privateAndMentions: 2,
    });
    expect([
      selectUnreadTotal(state),
      selectStreamUnread(state, 1),
      selectStreamUnread(state, 2),
      selectStreamUnread(state, 9),
      selectTopicUnread(state, 1, 'LUNCH'),
      selectPrivateUnread(state),
      selectMentionUnread(state),
    ]).toEqual([3, 2, 1, 0, 2, 1, 1]);
  });

  it('unmuting a stream brings its messages into the total', () => {
    const state = applyEvent(base(), {
      id: 0,
      type: 'subscription',
      op: 'update',
      stream_id: 2,
      property: 'is_muted',
      value: false,
    });
    expect(selectUnreadTotal(state)).toBe(4);
  });

  it('a muted topic leaves the total and its stream count; an unmuted topic in a muted stream counts', () => {
    const mutedTopic = applyEvent(base(), topicPolicy(1, 'Lunch', 1));
    expect([selectUnreadTotal(mutedTopic), selectStreamUnread(mutedTopic, 1)]).toEqual([1, 0]);
    const unmutedTopic = applyEvent(base(), topicPolicy(2, 'logo', 2));
    expect(selectUnreadTotal(unmutedTopic)).toBe(4);
    const followed = applyEvent(base(), topicPolicy(2, 'logo', 3));
    expect(selectUnreadTotal(followed)).toBe(4);
  });

  it('messages of streams we are not subscribed to do not count', () => {
    const state = accountStateFromSnapshot(snapshotFixture({ subscriptions: [subscription(2, 'design')] }));
    expect(unreadSummary(state)).toMatchObject({ total: 2, streams: { 2: 1 } });
  });

  it('follows new messages and reads', () => {
    let state = applyEvent(base(), {
      id: 1,
      type: 'message',
      message: { id: 50, type: 'stream', stream_id: 1, subject: 'lunch', sender_id: BOB },
      flags: ['mentioned'],
    });
    expect([
      selectUnreadTotal(state),
      selectTopicUnread(state, 1, 'lunch'),
      selectMentionUnread(state),
    ]).toEqual([4, 3, 2]);
    state = applyEvent(state, {
      id: 2,
      type: 'update_message_flags',
      op: 'add',
      flag: 'read',
      messages: [],
      all: true,
    });
    expect(unreadSummary(state)).toEqual({
      total: 0,
      streams: {},
      topics: {},
      privateMessages: 0,
      mentions: 0,
      privateAndMentions: 0,
    });
  });
});

describe('private messages and mentions, and the badge', () => {
  it('counts a private message that mentions the user once, and mentions in muted streams', () => {
    const state = accountStateFromSnapshot(
      snapshotFixture({
        unread_msgs: {
          pms: [{ other_user_id: BOB, sender_id: BOB, unread_message_ids: [20] }],
          streams: [{ stream_id: 2, topic: 'logo', unread_message_ids: [23] }],
          huddles: [],
          mentions: [20, 23],
        },
      }),
    );
    // 23 is in the muted stream: out of the total, but it mentions the user.
    expect([selectUnreadTotal(state), selectPrivateAndMentionUnread(state)]).toEqual([1, 2]);
  });

  it.each([
    [1, 3],
    [2, 2],
    [3, 0],
    [7, 3],
    [undefined, 3],
  ])('desktop_icon_count_display %s: the badge shows %i', (mode, count) => {
    const state = accountStateFromSnapshot(
      snapshotFixture({ user_settings: { desktop_icon_count_display: mode } }),
    );
    expect(selectBadgeCount(state)).toBe(count);
  });
});
