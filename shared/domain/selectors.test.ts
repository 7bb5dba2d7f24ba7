import { describe, expect, it } from 'vitest';
import { BOB, ME, snapshotFixture, subscription } from '../../test/fixtures/domain';
import { seededRandom as random } from '../../test/fixtures/random';
import type { ServerEvent } from '../protocol';
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvent,
  applyEvents,
  selectBadgeCount,
  selectMentionUnread,
  selectPrivateAndMentionUnread,
  selectPrivateUnread,
  selectStreamUnread,
  selectTopicUnread,
  selectUnreadTotal,
  topicKey,
  topicUnreadCounts,
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

describe('the unread summary is cached on its inputs, not on the state object', () => {
  // Events that leave the unreads, the subscribed streams' mute states and the topic policies
  // as they were: each one makes a new state object, none may cost a pass over the unreads.
  const unrelated: ServerEvent[] = [
    { id: 1, type: 'heartbeat' },
    { id: 2, type: 'user_status', user_id: BOB, status_text: 'back' },
    { id: 3, type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true },
    { id: 4, type: 'realm_user', op: 'update', person: { user_id: BOB, full_name: 'Robert' } },
    { id: 5, type: 'subscription', op: 'update', stream_id: 1, property: 'color', value: '#000000' },
    { id: 6, type: 'drafts', op: 'remove', draft_id: 1 },
    { id: 7, type: 'alert_words', alert_words: ['release'] },
    { id: 8, type: 'restart', service_version: '0.2.0', service_feature_level: 151 },
    {
      id: 9,
      type: 'message',
      message: { id: 60, type: 'stream', stream_id: 1, subject: 'lunch', sender_id: ME },
      flags: [],
    },
    { id: 10, type: 'update_message_flags', op: 'add', flag: 'starred', messages: [21], all: false },
  ];

  it('events that touch no input keep the unread inputs and the summary object', () => {
    const state = base();
    const before = unreadSummary(state);
    for (const event of unrelated) {
      const next = applyEvent(state, event);
      expect(next.unreads, event.type).toBe(state.unreads);
      expect(next.userTopics, event.type).toBe(state.userTopics);
    }
    // A heartbeat or a status change does not even replace the subscriptions slice.
    for (const event of unrelated.slice(0, 4)) {
      expect(applyEvent(state, event).subscriptions, event.type).toBe(state.subscriptions);
    }
    const next = applyEvents(state, unrelated);
    expect(next).not.toBe(state);
    expect(unreadSummary(next)).toBe(before);
    expect(selectBadgeCount(next)).toBe(3);
    // The badge's mode is read apart from the summary: a change of it is seen at once.
    const mode = applyEvent(next, {
      id: 11,
      type: 'user_settings',
      op: 'update',
      property: 'desktop_icon_count_display',
      value: 2,
    });
    expect(unreadSummary(mode)).toBe(before);
    expect(selectBadgeCount(mode)).toBe(2);
  });

  it('a batch that changes the unreads gives a new, correct summary', () => {
    const state = base();
    const before = unreadSummary(state);
    const next = applyEvents(state, [
      ...unrelated,
      {
        id: 11,
        type: 'message',
        message: { id: 61, type: 'stream', stream_id: 1, subject: 'lunch', sender_id: BOB },
        flags: [],
      },
      { id: 12, type: 'update_message_flags', op: 'add', flag: 'read', messages: [20], all: false },
    ]);
    const after = unreadSummary(next);
    expect(after).not.toBe(before);
    expect(after).toEqual({
      total: 3,
      streams: { 1: 3, 2: 1 },
      privateMessages: 0,
      mentions: 1,
      privateAndMentions: 1,
    });
    // The older state still answers with its own summary.
    expect(unreadSummary(state)).toEqual(before);
    expect(unreadSummary(state).total).toBe(3);
  });

  it('a change of muting or topic policy alone gives a new summary over the same unreads', () => {
    const state = base();
    const before = unreadSummary(state);
    const unmuted = applyEvent(state, {
      id: 1,
      type: 'subscription',
      op: 'update',
      stream_id: 2,
      property: 'is_muted',
      value: false,
    });
    expect(unmuted.unreads).toBe(state.unreads);
    expect(unreadSummary(unmuted)).not.toBe(before);
    expect(selectUnreadTotal(unmuted)).toBe(4);
    const mutedTopic = applyEvent(unmuted, topicPolicy(1, 'lunch', 1));
    expect([selectUnreadTotal(mutedTopic), selectStreamUnread(mutedTopic, 1)]).toEqual([2, 0]);
    // Going back and forth between states over one unreads object never answers stale.
    expect([selectUnreadTotal(state), selectUnreadTotal(unmuted), selectUnreadTotal(mutedTopic)]).toEqual([
      3, 4, 2,
    ]);
    const left = applyEvent(state, {
      id: 2,
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ stream_id: 1, name: 'general' }],
    });
    expect(unreadSummary(left)).toMatchObject({ total: 1, streams: { 2: 1 } });
    expect([selectTopicUnread(left, 1, 'lunch'), selectTopicUnread(left, 2, 'logo')]).toEqual([0, 1]);
    expect(unreadSummary(state)).toBe(before);
  });
});

