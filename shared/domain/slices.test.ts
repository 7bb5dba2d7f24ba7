/** Every event form, slice by slice: the exact state each handler produces. */
import { describe, expect, it } from 'vitest';
import { BOB, CAROL, ME, snapshotFixture, stream, subscription, user } from '../../test/fixtures/domain';
import type { EventOf, PersonUpdate } from '../protocol';
import {
  accountStateFromSnapshot,
  applyEvent,
  handleAlertWordsEvent,
  handleCustomProfileFieldsEvent,
  handleDeleteMessageEvent,
  handleDraftsEvent,
  handleMessageEvent,
  handleRealmPlaygroundsEvent,
  handleRealmUserEvent,
  handleRealmUserSettingsDefaultsEvent,
  handleStarredDeleteEvent,
  handleStarredFlagsEvent,
  handleStreamEvent,
  handleStreamEventInSubscriptions,
  handleSubscriptionEvent,
  handleUpdateMessageFlagsEvent,
  handleUserGroupEvent,
  handleUserStatusEvent,
  handleUserTopicEvent,
  type SubscriptionsState,
  starredFromSnapshot,
  subscriptionsFromSnapshot,
  topicKey,
  type UnreadState,
  type UsersState,
  unreadsFromLocations,
  unreadsFromSnapshot,
  usersFromSnapshot,
} from './index';

const viewer = { userId: ME, isAdmin: false };

function subsState(withSubscribers = false): SubscriptionsState {
  const subscribers = withSubscribers ? { subscribers: [ME, BOB] } : {};
  return subscriptionsFromSnapshot({
    subscriptions: [
      subscription(1, 'general', subscribers),
      subscription(4, 'secret', { invite_only: true, ...subscribers }),
    ],
    unsubscribed: [stream(5, 'old', withSubscribers ? { subscribers: [BOB] } : {})],
    never_subscribed: [stream(3, 'lobby', withSubscribers ? { subscribers: [BOB] } : {})],
  });
}

