/**
 * The organization's and the people slices, event form by event form, in the shapes the
 * server sends (server/actions: realm.ts, realm-emoji.ts, linkifiers.ts, default-streams.ts,
 * presence.ts, muted-users.ts, message-edit.ts): the exact state each handler produces.
 */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME, snapshotFixture, stream, user } from '../../test/fixtures/domain';
import { type EventOf, parseEvent, type RegisterState } from '../protocol';
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvent,
  applyEvents,
  handleDefaultStreamsEvent,
  handleMessageEventInRecentConversations,
  handleMutedUsersEvent,
  handlePresenceEvent,
  handleRealmEmojiEvent,
  handleRealmEvent,
  handleRealmLinkifiersEvent,
  handleUpdateMessageEvent,
  isUserMuted,
  mergePresences,
  presenceFromSnapshot,
  presenceOf,
  presenceStatus,
  realmFromSnapshot,
  recentConversationsFromSnapshot,
  selectIsAdmin,
  snapshotFromAccountState,
  unreadsFromLocations,
  unreadsFromSnapshot,
  usersFromSnapshot,
} from './index';

/** Register's organization fields as this service sends them (events/initial-state/index.ts). */
const REALM_FIELDS = {
  realm_name: 'Confab Demo',
  realm_description: 'A place to talk',
  realm_uri: 'http://127.0.0.1:9991',
  realm_date_created: 1_700_000_000,
  realm_default_language: 'en',
  realm_enable_spectator_access: false,
  realm_email_address_visibility: 1,
  realm_message_retention_days: -1,
  realm_name_changes_disabled: false,
  realm_email_changes_disabled: false,
  realm_allow_message_editing: true,
  realm_message_content_edit_limit_seconds: 600,
  realm_edit_topic_policy: 5,
  realm_create_public_stream_policy: 1,
  realm_add_custom_emoji_policy: 1,
  max_file_upload_size_mib: 25,
  max_stream_name_length: 60,
  max_topic_length: 60,
  max_message_length: 10000,
};

const EMOJI = {
  '1': {
    id: '1',
    name: 'party_parrot',
    source_url: '/user_uploads/emoji/1/a.png',
    still_url: null,
    deactivated: false,
    author_id: ME,
  },
};

const full = (overrides: Record<string, unknown> = {}): AccountState =>
  accountStateFromSnapshot(
    snapshotFixture({
      ...REALM_FIELDS,
      realm_emoji: EMOJI,
      realm_linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://t/{id}' }],
      realm_default_streams: [stream(1, 'general')],
      presences: {
        [BOB]: { active_timestamp: 1000, idle_timestamp: 1100 },
        [CAROL]: { idle_timestamp: 900 },
      },
      server_timestamp: 1200.5,
      server_presence_ping_interval_seconds: 60,
      server_presence_offline_threshold_seconds: 140,
      muted_users: [{ id: CAROL, timestamp: 50 }],
      recent_private_conversations: [
        { max_message_id: 20, user_ids: [BOB] },
        { max_message_id: 30, user_ids: [CAROL, BOB] },
      ],
      ...overrides,
    }),
  );

