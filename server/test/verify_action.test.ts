/** verify-action and apply-events themselves: real actions pass, a wrong reducer result fails. */

import { describe, expect, it } from 'vitest';
import type { RawEvent } from '../../shared/protocol';
import { applyEventsToState } from './support/apply-events';
import { serviceWith } from './support/service';
import { normalizeState, verifyAction } from './support/verify-action';

const { alice, bob } = await serviceWith(['alice', 'bob']);

describe('verifyAction', () => {
  it('checks a PATCH /settings change: one user_settings event, to the user only', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.updateSettings({ twenty_four_hour_time: true, color_scheme: 2 }),
    });
    expect(result).toEqual({ ignored_parameters_unsupported: [] });
    expect(events[0]).toEqual([
      { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true, id: 0 },
      { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2, id: 1 },
    ]);
    expect(events[1]).toEqual([]);
  });

  it('checks a full_name change: realm_user update to everyone', async () => {
    const { events, states } = await verifyAction({
      clients: [alice, bob],
      action: () => alice.updateSettings({ full_name: 'Alice Liddell' }),
    });
    const aliceId = states[0]?.user_id;
    const expected = [
      { type: 'realm_user', op: 'update', person: { user_id: aliceId, full_name: 'Alice Liddell' }, id: 0 },
    ];
    expect(events[0]).toEqual(expected);
    expect(events[1]).toEqual(expected);
    expect(states[0]?.full_name).toBe('Alice Liddell');
  });

  it('checks legacy clients too (top-level settings and legacy events)', async () => {
    const legacy = { event_types: ['update_display_settings', 'user_settings'] };
    const { events } = await verifyAction({
      clients: [alice],
      registerParams: legacy,
      action: () => alice.updateSettings({ twenty_four_hour_time: false }),
    });
    expect(events[0]?.map((e) => e.type).sort()).toEqual(['update_display_settings', 'user_settings']);
  });

  it('fails when the events do not explain the new state', async () => {
    // Watching only user_settings, a full_name change leaves realm_users stale: must fail.
    await expect(
      verifyAction({
        clients: [bob],
        registerParams: { event_types: ['user_settings'], fetch_event_types: ['realm_user'] },
        action: () => alice.updateSettings({ full_name: 'Alice' }),
      }),
    ).rejects.toThrow(/old snapshot \+ events vs fresh register/);
  });
});