describe('subscription events', () => {
  it('add: subscribes, and the stream leaves the other lists (subscribers dropped when not kept)', () => {
    const next = handleSubscriptionEvent(
      subsState(),
      {
        id: 0,
        type: 'subscription',
        op: 'add',
        subscriptions: [subscription(3, 'lobby', { subscribers: [BOB, ME] })],
      },
      viewer,
    );
    expect(next.subscribed[3]).toEqual(subscription(3, 'lobby'));
    expect(next.neverSubscribed).toEqual({});
    expect(Object.keys(next.subscribed)).toEqual(['1', '3', '4']);
  });

  it('add: keeps subscriber lists when the snapshot had them', () => {
    const state = subsState(true);
    expect(state.withSubscribers).toBe(true);
    const next = handleSubscriptionEvent(
      state,
      {
        id: 0,
        type: 'subscription',
        op: 'add',
        subscriptions: [subscription(5, 'old', { subscribers: [BOB, ME] })],
      },
      viewer,
    );
    expect(next.subscribed[5]?.subscribers).toEqual([BOB, ME]);
    expect(next.unsubscribed).toEqual({});
  });

  it('remove: the stream moves to unsubscribed, without us among its subscribers', () => {
    const next = handleSubscriptionEvent(
      subsState(true),
      { id: 0, type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 1, name: 'general' }] },
      viewer,
    );
    expect(next.subscribed[1]).toBeUndefined();
    expect(next.unsubscribed[1]).toEqual(subscription(1, 'general', { subscribers: [BOB] }));
  });

  it('remove: a private stream hides its subscribers from a former member who is not an admin', () => {
    const remove: EventOf<'subscription'> = {
      id: 0,
      type: 'subscription',
      op: 'remove',
      subscriptions: [{ stream_id: 4, name: 'secret' }],
    };
    expect(handleSubscriptionEvent(subsState(true), remove, viewer).unsubscribed[4]).toEqual(
      subscription(4, 'secret', { invite_only: true }),
    );
    expect(
      handleSubscriptionEvent(subsState(true), remove, { userId: ME, isAdmin: true }).unsubscribed[4],
    ).toEqual(subscription(4, 'secret', { invite_only: true, subscribers: [BOB] }));
  });

  it.each([
    ['color', '#ff0000', { color: '#ff0000' }],
    ['pin_to_top', true, { pin_to_top: true }],
    ['is_muted', true, { is_muted: true, in_home_view: false }],
    ['in_home_view', false, { is_muted: true, in_home_view: false }],
    ['desktop_notifications', true, { desktop_notifications: true }],
    ['audible_notifications', false, { audible_notifications: false }],
    ['push_notifications', true, { push_notifications: true }],
    ['email_notifications', true, { email_notifications: true }],
    ['wildcard_mentions_notify', false, { wildcard_mentions_notify: false }],
  ] as const)('update %s = %s', (property, value, expected) => {
    const next = handleSubscriptionEvent(
      subsState(),
      { id: 0, type: 'subscription', op: 'update', stream_id: 1, property, value },
      viewer,
    );
    expect(next.subscribed[1]).toEqual(subscription(1, 'general', expected));
  });

  it('update: a notification setting back to null (follow the user setting)', () => {
    const state = subscriptionsFromSnapshot({
      subscriptions: [subscription(1, 'general', { desktop_notifications: true })],
    });
    const next = handleSubscriptionEvent(
      state,
      {
        id: 0,
        type: 'subscription',
        op: 'update',
        stream_id: 1,
        property: 'desktop_notifications',
        value: null,
      },
      viewer,
    );
    expect(next.subscribed[1]?.desktop_notifications).toBeNull();
  });

  it('update: of a stream we are not subscribed to changes nothing', () => {
    const state = subsState();
    const event = {
      id: 0,
      type: 'subscription',
      op: 'update',
      stream_id: 9,
      property: 'color',
      value: '#000',
    } as const;
    expect(handleSubscriptionEvent(state, event, viewer)).toBe(state);
  });

  it('peer_add / peer_remove: every list with subscribers, no duplicates', () => {
    let next = handleSubscriptionEvent(
      subsState(true),
      { id: 0, type: 'subscription', op: 'peer_add', stream_ids: [1, 3, 5], user_ids: [BOB, CAROL] },
      viewer,
    );
    expect(next.subscribed[1]?.subscribers).toEqual([ME, BOB, CAROL]);
    expect(next.neverSubscribed[3]?.subscribers).toEqual([BOB, CAROL]);
    expect(next.unsubscribed[5]?.subscribers).toEqual([BOB, CAROL]);
    expect(next.subscribed[4]?.subscribers).toEqual([ME, BOB]);
    next = handleSubscriptionEvent(
      next,
      { id: 1, type: 'subscription', op: 'peer_remove', stream_ids: [1, 3], user_ids: [BOB] },
      viewer,
    );
    expect(next.subscribed[1]?.subscribers).toEqual([ME, CAROL]);
    expect(next.neverSubscribed[3]?.subscribers).toEqual([CAROL]);
    expect(next.unsubscribed[5]?.subscribers).toEqual([BOB, CAROL]);
  });

  it('peer events without subscriber lists change nothing', () => {
    const state = subsState();
    const event: EventOf<'subscription'> = {
      id: 0,
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [1],
      user_ids: [CAROL],
    };
    expect(handleSubscriptionEvent(state, event, viewer)).toBe(state);
  });
});