describe('the organization (realm)', () => {
  it('keeps every realm_* field under its event name, the limits under theirs, no object lists', () => {
    const state = full();
    expect(state.realm).toEqual({
      name: 'Confab Demo',
      description: 'A place to talk',
      uri: 'http://127.0.0.1:9991',
      date_created: 1_700_000_000,
      default_language: 'en',
      enable_spectator_access: false,
      email_address_visibility: 1,
      message_retention_days: -1,
      name_changes_disabled: false,
      email_changes_disabled: false,
      allow_message_editing: true,
      message_content_edit_limit_seconds: 600,
      edit_topic_policy: 5,
      create_public_stream_policy: 1,
      add_custom_emoji_policy: 1,
      max_file_upload_size_mib: 25,
      max_stream_name_length: 60,
      max_topic_length: 60,
      max_message_length: 10000,
    });
    expect(state.realm).not.toHaveProperty('users');
    expect(state.realm).not.toHaveProperty('user_settings_defaults');
    expect(realmFromSnapshot({ max_message_id: 5, server_timestamp: 1, realm_: 1 })).toEqual({});
  });

  it('update: one property, keeping the state when the value is the same', () => {
    const state = full().realm;
    const update = (property: string, value: unknown) =>
      handleRealmEvent(state, { id: 0, type: 'realm', op: 'update', property, value } as EventOf<'realm'>);
    expect(update('name', 'Renamed')).toEqual({ ...state, name: 'Renamed' });
    expect(update('message_retention_days', 30).message_retention_days).toBe(30);
    expect(update('waiting_period_threshold', 3).waiting_period_threshold).toBe(3);
    expect(update('name', 'Confab Demo')).toBe(state);
  });

  it('update_dict: several properties at once (message editing, icon)', () => {
    const state = full().realm;
    const next = handleRealmEvent(state, {
      id: 0,
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { allow_message_editing: false, message_content_edit_limit_seconds: null, edit_topic_policy: 5 },
    });
    expect(next).toEqual({
      ...state,
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
    });
    const icon = handleRealmEvent(state, {
      id: 0,
      type: 'realm',
      op: 'update_dict',
      property: 'icon',
      data: { icon_url: '/icon.png', icon_source: 'U' },
    });
    expect([icon.icon_url, icon.icon_source]).toEqual(['/icon.png', 'U']);
    expect(handleRealmEvent(state, { id: 0, type: 'realm', op: 'deactivated', realm_id: 1 })).toBe(state);
  });

  it('parses the events the server sends', () => {
    expect(parseEvent({ id: 1, type: 'realm', op: 'update', property: 'name', value: 'X' })).toBeTruthy();
    expect(
      parseEvent({
        id: 2,
        type: 'realm',
        op: 'update',
        property: 'message_content_delete_limit_seconds',
        value: null,
      }),
    ).toBeTruthy();
    expect(
      parseEvent({ id: 3, type: 'realm', op: 'update_dict', property: 'default', data: { a: 1 } }),
    ).toBeTruthy();
    expect(() => parseEvent({ id: 4, type: 'realm', op: 'update', value: 1 })).toThrow();
  });

  it('realm_emoji replaces the whole map; realm_linkifiers the whole list', () => {
    const state = full();
    const emoji = { ...EMOJI, '1': { ...EMOJI['1'], deactivated: true } };
    expect(
      handleRealmEmojiEvent(state.realmEmoji, {
        id: 0,
        type: 'realm_emoji',
        op: 'update',
        realm_emoji: emoji,
      }),
    ).toBe(emoji);
    const linkifiers = [{ id: 2, pattern: 'x', url_template: 'https://x' }];
    expect(
      handleRealmLinkifiersEvent(state.realmLinkifiers, {
        id: 0,
        type: 'realm_linkifiers',
        realm_linkifiers: linkifiers,
      }),
    ).toBe(linkifiers);
  });

  it('default_streams: ids of the streams; a deleted stream is none any more', () => {
    const state = full();
    expect(state.realmDefaultStreams).toEqual([1]);
    const event: EventOf<'default_streams'> = {
      id: 0,
      type: 'default_streams',
      default_streams: [stream(1, 'general'), stream(2, 'design')],
    };
    expect(handleDefaultStreamsEvent(state.realmDefaultStreams, event)).toEqual([1, 2]);
    const same = { ...event, default_streams: [stream(1, 'general')] };
    expect(handleDefaultStreamsEvent(state.realmDefaultStreams, same)).toBe(state.realmDefaultStreams);
    const deleted = applyEvent(state, {
      id: 0,
      type: 'stream',
      op: 'delete',
      streams: [stream(1, 'general')],
    });
    expect(deleted.realmDefaultStreams).toEqual([]);
  });

  it('selectIsAdmin follows the own user role', () => {
    const state = full();
    expect(selectIsAdmin(state)).toBe(false);
    const promoted = applyEvent(state, {
      id: 0,
      type: 'realm_user',
      op: 'update',
      person: { user_id: ME, role: 200 },
    });
    expect(selectIsAdmin(promoted)).toBe(true);
  });
});

