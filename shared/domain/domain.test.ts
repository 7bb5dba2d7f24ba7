import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME, snapshotFixture, subscription, user } from '../../test/fixtures/domain';
import { parseEvent, type RegisterState, type ServerEvent } from '../protocol';
import {
  accountStateFromSnapshot,
  applyEvent,
  applyEvents,
  snapshotFromAccountState,
  unreadsFromLocations,
} from './index';

const minimal: RegisterState = {
  last_event_id: -1,
  service_feature_level: 89,
  service_version: '0.1.0',
  service_merge_base: '',
  user_id: 7,
  user_settings: { twenty_four_hour_time: false, color_scheme: 1, emojiset: 'setA' },
};

describe('account state', () => {
  it('is built from a minimal register snapshot, every slice empty', () => {
    expect(accountStateFromSnapshot(minimal)).toEqual({
      userId: 7,
      serviceVersion: '0.1.0',
      featureLevel: 89,
      userSettings: { twenty_four_hour_time: false, color_scheme: 1, emojiset: 'setA' },
      users: { active: {}, nonActive: {} },
      streams: {},
      subscriptions: { subscribed: {}, unsubscribed: {}, neverSubscribed: {}, withSubscribers: false },
      drafts: {},
      userStatus: {},
      customProfileFields: [],
      userGroups: {},
      realmPlaygrounds: [],
      alertWords: [],
      userTopics: {},
      unreads: unreadsFromLocations({}),
      realmUserSettingsDefaults: {},
      realm: {},
      realmEmoji: {},
      realmLinkifiers: [],
      realmDefaultStreams: [],
      presence: { users: {}, offlineThresholdSeconds: 140, pingIntervalSeconds: 60 },
      mutedUsers: {},
      recentPrivateConversations: [],
      starredMessages: [],
    });
  });

  it('keys every slice by id from a full snapshot', () => {
    const state = accountStateFromSnapshot(snapshotFixture());
    expect(Object.keys(state.users.active)).toEqual([String(ME), String(BOB)]);
    expect(Object.keys(state.users.nonActive)).toEqual([String(CAROL)]);
    expect(Object.keys(state.subscriptions.subscribed)).toEqual(['1', '2']);
    expect(Object.keys(state.subscriptions.neverSubscribed)).toEqual(['3']);
    expect(state.unreads).toEqual(
      unreadsFromLocations(
        {
          20: { kind: 'pm', userId: BOB },
          21: { kind: 'stream', streamId: 1, topic: 'lunch' },
          22: { kind: 'stream', streamId: 1, topic: 'lunch' },
          23: { kind: 'stream', streamId: 2, topic: 'logo' },
        },
        [22],
      ),
    );
    expect(state.userStatus[BOB]?.status_text).toBe('away');
  });

  it('applies user_settings and both legacy forms', () => {
    const events: ServerEvent[] = [
      { id: 0, type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true },
      { id: 1, type: 'update_display_settings', setting_name: 'color_scheme', setting: 2 },
      { id: 2, type: 'update_global_notifications', notification_name: 'enable_sounds', setting: false },
    ];
    const state = applyEvents(accountStateFromSnapshot(minimal), events);
    expect(state.userSettings).toEqual({
      twenty_four_hour_time: true,
      color_scheme: 2,
      emojiset: 'setA',
      enable_sounds: false,
    });
    // The queue position is the transport's (UpdateMachine, the renderer's store), not the state's.
    expect(state).not.toHaveProperty('lastEventId');
  });

  it('drops the server drafts when draft synchronization is turned off', () => {
    const state = applyEvent(accountStateFromSnapshot(snapshotFixture()), {
      id: 0,
      type: 'user_settings',
      op: 'update',
      property: 'enable_drafts_synchronization',
      value: false,
    });
    expect(state.drafts).toEqual({});
    expect(state.userSettings.enable_drafts_synchronization).toBe(false);
  });

  it('keeps the same object for an event that changes nothing it keeps', () => {
    const state = accountStateFromSnapshot({ ...minimal, last_event_id: 5 });
    expect(applyEvent(state, { id: 5, type: 'heartbeat' })).toBe(state);
    const same = { id: 5, type: 'user_settings', op: 'update', property: 'emojiset', value: 'setA' } as const;
    expect(applyEvent(state, same)).toBe(state);
  });

  it('keeps the same object for an event that changes nothing, whatever its id', () => {
    const state = accountStateFromSnapshot(minimal);
    const next = applyEvent(state, { id: 3, type: 'heartbeat' });
    expect(next).toEqual(state);
    expect(next).toBe(state);
  });

  it('takes the new version from a restart event', () => {
    const state = applyEvent(accountStateFromSnapshot(minimal), {
      id: 0,
      type: 'restart',
      service_version: '0.2.0',
      service_feature_level: 151,
    });
    expect([state.serviceVersion, state.featureLevel]).toEqual(['0.2.0', 151]);
  });

  it('never sees an unknown event type: parseEvent returns null for it', () => {
    expect(parseEvent({ id: 1, type: 'realm_export', op: 'start' })).toBeNull();
  });

  it('applies a batch into one new state, leaving the old one untouched', () => {
    const old = accountStateFromSnapshot(snapshotFixture());
    const copy = structuredClone(old);
    // structuredClone copies no class's private fields: the unread map's entries are kept apart.
    const unread = [...old.unreads.messages];
    const next = applyEvents(old, [
      { id: 0, type: 'alert_words', alert_words: ['release'] },
      { id: 1, type: 'drafts', op: 'remove', draft_id: 1 },
    ]);
    expect(old).toEqual(copy);
    expect([...old.unreads.messages]).toEqual(unread);
    expect(next.alertWords).toEqual(['release']);
    expect(next.drafts).toEqual({});
    // Slices the batch did not touch are the old objects.
    expect(next.unreads).toBe(old.unreads);
    expect(next.subscriptions).toBe(old.subscriptions);
  });

  it('takes a run of new messages in at once, exactly as one at a time', () => {
    const old = accountStateFromSnapshot(snapshotFixture());
    const copy = structuredClone(old);
    const unread = [...old.unreads.messages];
    const dm = (id: number, to: number[], flags: string[] = []): ServerEvent => ({
      id,
      type: 'message',
      message: {
        id: 500 + id,
        type: 'private',
        subject: '',
        sender_id: to[0] as number,
        display_recipient: [...to, ME].map((u) => ({ id: u })),
      },
      flags,
    });
    const stream = (id: number, topic: string, flags: string[] = [], sender = BOB): ServerEvent => ({
      id,
      type: 'message',
      message: { id: 500 + id, type: 'stream', stream_id: 1, subject: topic, sender_id: sender },
      flags,
    });
    const events: ServerEvent[] = [
      stream(1, 'lunch'),
      stream(2, 'lunch', ['mentioned']),
      stream(3, 'lunch', ['read']),
      stream(4, 'own', [], ME),
      dm(5, [BOB]),
      dm(6, [BOB, CAROL], ['wildcard_mentioned']),
      { id: 7, type: 'alert_words', alert_words: ['x'] },
      dm(8, [CAROL]),
      stream(9, 'later'),
    ];
    const oneByOne = events.reduce(applyEvent, old);
    const batched = applyEvents(old, events);
    expect(batched).toEqual(oneByOne);
    expect(old).toEqual(copy);
    expect([...old.unreads.messages]).toEqual(unread);
    const added = batched.unreads.messages.ids().filter((id) => !old.unreads.messages.has(id));
    expect(added).toEqual([501, 502, 505, 506, 508, 509]);
    expect(batched.unreads.mentions.filter((id) => id > 500)).toEqual([502, 506]);
  });

  it('takes a deactivated user out of subscriber lists, groups and statuses', () => {
    const snapshot = snapshotFixture({
      subscriptions: [subscription(1, 'general', { subscribers: [ME, BOB] })],
    });
    const state = applyEvent(accountStateFromSnapshot(snapshot), {
      id: 0,
      type: 'realm_user',
      op: 'remove',
      person: { user_id: BOB, full_name: 'Bob' },
    });
    expect(state.users.active[BOB]).toBeUndefined();
    expect(state.users.nonActive[BOB]).toEqual({ ...user(BOB, 'Bob'), is_active: false });
    expect(state.subscriptions.subscribed[1]?.subscribers).toEqual([ME]);
    expect(state.userGroups[1]?.members).toEqual([ME]);
    expect(state.userStatus[BOB]).toBeUndefined();
  });

  it('is written back into the snapshot it came from, and rebuilt from it unchanged', () => {
    const raw = snapshotFixture({ realm_name: 'kept as it was' });
    const state = applyEvents(accountStateFromSnapshot(raw), [
      {
        id: 4,
        type: 'message',
        message: {
          id: 30,
          type: 'private',
          subject: '',
          sender_id: BOB,
          display_recipient: [{ id: ME }, { id: BOB }, { id: CAROL }],
        },
        flags: [],
      },
      { id: 5, type: 'drafts', op: 'remove', draft_id: 1 },
    ]);
    const written = snapshotFromAccountState(raw, state, 5) as Record<string, unknown>;
    expect(written.realm_name).toBe('kept as it was');
    expect(written.last_event_id).toBe(5);
    expect(written.drafts).toEqual([]);
    expect(written.unread_msgs).toEqual({
      count: 5,
      pms: [{ other_user_id: BOB, sender_id: BOB, unread_message_ids: [20] }],
      streams: [
        { stream_id: 1, topic: 'lunch', unread_message_ids: [21, 22] },
        { stream_id: 2, topic: 'logo', unread_message_ids: [23] },
      ],
      huddles: [{ user_ids_string: `${ME},${BOB},${CAROL}`, unread_message_ids: [30] }],
      mentions: [22],
    });
    expect(accountStateFromSnapshot(written as RegisterState)).toEqual(state);
  });

  it("writes the user's own top-level fields from the users slice", () => {
    const raw = snapshotFixture({
      full_name: 'Me',
      is_admin: false,
      is_moderator: false,
      email: 'me@example.com',
    });
    const state = applyEvents(accountStateFromSnapshot(raw), [
      { id: 0, type: 'realm_user', op: 'update', person: { user_id: ME, full_name: 'Myself' } },
      { id: 1, type: 'realm_user', op: 'update', person: { user_id: ME, role: 200 } },
    ]);
    expect(snapshotFromAccountState(raw, state)).toMatchObject({
      full_name: 'Myself',
      is_admin: true,
      is_moderator: false,
      email: 'me@example.com',
    });
    expect(snapshotFromAccountState(raw, state)).not.toHaveProperty('is_owner');
  });

  it('writes back only the fields the snapshot had', () => {
    const state = accountStateFromSnapshot(minimal);
    expect(snapshotFromAccountState(minimal, state)).toEqual(minimal);
  });
});