describe('stream events', () => {
  const streams = accountStateFromSnapshot(snapshotFixture()).streams;

  it('create: a new stream joins streams and never_subscribed', () => {
    const event: EventOf<'stream'> = {
      id: 0,
      type: 'stream',
      op: 'create',
      streams: [stream(6, 'new', { subscribers: [BOB] })],
    };
    expect(handleStreamEvent(streams, event)[6]).toEqual(stream(6, 'new', { subscribers: [BOB] }));
    expect(handleStreamEventInSubscriptions(subsState(), event).neverSubscribed[6]).toEqual(stream(6, 'new'));
    expect(handleStreamEventInSubscriptions(subsState(true), event).neverSubscribed[6]).toEqual(
      stream(6, 'new', { subscribers: [BOB] }),
    );
  });

  it('create: of a stream we are subscribed to leaves never_subscribed alone', () => {
    const state = subsState();
    const event: EventOf<'stream'> = { id: 0, type: 'stream', op: 'create', streams: [stream(1, 'general')] };
    expect(handleStreamEventInSubscriptions(state, event)).toBe(state);
  });

  it('delete: the stream leaves every list', () => {
    const event: EventOf<'stream'> = {
      id: 0,
      type: 'stream',
      op: 'delete',
      streams: [stream(1, 'general'), stream(3, 'lobby'), stream(5, 'old')],
    };
    expect(Object.keys(handleStreamEvent(streams, event))).toEqual(['2']);
    const next = handleStreamEventInSubscriptions(subsState(), event);
    expect([Object.keys(next.subscribed), next.neverSubscribed, next.unsubscribed]).toEqual([['4'], {}, {}]);
  });

  it('update: the property and its companions, in every list', () => {
    const event = {
      id: 0,
      type: 'stream',
      op: 'update',
      stream_id: 1,
      name: 'general',
      property: 'description',
      value: 'News **here**',
      rendered_description: '<p>News <strong>here</strong></p>',
    } as const;
    const expected = {
      description: 'News **here**',
      rendered_description: '<p>News <strong>here</strong></p>',
    };
    expect(handleStreamEvent(streams, event)[1]).toEqual(stream(1, 'general', expected));
    expect(handleStreamEventInSubscriptions(subsState(), event).subscribed[1]).toEqual(
      subscription(1, 'general', expected),
    );
  });

  it('update: stream_post_policy sets the legacy is_announcement_only', () => {
    const event = {
      id: 0,
      type: 'stream',
      op: 'update',
      stream_id: 3,
      name: 'lobby',
      property: 'stream_post_policy',
      value: 2,
    } as const;
    const expected = stream(3, 'lobby', { stream_post_policy: 2, is_announcement_only: true });
    expect(handleStreamEvent(streams, event)[3]).toEqual(expected);
    expect(handleStreamEventInSubscriptions(subsState(), event).neverSubscribed[3]).toEqual(expected);
  });

  it('update: a rename, and an unsubscribed stream', () => {
    const event = {
      id: 0,
      type: 'stream',
      op: 'update',
      stream_id: 5,
      name: 'old',
      property: 'name',
      value: 'older',
    } as const;
    expect(handleStreamEventInSubscriptions(subsState(), event).unsubscribed[5]).toEqual(stream(5, 'older'));
  });
});