describe('presence', () => {
  const users = usersFromSnapshot([user(ME, 'Me'), user(BOB, 'Bob')], [user(CAROL, 'Carol')]);

  it('reads the modern form keyed by id, and the legacy form keyed by email', () => {
    expect(full().presence).toEqual({
      users: { [BOB]: { active_timestamp: 1000, idle_timestamp: 1100 }, [CAROL]: { idle_timestamp: 900 } },
      offlineThresholdSeconds: 140,
      pingIntervalSeconds: 60,
    });
    const legacy = presenceFromSnapshot(
      {
        presences: {
          'bob@example.com': {
            website: { client: 'website', status: 'active', timestamp: 1000, pushable: false },
            aggregated: { client: 'website', status: 'active', timestamp: 1000 },
          },
          'carol@example.com': { website: { client: 'website', status: 'idle', timestamp: 900 } },
          'nobody@example.com': { website: { status: 'active', timestamp: 5 } },
        },
      },
      users,
    );
    expect(legacy).toEqual({
      users: { [BOB]: { active_timestamp: 1000, idle_timestamp: 1000 }, [CAROL]: { idle_timestamp: 900 } },
      offlineThresholdSeconds: 140,
      pingIntervalSeconds: 60,
    });
  });

  it("a presence event (legacy form) replaces the user's presence, also with an older one", () => {
    const state = full().presence;
    const event = (status: 'active' | 'idle', timestamp: number): EventOf<'presence'> => ({
      id: 0,
      type: 'presence',
      user_id: CAROL,
      email: 'carol@example.com',
      server_timestamp: timestamp + 0.5,
      presence: { website: { client: 'website', status, timestamp, pushable: false } },
    });
    const back = handlePresenceEvent(state, event('active', 2000));
    expect(back.users[CAROL]).toEqual({ active_timestamp: 2000, idle_timestamp: 2000 });
    expect(handlePresenceEvent(back, event('active', 2000))).toBe(back);
    // A user who turns presence off is given an old idle report: offline at once.
    const hidden = handlePresenceEvent(back, event('idle', 1500));
    expect(hidden.users[CAROL]).toEqual({ idle_timestamp: 1500 });
    expect(presenceStatus(hidden.users[CAROL], 1700)).toBe('offline');
    const fresh = handlePresenceEvent(state, { ...event('idle', 3000), user_id: ME });
    expect(fresh.users[ME]).toEqual({ idle_timestamp: 3000 });
    expect(parseEvent({ ...event('active', 1), id: 9 })).toBeTruthy();
  });

  it('takes the modern answers of POST /users/me/presence, user by user', () => {
    const state = full().presence;
    const next = mergePresences(state, {
      [BOB]: { active_timestamp: 1500, idle_timestamp: 1500 },
      [CAROL]: { idle_timestamp: 800 },
      'bob@example.com': { active_timestamp: 9 },
    });
    expect(next.users).toEqual({
      [BOB]: { active_timestamp: 1500, idle_timestamp: 1500 },
      [CAROL]: { idle_timestamp: 800 },
    });
    expect(mergePresences(state, { [CAROL]: { idle_timestamp: 900 } })).toBe(state);
  });

  it('active, idle, offline by the offline threshold (140 s)', () => {
    const p = { active_timestamp: 1000, idle_timestamp: 1100 };
    expect(presenceStatus(p, 1139)).toBe('active');
    expect(presenceStatus(p, 1140)).toBe('idle');
    expect(presenceStatus(p, 1239)).toBe('idle');
    expect(presenceStatus(p, 1240)).toBe('offline');
    expect(presenceStatus(undefined, 0)).toBe('offline');
    expect(presenceStatus({ idle_timestamp: 1000 }, 1000, 10)).toBe('idle');
  });

  it('presenceOf takes milliseconds; the user is active while sharing presence', () => {
    const state = full();
    expect(presenceOf(state, BOB, 1100_000)).toBe('active');
    expect(presenceOf(state, BOB, 1200_000)).toBe('idle');
    expect(presenceOf(state, CAROL, 1100_000)).toBe('offline');
    expect(presenceOf(state, 999, 0)).toBe('offline');
    expect(presenceOf(state, ME, 0)).toBe('active');
    const hidden = applyEvent(state, {
      id: 0,
      type: 'user_settings',
      op: 'update',
      property: 'presence_enabled',
      value: false,
    });
    expect(presenceOf(hidden, ME, 0)).toBe('offline');
  });
});