describe('applyEventsToState', () => {
  const ev = (e: Record<string, unknown>, id = 0) => ({ id, ...e }) as RawEvent;

  it('does not change its input', () => {
    const state = { user_settings: { enter_sends: false } };
    const next = applyEventsToState(
      state,
      [ev({ type: 'user_settings', op: 'update', property: 'enter_sends', value: true })],
      1,
    );
    expect(next).toEqual({ user_settings: { enter_sends: true } });
    expect(state).toEqual({ user_settings: { enter_sends: false } });
  });

  it('applies subscription add/update/peer/remove and stream events', () => {
    const stream = { stream_id: 5, name: 's', invite_only: false, description: '' };
    let state: Record<string, unknown> = {
      subscriptions: [],
      unsubscribed: [],
      never_subscribed: [{ ...stream, subscribers: [2] }],
      streams: [stream],
      is_admin: false,
    };
    state = applyEventsToState(
      state,
      [
        ev({
          type: 'subscription',
          op: 'add',
          subscriptions: [{ ...stream, subscribers: [1, 2], is_muted: false }],
        }),
        ev({ type: 'subscription', op: 'update', stream_id: 5, property: 'is_muted', value: true }),
        ev({ type: 'subscription', op: 'peer_add', stream_ids: [5], user_ids: [3] }),
        ev({ type: 'stream', op: 'update', stream_id: 5, name: 's', property: 'name', value: 't' }),
      ],
      1,
      { includeSubscribers: true },
    );
    expect(state.subscriptions).toEqual([
      {
        stream_id: 5,
        name: 't',
        invite_only: false,
        description: '',
        subscribers: [1, 2, 3],
        is_muted: true,
      },
    ]);
    expect(state.never_subscribed).toEqual([]);
    expect(state.streams).toEqual([{ ...stream, name: 't' }]);
    state = applyEventsToState(
      state,
      [ev({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 5, name: 't' }] })],
      1,
      {
        includeSubscribers: true,
      },
    );
    expect(state.subscriptions).toEqual([]);
    expect(state.unsubscribed).toEqual([
      { stream_id: 5, name: 't', invite_only: false, description: '', subscribers: [2, 3], is_muted: true },
    ]);
    state = applyEventsToState(state, [ev({ type: 'stream', op: 'delete', streams: [{ stream_id: 5 }] })], 1);
    expect([state.streams, state.unsubscribed]).toEqual([[], []]);
  });

  it('keeps unread_msgs in step with message, flags and deletions', () => {
    let state: Record<string, unknown> = {
      max_message_id: 10,
      unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
    };
    const me = 1;
    state = applyEventsToState(
      state,
      [
        ev({
          type: 'message',
          message: { id: 11, type: 'stream', stream_id: 5, subject: 'T', sender_id: 2 },
          flags: ['mentioned'],
        }),
        ev({
          type: 'message',
          message: {
            id: 12,
            type: 'private',
            subject: '',
            sender_id: 2,
            display_recipient: [{ id: 1 }, { id: 2 }],
          },
          flags: [],
        }),
        ev({
          type: 'message',
          message: {
            id: 13,
            type: 'private',
            subject: '',
            sender_id: 2,
            display_recipient: [{ id: 1 }, { id: 2 }, { id: 3 }],
          },
          flags: [],
        }),
        ev({
          type: 'message',
          message: { id: 14, type: 'stream', stream_id: 5, subject: 't', sender_id: 1 },
          flags: ['read'],
        }),
      ],
      me,
    );
    expect(state.max_message_id).toBe(14);
    expect(normalizeState(state.unread_msgs)).toEqual({
      count: 3,
      pms: [{ other_user_id: 2, sender_id: 2, unread_message_ids: [12] }],
      streams: [{ stream_id: 5, topic: 'T', unread_message_ids: [11] }],
      huddles: [{ user_ids_string: '1,2,3', unread_message_ids: [13] }],
      mentions: [11],
      old_unreads_missing: false,
    });
    state = applyEventsToState(
      state,
      [
        ev({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [11], all: false }),
        ev({ type: 'delete_message', message_type: 'private', message_ids: [12] }),
      ],
      me,
    );
    expect((state.unread_msgs as Record<string, unknown>).count).toBe(1);
    state = applyEventsToState(
      state,
      [ev({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true })],
      me,
    );
    expect(state.unread_msgs).toEqual({
      count: 0,
      pms: [],
      streams: [],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    });
  });

  it('applies realm_user forms, user_status, drafts and the rest', () => {
    let state: Record<string, unknown> = {
      realm_users: [
        {
          user_id: 1,
          full_name: 'A',
          email: 'a@x',
          role: 400,
          is_admin: false,
          is_owner: false,
          is_guest: false,
          profile_data: {},
        },
        {
          user_id: 2,
          full_name: 'B',
          email: 'b@x',
          role: 400,
          is_admin: false,
          is_owner: false,
          is_guest: false,
          is_active: true,
        },
      ],
      realm_non_active_users: [],
      full_name: 'A',
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      user_status: { '2': { status_text: 'x' } },
      drafts: [{ id: 1, content: 'a' }],
      alert_words: ['a'],
      user_topics: [],
      realm_user_groups: [{ id: 9, name: 'g', description: '', members: [1] }],
    };
    state = applyEventsToState(
      state,
      [
        ev({ type: 'realm_user', op: 'update', person: { user_id: 1, full_name: 'A2' } }),
        ev({ type: 'realm_user', op: 'update', person: { user_id: 1, role: 200 } }),
        ev({
          type: 'realm_user',
          op: 'update',
          person: { user_id: 1, custom_profile_field: { id: 3, value: 'v' } },
        }),
        ev({ type: 'realm_user', op: 'remove', person: { user_id: 2, full_name: 'B' } }),
        ev({
          type: 'user_status',
          user_id: 1,
          emoji_name: 'smile',
          emoji_code: '1f604',
          reaction_type: 'unicode_emoji',
        }),
        ev({ type: 'drafts', op: 'update', draft: { id: 1, content: 'b' } }),
        ev({ type: 'drafts', op: 'add', drafts: [{ id: 2, content: 'c' }] }),
        ev({ type: 'drafts', op: 'remove', draft_id: 1 }),
        ev({ type: 'alert_words', alert_words: ['b'] }),
        ev({ type: 'user_topic', stream_id: 5, topic_name: 't', last_updated: 7, visibility_policy: 1 }),
        ev({ type: 'user_group', op: 'add_members', group_id: 9, user_ids: [2] }),
        ev({ type: 'user_settings', op: 'update', property: 'enable_drafts_synchronization', value: false }),
      ],
      1,
    );
    expect(state).toEqual({
      realm_users: [
        {
          user_id: 1,
          full_name: 'A2',
          email: 'a@x',
          role: 200,
          is_admin: true,
          is_owner: false,
          is_guest: false,
          profile_data: { '3': { value: 'v' } },
        },
      ],
      realm_non_active_users: [
        {
          user_id: 2,
          full_name: 'B',
          email: 'b@x',
          role: 400,
          is_admin: false,
          is_owner: false,
          is_guest: false,
          is_active: false,
        },
      ],
      full_name: 'A2',
      is_admin: true,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      user_status: { '1': { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' } },
      drafts: [],
      alert_words: ['b'],
      user_topics: [{ stream_id: 5, topic_name: 't', last_updated: 7, visibility_policy: 1 }],
      realm_user_groups: [{ id: 9, name: 'g', description: '', members: [1, 2] }],
    });
  });
});