describe('realm_user events', () => {
  const users = (): UsersState =>
    usersFromSnapshot([user(ME, 'Me'), user(BOB, 'Bob')], [user(CAROL, 'Carol', { is_active: false })]);
  const update = (person: PersonUpdate) =>
    handleRealmUserEvent(users(), { id: 0, type: 'realm_user', op: 'update', person });

  it('add: a whole user', () => {
    const dan = user(13, 'Dan');
    expect(
      handleRealmUserEvent(users(), { id: 0, type: 'realm_user', op: 'add', person: dan }).active[13],
    ).toEqual(dan);
  });

  it('add: a user already deactivated comes back as active', () => {
    const carol = user(CAROL, 'Carol');
    const next = handleRealmUserEvent(users(), { id: 0, type: 'realm_user', op: 'add', person: carol });
    expect([next.active[CAROL], next.nonActive[CAROL]]).toEqual([carol, undefined]);
  });

  it('remove: the user is deactivated', () => {
    const next = handleRealmUserEvent(users(), {
      id: 0,
      type: 'realm_user',
      op: 'remove',
      person: { user_id: BOB, full_name: 'Bob' },
    });
    expect([next.active[BOB], next.nonActive[BOB]]).toEqual([
      undefined,
      user(BOB, 'Bob', { is_active: false }),
    ]);
  });

  it.each([
    ['full_name', { full_name: 'Robert' }, { full_name: 'Robert' }],
    [
      'email + timezone',
      { email: 'r@x.org', timezone: 'Europe/Paris' },
      { email: 'r@x.org', timezone: 'Europe/Paris' },
    ],
    ['bot_owner_id', { bot_owner_id: ME }, { bot_owner_id: ME }],
    ['role: administrator', { role: 200 }, { role: 200, is_admin: true, is_owner: false, is_guest: false }],
    ['role: owner', { role: 100 }, { role: 100, is_admin: true, is_owner: true, is_guest: false }],
    ['role: guest', { role: 600 }, { role: 600, is_admin: false, is_owner: false, is_guest: true }],
    ['delivery_email', { delivery_email: 'real@x.org' }, { delivery_email: 'real@x.org' }],
    ['delivery_email hidden', { delivery_email: null }, { delivery_email: null }],
    [
      'avatar',
      { avatar_source: 'U', avatar_url: '/a/11.png', avatar_url_medium: '/a/11-m.png', avatar_version: 2 },
      { avatar_url: '/a/11.png', avatar_version: 2 },
    ],
    ['is_billing_admin', { is_billing_admin: true }, { is_billing_admin: true }],
    ['new_email', { new_email: 'new@x.org' }, { email: 'new@x.org' }],
    [
      'custom_profile_field',
      { custom_profile_field: { id: 1, value: '*Boss*', rendered_value: '<p><em>Boss</em></p>' } },
      { profile_data: { 1: { value: '*Boss*', rendered_value: '<p><em>Boss</em></p>' } } },
    ],
    [
      'custom_profile_field without rendering',
      { custom_profile_field: { id: 2, value: 'plain' } },
      { profile_data: { 2: { value: 'plain' } } },
    ],
  ] as const)('update: %s', (_name, fields, expected) => {
    expect(update({ user_id: BOB, ...fields }).active[BOB]).toEqual(user(BOB, 'Bob', expected as never));
  });

  it('update: custom_profile_field null clears the value', () => {
    const state = usersFromSnapshot([
      user(BOB, 'Bob', { profile_data: { 1: { value: 'x' }, 2: { value: 'y' } } }),
    ]);
    const next = handleRealmUserEvent(state, {
      id: 0,
      type: 'realm_user',
      op: 'update',
      person: { user_id: BOB, custom_profile_field: { id: 1, value: null } },
    });
    expect(next.active[BOB]?.profile_data).toEqual({ 2: { value: 'y' } });
  });

  it('update: is_active false deactivates, true reactivates', () => {
    const off = update({ user_id: BOB, is_active: false });
    expect([off.active[BOB], off.nonActive[BOB]]).toEqual([
      undefined,
      user(BOB, 'Bob', { is_active: false }),
    ]);
    const on = update({ user_id: CAROL, is_active: true });
    expect([on.active[CAROL], on.nonActive[CAROL]]).toEqual([user(CAROL, 'Carol'), undefined]);
  });

  it('update: a deactivated user is updated where they are', () => {
    expect(update({ user_id: CAROL, full_name: 'Caroline' }).nonActive[CAROL]).toEqual(
      user(CAROL, 'Carol', { full_name: 'Caroline', is_active: false }),
    );
  });

  it('update: an unknown user changes nothing', () => {
    const state = users();
    expect(
      handleRealmUserEvent(state, {
        id: 0,
        type: 'realm_user',
        op: 'update',
        person: { user_id: 99, full_name: 'x' },
      }),
    ).toBe(state);
  });
});