describe('muted users', () => {
  it('from register, and the whole list after every change', () => {
    const state = full();
    expect(state.mutedUsers).toEqual({ [CAROL]: { id: CAROL, timestamp: 50 } });
    expect(isUserMuted(state, CAROL)).toBe(true);
    expect(isUserMuted(state, BOB)).toBe(false);
    const next = handleMutedUsersEvent(state.mutedUsers, {
      id: 0,
      type: 'muted_users',
      muted_users: [
        { id: CAROL, timestamp: 50 },
        { id: BOB, timestamp: 60 },
      ],
    });
    expect(next).toEqual({ [CAROL]: { id: CAROL, timestamp: 50 }, [BOB]: { id: BOB, timestamp: 60 } });
    expect(
      handleMutedUsersEvent(next, {
        id: 0,
        type: 'muted_users',
        muted_users: [
          { id: BOB, timestamp: 60 },
          { id: CAROL, timestamp: 50 },
        ],
      }),
    ).toBe(next);
    expect(handleMutedUsersEvent(next, { id: 0, type: 'muted_users', muted_users: [] })).toEqual({});
  });
});

describe('recent private conversations', () => {
  const dm = (id: number, recipients: number[], sender = BOB): EventOf<'message'> => ({
    id: 0,
    type: 'message',
    message: {
      id,
      type: 'private',
      subject: '',
      sender_id: sender,
      display_recipient: recipients.map((r) => ({ id: r })),
    },
    flags: [],
  });

  it('newest first, the other participants sorted', () => {
    expect(full().recentPrivateConversations).toEqual([
      { max_message_id: 30, user_ids: [BOB, CAROL] },
      { max_message_id: 20, user_ids: [BOB] },
    ]);
    expect(recentConversationsFromSnapshot([{ max_message_id: 'x', user_ids: [] }, 5])).toEqual([]);
  });

  it('a new private message moves its conversation to the front, or starts one', () => {
    const state = full().recentPrivateConversations;
    expect(handleMessageEventInRecentConversations(state, dm(40, [ME, BOB]), ME)).toEqual([
      { max_message_id: 40, user_ids: [BOB] },
      { max_message_id: 30, user_ids: [BOB, CAROL] },
    ]);
    expect(handleMessageEventInRecentConversations(state, dm(41, [ME], ME), ME)).toEqual([
      { max_message_id: 41, user_ids: [] },
      ...state,
    ]);
    // An older message of a conversation changes nothing; one between the others goes between.
    expect(handleMessageEventInRecentConversations(state, dm(10, [ME, BOB]), ME)).toBe(state);
    expect(handleMessageEventInRecentConversations(state, dm(25, [ME, CAROL], CAROL), ME)).toEqual([
      state[0],
      { max_message_id: 25, user_ids: [CAROL] },
      state[1],
    ]);
  });

  it('through applyEvent a private message changes unreads and the conversations, a stream one only unreads', () => {
    const state = full();
    const next = applyEvent(state, dm(40, [ME, BOB]));
    expect(next.recentPrivateConversations[0]).toEqual({ max_message_id: 40, user_ids: [BOB] });
    const streamMessage = applyEvent(state, {
      id: 0,
      type: 'message',
      message: { id: 41, type: 'stream', stream_id: 1, subject: 't', sender_id: BOB },
      flags: [],
    });
    expect(streamMessage.recentPrivateConversations).toBe(state.recentPrivateConversations);
  });
});