describe('the unread summary over random changes (fixed seeds) equals a count of every message', () => {
  /** The summary as the spec defines it, one unread message at a time (the selector as it was). */
  function counted(state: AccountState) {
    const { subscribed } = state.subscriptions;
    let total = 0;
    let privateMessages = 0;
    const streams: Record<number, number> = {};
    const topics: Record<string, number> = {};
    state.unreads.messages.forEach((where) => {
      if (where.kind !== 'stream') {
        privateMessages++;
        total++;
        return;
      }
      const sub = subscribed[where.streamId];
      if (!sub) return;
      const key = topicKey(where.streamId, where.topic);
      topics[key] = (topics[key] ?? 0) + 1;
      const policy = state.userTopics[key]?.visibility_policy ?? 0;
      if (policy !== 1) streams[where.streamId] = (streams[where.streamId] ?? 0) + 1;
      if (policy === 1 || (policy === 0 && sub.is_muted)) return;
      total++;
    });
    const mentionedInStreams = state.unreads.mentions.filter(
      (id) => state.unreads.messages.get(id)?.kind === 'stream',
    ).length;
    return {
      summary: {
        total,
        streams,
        privateMessages,
        mentions: state.unreads.mentions.length,
        privateAndMentions: privateMessages + mentionedInStreams,
      },
      topics,
    };
  }

  const TOPICS = ['lunch', 'Lunch', 'logo', 'plans'];

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i', (seed) => {
    const next = random(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    let state = base();
    let id = 100;
    for (let step = 0; step < 300; step++) {
      const roll = next();
      let event: ServerEvent;
      if (roll < 0.5) {
        id++;
        event =
          next() < 0.8
            ? {
                id: step,
                type: 'message',
                message: {
                  id,
                  type: 'stream',
                  stream_id: 1 + Math.floor(next() * 3),
                  subject: pick(TOPICS),
                  sender_id: BOB,
                },
                flags: next() < 0.2 ? ['mentioned'] : [],
              }
            : {
                id: step,
                type: 'message',
                message: {
                  id,
                  type: 'private',
                  subject: '',
                  sender_id: BOB,
                  display_recipient: [{ id: ME }, { id: BOB }],
                },
                flags: [],
              };
      } else if (roll < 0.7) {
        const ids = Array.from({ length: 3 }, () => 20 + Math.floor(next() * (id - 19)));
        event = {
          id: step,
          type: 'update_message_flags',
          op: 'add',
          flag: 'read',
          messages: ids,
          all: false,
        };
      } else if (roll < 0.8) {
        event = {
          id: step,
          type: 'subscription',
          op: 'update',
          stream_id: 1 + Math.floor(next() * 2),
          property: 'is_muted',
          value: next() < 0.5,
        };
      } else if (roll < 0.9) {
        event = topicPolicy(1 + Math.floor(next() * 3), pick(TOPICS), Math.floor(next() * 4));
      } else {
        const ids = Array.from({ length: 2 }, () => 20 + Math.floor(next() * (id - 19)));
        event = {
          id: step,
          type: 'update_message',
          user_id: BOB,
          message_id: ids[0] as number,
          message_ids: ids,
          rendering_only: false,
          subject: pick(TOPICS),
          new_stream_id: 1 + Math.floor(next() * 3),
        } as ServerEvent;
      }
      state = applyEvent(state, event);
      const expected = counted(state);
      expect(unreadSummary(state), JSON.stringify(event)).toEqual(expected.summary);
      for (const streamId of [1, 2, 3]) {
        for (const topic of TOPICS) {
          const count = expected.topics[topicKey(streamId, topic)] ?? 0;
          expect(selectTopicUnread(state, streamId, topic)).toBe(count);
          expect(topicUnreadCounts(state, streamId).get(topic.toLowerCase()) ?? 0).toBe(count);
        }
      }
    }
  });
});