describe('drafts events', () => {
  const drafts = accountStateFromSnapshot(snapshotFixture()).drafts;
  const draft = (id: number, content: string) => ({
    id,
    type: '' as const,
    to: [],
    topic: '',
    content,
    timestamp: 200,
  });

  it('add, update, remove', () => {
    let next = handleDraftsEvent(drafts, {
      id: 0,
      type: 'drafts',
      op: 'add',
      drafts: [draft(2, 'a'), draft(3, 'b')],
    });
    expect(Object.keys(next)).toEqual(['1', '2', '3']);
    next = handleDraftsEvent(next, { id: 1, type: 'drafts', op: 'update', draft: draft(2, 'edited') });
    expect(next[2]).toEqual(draft(2, 'edited'));
    next = handleDraftsEvent(next, { id: 2, type: 'drafts', op: 'remove', draft_id: 1 });
    expect(next).toEqual({ 2: draft(2, 'edited'), 3: draft(3, 'b') });
  });
});

describe('user_status events', () => {
  const statuses = accountStateFromSnapshot(snapshotFixture()).userStatus;
  const ev = (fields: Omit<EventOf<'user_status'>, 'id' | 'type'>) => ({
    id: 0,
    type: 'user_status' as const,
    ...fields,
  });

  it('sets only what changed', () => {
    expect(handleUserStatusEvent(statuses, ev({ user_id: BOB, status_text: 'back' }))[BOB]).toEqual({
      status_text: 'back',
      emoji_name: 'palm_tree',
      emoji_code: '1f334',
      reaction_type: 'unicode_emoji',
    });
    expect(handleUserStatusEvent(statuses, ev({ user_id: ME, away: true }))[ME]).toEqual({ away: true });
  });

  it('an empty emoji_name clears the emoji; clearing everything removes the entry', () => {
    const noEmoji = handleUserStatusEvent(
      statuses,
      ev({ user_id: BOB, emoji_name: '', emoji_code: '', reaction_type: '' }),
    );
    expect(noEmoji[BOB]).toEqual({ status_text: 'away' });
    expect(handleUserStatusEvent(noEmoji, ev({ user_id: BOB, status_text: '' }))).toEqual({});
  });

  it('a new emoji with its code and type; away false clears away', () => {
    let next = handleUserStatusEvent(
      {},
      ev({
        user_id: ME,
        away: true,
        emoji_name: 'smile',
        emoji_code: '1f604',
        reaction_type: 'unicode_emoji',
      }),
    );
    expect(next[ME]).toEqual({
      away: true,
      emoji_name: 'smile',
      emoji_code: '1f604',
      reaction_type: 'unicode_emoji',
    });
    next = handleUserStatusEvent(next, ev({ user_id: ME, away: false }));
    expect(next[ME]).toEqual({ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' });
  });
});

describe('realm-wide lists', () => {
  it('custom_profile_fields replaces the whole list', () => {
    const fields = [{ id: 2, type: 1, order: 1, name: 'Phone', hint: '', field_data: '' }];
    expect(handleCustomProfileFieldsEvent([], { id: 0, type: 'custom_profile_fields', fields })).toEqual(
      fields,
    );
  });

  it('realm_playgrounds replaces the whole list', () => {
    const list = [{ id: 2, name: 'Go', highlighter_language: 'Go', url_prefix: 'https://go/' }];
    expect(
      handleRealmPlaygroundsEvent([], { id: 0, type: 'realm_playgrounds', realm_playgrounds: list }),
    ).toEqual(list);
  });

  it('alert_words replaces the whole list', () => {
    expect(handleAlertWordsEvent(['a'], { id: 0, type: 'alert_words', alert_words: ['b', 'c'] })).toEqual([
      'b',
      'c',
    ]);
  });

  it('realm_user_settings_defaults updates one property', () => {
    const event = {
      id: 0,
      type: 'realm_user_settings_defaults',
      op: 'update',
      property: 'color_scheme',
      value: 3,
    } as const;
    expect(handleRealmUserSettingsDefaultsEvent({ color_scheme: 1, dense_mode: true }, event)).toEqual({
      color_scheme: 3,
      dense_mode: true,
    });
  });
});

describe('user_group events', () => {
  const groups = accountStateFromSnapshot(snapshotFixture()).userGroups;
  const team = { id: 1, name: 'team', description: 'the team', members: [ME, BOB] };

  it('add, update, add_members, remove_members, remove', () => {
    let next = handleUserGroupEvent(groups, {
      id: 0,
      type: 'user_group',
      op: 'add',
      group: { id: 2, name: 'ops', description: '', members: [BOB] },
    });
    expect(next[2]).toEqual({ id: 2, name: 'ops', description: '', members: [BOB] });
    next = handleUserGroupEvent(next, {
      id: 1,
      type: 'user_group',
      op: 'update',
      group_id: 1,
      data: { name: 'crew' },
    });
    expect(next[1]).toEqual({ ...team, name: 'crew' });
    next = handleUserGroupEvent(next, {
      id: 2,
      type: 'user_group',
      op: 'add_members',
      group_id: 1,
      user_ids: [BOB, CAROL],
    });
    expect(next[1]?.members).toEqual([ME, BOB, CAROL]);
    next = handleUserGroupEvent(next, {
      id: 3,
      type: 'user_group',
      op: 'remove_members',
      group_id: 1,
      user_ids: [ME],
    });
    expect(next[1]?.members).toEqual([BOB, CAROL]);
    next = handleUserGroupEvent(next, { id: 4, type: 'user_group', op: 'remove', group_id: 2 });
    expect(next).toEqual({ 1: { ...team, name: 'crew', members: [BOB, CAROL] } });
  });
});

describe('user_topic events', () => {
  it('sets a policy, matches the topic without case, and inherit removes it', () => {
    const ev = (topic: string, policy: number) =>
      ({
        id: 0,
        type: 'user_topic',
        stream_id: 1,
        topic_name: topic,
        last_updated: 5,
        visibility_policy: policy,
      }) as const;
    let next = handleUserTopicEvent({}, ev('Lunch', 1));
    expect(next).toEqual({
      [topicKey(1, 'lunch')]: { stream_id: 1, topic_name: 'Lunch', last_updated: 5, visibility_policy: 1 },
    });
    next = handleUserTopicEvent(next, ev('LUNCH', 3));
    expect(Object.values(next)).toEqual([
      { stream_id: 1, topic_name: 'LUNCH', last_updated: 5, visibility_policy: 3 },
    ]);
    expect(handleUserTopicEvent(next, ev('lunch', 0))).toEqual({});
  });
});

describe('unread events', () => {
  const unreads = (): UnreadState => accountStateFromSnapshot(snapshotFixture()).unreads;
  const message = (
    fields: Partial<EventOf<'message'>['message']>,
    flags: string[] = [],
  ): EventOf<'message'> => ({
    id: 0,
    type: 'message',
    message: { id: 40, type: 'stream', stream_id: 1, subject: 'lunch', sender_id: BOB, ...fields },
    flags,
  });

  it('snapshot: a missing unread_msgs, or parts of another shape, count no unreads', () => {
    const none = unreadsFromLocations({});
    expect(unreadsFromSnapshot(undefined)).toEqual(none);
    expect(unreadsFromSnapshot('x')).toEqual(none);
    expect(unreadsFromSnapshot({ pms: 'x', mentions: 'y' })).toEqual(none);
    expect(
      unreadsFromSnapshot({
        streams: [
          { stream_id: 1, unread_message_ids: [5] },
          { stream_id: 1, topic: 't', unread_message_ids: [6] },
        ],
        huddles: [{ user_ids_string: '1,2,3', unread_message_ids: 'z' }],
        mentions: [6, 'q'],
      }),
    ).toEqual(unreadsFromLocations({ 6: { kind: 'stream', streamId: 1, topic: 't' } }, [6]));
  });

  it('message: a stream message from someone else is unread', () => {
    expect(handleMessageEvent(unreads(), message({}), ME).messages.get(40)).toEqual({
      kind: 'stream',
      streamId: 1,
      topic: 'lunch',
    });
  });

  it('message: a mention also counts as one', () => {
    const next = handleMessageEvent(unreads(), message({}, ['mentioned']), ME);
    expect(next.mentions).toEqual([22, 40]);
    expect(handleMessageEvent(unreads(), message({}, ['wildcard_mentioned']), ME).mentions).toEqual([22, 40]);
  });

  it('message: our own message, or one that arrives read, is not unread', () => {
    const state = unreads();
    expect(handleMessageEvent(state, message({ sender_id: ME }), ME)).toEqual(state);
    expect(handleMessageEvent(state, message({}, ['read']), ME)).toBe(state);
  });

  it('message: private to us, and to a group', () => {
    const pm = message({ type: 'private', subject: '', display_recipient: [{ id: ME }, { id: BOB }] });
    expect(handleMessageEvent(unreads(), pm, ME).messages.get(40)).toEqual({ kind: 'pm', userId: BOB });
    const group = message({
      type: 'private',
      subject: '',
      display_recipient: [{ id: CAROL }, { id: ME }, { id: BOB }],
    });
    expect(handleMessageEvent(unreads(), group, ME).messages.get(40)).toEqual({
      kind: 'huddle',
      userIds: `${ME},${BOB},${CAROL}`,
    });
  });

  const flags = (op: 'add' | 'remove', flag: string, messages: number[], all = false, extra = {}) =>
    ({
      id: 0,
      type: 'update_message_flags',
      op,
      flag,
      messages,
      all,
      ...extra,
    }) as EventOf<'update_message_flags'>;

  it('update_message_flags add read: those messages, or all', () => {
    expect(handleUpdateMessageFlagsEvent(unreads(), flags('add', 'read', [21, 22]), ME)).toEqual(
      unreadsFromLocations({
        20: { kind: 'pm', userId: BOB },
        23: { kind: 'stream', streamId: 2, topic: 'logo' },
      }),
    );
    expect(handleUpdateMessageFlagsEvent(unreads(), flags('add', 'read', [], true), ME)).toEqual(
      unreadsFromLocations({}),
    );
  });

  it('update_message_flags remove read: back to unread where message_details says', () => {
    const event = flags('remove', 'read', [50, 51, 52], false, {
      message_details: {
        50: { type: 'stream', stream_id: 2, topic: 'logo', mentioned: true },
        51: { type: 'private', user_ids: [BOB] },
        52: { type: 'private', user_ids: [BOB, CAROL] },
      },
    });
    const next = handleUpdateMessageFlagsEvent(unreads(), event, ME);
    expect([next.messages.get(50), next.messages.get(51), next.messages.get(52)]).toEqual([
      { kind: 'stream', streamId: 2, topic: 'logo' },
      { kind: 'pm', userId: BOB },
      { kind: 'huddle', userIds: `${ME},${BOB},${CAROL}` },
    ]);
    expect(next.mentions).toEqual([22, 50]);
  });

  it('update_message_flags of mentions, and of a flag that is not about unreads', () => {
    expect(handleUpdateMessageFlagsEvent(unreads(), flags('remove', 'mentioned', [22]), ME).mentions).toEqual(
      [],
    );
    expect(
      handleUpdateMessageFlagsEvent(unreads(), flags('add', 'mentioned', [21, 99]), ME).mentions,
    ).toEqual([21, 22]);
    const state = unreads();
    expect(handleUpdateMessageFlagsEvent(state, flags('add', 'starred', [21]), ME)).toBe(state);
  });

  it('delete_message: the bulk form and the one-message form', () => {
    const bulk = handleDeleteMessageEvent(unreads(), {
      id: 0,
      type: 'delete_message',
      message_type: 'stream',
      message_ids: [21, 22],
      stream_id: 1,
      topic: 'lunch',
    });
    expect(bulk).toEqual(
      unreadsFromLocations({
        20: { kind: 'pm', userId: BOB },
        23: { kind: 'stream', streamId: 2, topic: 'logo' },
      }),
    );
    const one = handleDeleteMessageEvent(unreads(), {
      id: 0,
      type: 'delete_message',
      message_type: 'private',
      message_id: 20,
    });
    expect(one.messages.ids()).toEqual([21, 22, 23]);
  });

  it('through applyEvent, unread events change only the unreads slice', () => {
    const state = accountStateFromSnapshot(snapshotFixture());
    const next = applyEvent(state, { ...flags('add', 'read', [20]), id: 3 });
    expect(next).toEqual({
      ...state,
      unreads: unreadsFromLocations(
        {
          21: { kind: 'stream', streamId: 1, topic: 'lunch' },
          22: { kind: 'stream', streamId: 1, topic: 'lunch' },
          23: { kind: 'stream', streamId: 2, topic: 'logo' },
        },
        [22],
      ),
    });
  });
});

describe('starred messages', () => {
  const flags = (
    op: 'add' | 'remove',
    flag: string,
    messages: number[],
  ): EventOf<'update_message_flags'> => ({
    id: 1,
    type: 'update_message_flags',
    op,
    flag,
    messages,
    all: false,
  });

  it('come from register, ascending and once each', () => {
    expect(starredFromSnapshot([30, 10, 30, 'x', 20])).toEqual([10, 20, 30]);
    expect(starredFromSnapshot(undefined)).toEqual([]);
  });

  it('follow the starred flag only, keeping the array when nothing changes', () => {
    const state = starredFromSnapshot([10, 30]);
    expect(handleStarredFlagsEvent(state, flags('add', 'starred', [20, 10]))).toEqual([10, 20, 30]);
    expect(handleStarredFlagsEvent(state, flags('remove', 'starred', [30, 99]))).toEqual([10]);
    expect(handleStarredFlagsEvent(state, flags('add', 'read', [20]))).toBe(state);
    expect(handleStarredFlagsEvent(state, flags('add', 'starred', [10]))).toBe(state);
    expect(handleStarredFlagsEvent(state, flags('remove', 'starred', [20]))).toBe(state);
  });

  it('lose deleted messages, one or several at a time', () => {
    const state = starredFromSnapshot([10, 20, 30]);
    const deleted = (ids: { message_ids?: number[]; message_id?: number }): EventOf<'delete_message'> => ({
      id: 2,
      type: 'delete_message',
      message_type: 'stream',
      ...ids,
    });
    expect(handleStarredDeleteEvent(state, deleted({ message_ids: [10, 30] }))).toEqual([20]);
    expect(handleStarredDeleteEvent(state, deleted({ message_id: 20 }))).toEqual([10, 30]);
    expect(handleStarredDeleteEvent(state, deleted({ message_ids: [40] }))).toBe(state);
  });

  it('are kept by the account state for both events, beside the unread counts', () => {
    const state = accountStateFromSnapshot({ ...snapshotFixture(), starred_messages: [21] } as never);
    const starred = applyEvent(state, flags('add', 'starred', [22]));
    expect(starred.starredMessages).toEqual([21, 22]);
    expect(starred.unreads).toBe(state.unreads);
    const deleted = applyEvent(starred, {
      id: 3,
      type: 'delete_message',
      message_type: 'stream',
      message_ids: [21],
    });
    expect(deleted.starredMessages).toEqual([22]);
  });
});