describe('update_message: moved messages take their unread entries along', () => {
  const unreads = () =>
    unreadsFromSnapshot({
      streams: [{ stream_id: 1, topic: 'lunch', unread_message_ids: [21, 22] }],
      pms: [{ other_user_id: BOB, unread_message_ids: [20] }],
      mentions: [22],
    });
  const move = (fields: Partial<EventOf<'update_message'>>): EventOf<'update_message'> => ({
    id: 0,
    type: 'update_message',
    user_id: BOB,
    message_id: 21,
    message_ids: [21, 22, 99],
    rendering_only: false,
    stream_id: 1,
    orig_subject: 'lunch',
    propagate_mode: 'change_all',
    ...fields,
  });

  it('to a new topic, a new stream, or both', () => {
    expect(handleUpdateMessageEvent(unreads(), move({ subject: 'dinner' }))).toEqual(
      unreadsFromLocations(
        {
          20: { kind: 'pm', userId: BOB },
          21: { kind: 'stream', streamId: 1, topic: 'dinner' },
          22: { kind: 'stream', streamId: 1, topic: 'dinner' },
        },
        [22],
      ),
    );
    expect(handleUpdateMessageEvent(unreads(), move({ new_stream_id: 2 })).messages.get(22)).toEqual({
      kind: 'stream',
      streamId: 2,
      topic: 'lunch',
    });
    const both = handleUpdateMessageEvent(
      unreads(),
      move({ new_stream_id: 2, subject: 'x', message_ids: [22] }),
    );
    expect(both.messages.get(21)).toEqual({ kind: 'stream', streamId: 1, topic: 'lunch' });
    expect(both.messages.get(22)).toEqual({ kind: 'stream', streamId: 2, topic: 'x' });
    expect(both.mentions).toEqual([22]);
  });

  it('a content edit moves nothing', () => {
    const state = unreads();
    expect(
      handleUpdateMessageEvent(state, move({ propagate_mode: undefined, orig_subject: undefined })),
    ).toBe(state);
    expect(
      parseEvent({ ...move({ subject: 'x' }), content: 'new', rendered_content: '<p>new</p>' }),
    ).toBeTruthy();
  });
});

describe('events only queries follow', () => {
  it('attachment, scheduled_messages and realm_bot change no slice', () => {
    const state = full();
    const events = [
      parseEvent({ id: 1, type: 'attachment', op: 'add', attachment: { id: 1 }, upload_space_used: 10 }),
      parseEvent({ id: 2, type: 'scheduled_messages', op: 'remove', scheduled_message_id: 3 }),
      parseEvent({ id: 3, type: 'realm_bot', op: 'add', bot: { user_id: 40 } }),
    ];
    expect(applyEvents(state, events as never)).toBe(state);
  });
});

describe('written back into the snapshot', () => {
  it('rebuilds the same organization and people state', () => {
    const raw = snapshotFixture({
      ...REALM_FIELDS,
      realm_emoji: EMOJI,
      realm_linkifiers: [],
      realm_default_streams: [stream(1, 'general')],
      presences: { [BOB]: { active_timestamp: 1000, idle_timestamp: 1100 } },
      muted_users: [],
      recent_private_conversations: [],
    }) as RegisterState;
    const state = applyEvents(accountStateFromSnapshot(raw), [
      { id: 1, type: 'realm', op: 'update', property: 'name', value: 'Renamed' },
      { id: 2, type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: '/i.png' } },
      { id: 3, type: 'muted_users', muted_users: [{ id: BOB, timestamp: 5 }] },
      {
        id: 4,
        type: 'default_streams',
        default_streams: [stream(1, 'general'), stream(2, 'design')],
      },
      {
        id: 5,
        type: 'presence',
        user_id: CAROL,
        presence: { website: { client: 'website', status: 'idle', timestamp: 1200, pushable: false } },
      },
      {
        id: 6,
        type: 'message',
        message: {
          id: 50,
          type: 'private',
          subject: '',
          sender_id: BOB,
          display_recipient: [{ id: ME }, { id: BOB }],
        },
        flags: [],
      },
    ]);
    const written = snapshotFromAccountState(raw, state) as Record<string, unknown>;
    expect(written).toMatchObject({
      realm_name: 'Renamed',
      realm_icon_url: '/i.png',
      max_message_length: 10000,
      muted_users: [{ id: BOB, timestamp: 5 }],
      realm_default_streams: [state.streams[1], state.streams[2]],
      presences: {
        [BOB]: { active_timestamp: 1000, idle_timestamp: 1100 },
        [CAROL]: { idle_timestamp: 1200 },
      },
      recent_private_conversations: [{ max_message_id: 50, user_ids: [BOB] }],
    });
    expect(accountStateFromSnapshot(written as RegisterState)).toEqual(state);
  });
});
