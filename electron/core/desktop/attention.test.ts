/** Badge counts, notification rules and texts, and the tracker main keeps, from snapshots and events. */
import { describe, expect, it } from 'vitest';
import {
  type AccountState,
  accountStateFromSnapshot,
  applyEvents,
  selectBadgeCount,
  selectPrivateAndMentionUnread,
  selectUnreadTotal,
  topicPolicy,
} from '../../../shared/domain';
import type { AppState, PushChannel, PushPayloads } from '../../../shared/ipc';
import type { RegisterState, ServerEvent } from '../../../shared/protocol';
import { subscription as sub } from '../../../test/fixtures/domain';
import {
  AttentionTracker,
  type AttentionUpdate,
  badgeCount,
  badgeText,
  htmlToText,
  type MessageEvent,
  notificationContent,
  shouldNotify,
  trayTooltip,
} from './attention';

const ME = 10;
const ALICE = 11;
const BOB = 12;

function snapshot(overrides: Record<string, unknown> = {}): RegisterState {
  return {
    last_event_id: -1,
    service_feature_level: 100,
    service_version: '1.0',
    service_merge_base: '',
    user_id: ME,
    user_settings: {
      enable_desktop_notifications: true,
      enable_stream_desktop_notifications: false,
      pm_content_in_desktop_notifications: true,
      wildcard_mentions_notify: true,
      desktop_icon_count_display: 1,
      default_language: 'en',
    },
    subscriptions: [
      sub(1, 'general'),
      sub(2, 'design'),
      sub(3, 'random', { is_muted: true, in_home_view: false }),
    ],
    user_topics: [],
    unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
    ...overrides,
  } as RegisterState;
}

function withSettings(settings: Record<string, unknown>, rest: Record<string, unknown> = {}) {
  const base = snapshot();
  return accountStateFromSnapshot(
    snapshot({ user_settings: { ...(base.user_settings as object), ...settings }, ...rest }),
  );
}

let nextEventId = 100;
function streamMessage(
  id: number,
  streamId: number,
  topic: string,
  flags: string[] = [],
  extra: Record<string, unknown> = {},
): MessageEvent {
  return {
    id: nextEventId++,
    type: 'message',
    message: {
      id,
      type: 'stream',
      stream_id: streamId,
      subject: topic,
      sender_id: ALICE,
      sender_full_name: 'Alice Liddell',
      display_recipient: ['', 'general', 'design', 'random'][streamId] ?? 'unknown',
      content: '<p>Hello <strong>team</strong> &amp; friends</p>',
      content_type: 'text/html',
      ...extra,
    },
    flags,
  };
}

function privateMessage(
  id: number,
  flags: string[] = [],
  recipients = [ALICE, ME],
  extra: Record<string, unknown> = {},
): MessageEvent {
  return {
    id: nextEventId++,
    type: 'message',
    message: {
      id,
      type: 'private',
      subject: '',
      sender_id: ALICE,
      sender_full_name: 'Alice Liddell',
      display_recipient: recipients.map((r) => ({ id: r, full_name: `user ${r}`, email: `u${r}@x` })),
      content: '<p>Secret plan</p>',
      content_type: 'text/html',
      ...extra,
    },
    flags,
  };
}

const ev = (e: Record<string, unknown>) => ({ id: nextEventId++, ...e }) as ServerEvent;

/** The badge's two counts, as shared/domain's selectors give them. */
const unreadCounts = (state: AccountState) => ({
  all: selectUnreadTotal(state),
  privateAndMentions: selectPrivateAndMentionUnread(state),
});

/**
 * Plays the core's part: keeps each account's AccountState from the pushes, as its
 * UpdateMachine does before it pushes (a signed-out account's machine is gone), and hands each
 * push on to the tracker, which reads the state back through its AccountStateSource.
 */
function trackerWithCore() {
  const states = new Map<string, { generation: number; state: AccountState }>();
  /** The core's do not disturb: its end (epoch ms) or off, asked against the test's clock. */
  const dnd: { until: number | null; now: number } = { until: null, now: 0 };
  const tracker = new AttentionTracker(
    (accountId) => states.get(accountId) ?? null,
    () => dnd.until !== null && dnd.until > dnd.now,
  );
  function push<P extends PushChannel>(
    channel: P,
    payload: PushPayloads[P],
    focused: string | null = null,
  ): AttentionUpdate {
    if (channel === 'account.snapshot') {
      const snap = payload as PushPayloads['account.snapshot'];
      states.set(snap.accountId, {
        generation: snap.generation,
        state: accountStateFromSnapshot(snap.state),
      });
    } else if (channel === 'account.events') {
      const batch = payload as PushPayloads['account.events'];
      const current = states.get(batch.accountId);
      if (current?.generation === batch.generation) {
        states.set(batch.accountId, { ...current, state: applyEvents(current.state, batch.events) });
      }
    } else if (channel === 'app.state') {
      const known = new Set((payload as AppState).accounts.map((a) => a.id));
      for (const id of [...states.keys()]) if (!known.has(id)) states.delete(id);
    }
    return tracker.handlePush(channel, payload, focused);
  }
  return { tracker, push, dnd };
}

describe('unread counts from the register snapshot (accountStateFromSnapshot)', () => {
  it('reads unread_msgs: streams, private, huddles and mentions; muted streams do not count', () => {
    const state = accountStateFromSnapshot(
      snapshot({
        unread_msgs: {
          count: 6,
          pms: [{ other_user_id: ALICE, sender_id: ALICE, unread_message_ids: [1, 2] }],
          huddles: [{ user_ids_string: '10,11,12', unread_message_ids: [3] }],
          streams: [
            { stream_id: 1, topic: 'lunch', unread_message_ids: [4, 5] },
            { stream_id: 3, topic: 'noise', unread_message_ids: [6, 7] },
          ],
          mentions: [5, 7],
          old_unreads_missing: false,
        },
      }),
    );
    // 1,2,3 private; 4,5 general; 6 muted (not counted); 7 muted: a mention, but muted streams do
    // not count toward unread totals (the spec), so only among private messages and mentions.
    expect(unreadCounts(state)).toEqual({ all: 5, privateAndMentions: 5 });
  });

  it('has no unreads when the snapshot has none or an unknown shape', () => {
    expect(unreadCounts(accountStateFromSnapshot(snapshot({ unread_msgs: undefined })))).toEqual({
      all: 0,
      privateAndMentions: 0,
    });
    expect(unreadCounts(accountStateFromSnapshot(snapshot({ unread_msgs: { pms: 'x' } })))).toEqual({
      all: 0,
      privateAndMentions: 0,
    });
  });

  it('honours muted and unmuted topics', () => {
    const state = accountStateFromSnapshot(
      snapshot({
        user_topics: [
          { stream_id: 1, topic_name: 'Boring', last_updated: 1, visibility_policy: 1 },
          { stream_id: 3, topic_name: 'Keep', last_updated: 1, visibility_policy: 2 },
        ],
        unread_msgs: {
          pms: [],
          huddles: [],
          streams: [
            { stream_id: 1, topic: 'boring', unread_message_ids: [1] },
            { stream_id: 1, topic: 'fine', unread_message_ids: [2] },
            { stream_id: 3, topic: 'keep', unread_message_ids: [3] },
            { stream_id: 3, topic: 'other', unread_message_ids: [4] },
          ],
          mentions: [],
        },
      }),
    );
    expect(unreadCounts(state).all).toBe(2);
  });
});

describe('unread counts and the state attention reads, following events (applyEvents)', () => {
  it('counts new unread messages and not those that arrive read', () => {
    let state = accountStateFromSnapshot(snapshot());
    state = applyEvents(state, [
      streamMessage(1, 1, 'lunch'),
      streamMessage(2, 1, 'lunch', ['mentioned']),
      privateMessage(3),
      streamMessage(4, 1, 'lunch', ['read']),
      streamMessage(5, 3, 'noise'),
    ]);
    expect(unreadCounts(state)).toEqual({ all: 3, privateAndMentions: 2 });
  });

  it('forgets messages marked read, deleted, or all read; counts those marked unread again', () => {
    let state = accountStateFromSnapshot(snapshot());
    state = applyEvents(state, [
      streamMessage(1, 1, 'a'),
      streamMessage(2, 1, 'a'),
      streamMessage(3, 1, 'a'),
      privateMessage(4),
    ]);
    state = applyEvents(state, [
      ev({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [1], all: false }),
      ev({ type: 'delete_message', message_type: 'stream', message_ids: [2], stream_id: 1, topic: 'a' }),
      ev({ type: 'delete_message', message_type: 'private', message_id: 4 }),
      ev({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [3], all: false }),
    ]);
    expect(unreadCounts(state).all).toBe(1);
    state = applyEvents(state, [
      ev({
        type: 'update_message_flags',
        op: 'remove',
        flag: 'read',
        messages: [1, 3],
        all: false,
        // Where each message lives, as the interface family's event says (feature level 121).
        message_details: {
          1: { type: 'stream', stream_id: 1, topic: 'a' },
          3: { type: 'stream', stream_id: 1, topic: 'a' },
        },
      }),
    ]);
    expect(unreadCounts(state)).toEqual({ all: 2, privateAndMentions: 0 });
    state = applyEvents(state, [
      ev({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true }),
    ]);
    expect(unreadCounts(state).all).toBe(0);
  });

  it('follows settings, subscription and topic changes', () => {
    let state = accountStateFromSnapshot(snapshot());
    state = applyEvents(state, [
      ev({ type: 'user_settings', op: 'update', property: 'desktop_icon_count_display', value: 2 }),
      ev({
        type: 'update_global_notifications',
        notification_name: 'enable_desktop_notifications',
        setting: false,
      }),
      ev({ type: 'update_display_settings', setting_name: 'default_language', setting: 'de' }),
      ev({
        type: 'subscription',
        op: 'update',
        stream_id: 1,
        property: 'desktop_notifications',
        value: true,
      }),
      ev({ type: 'subscription', op: 'update', stream_id: 3, property: 'in_home_view', value: true }),
      ev({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 2, name: 'design' }] }),
      ev({ type: 'subscription', op: 'add', subscriptions: [sub(4, 'new', { is_muted: true })] }),
      ev({
        type: 'stream',
        op: 'update',
        stream_id: 1,
        name: 'general',
        property: 'name',
        value: 'town square',
      }),
      ev({ type: 'user_topic', stream_id: 1, topic_name: 'Hush', last_updated: 1, visibility_policy: 1 }),
    ]);
    expect(state.userSettings).toMatchObject({
      desktop_icon_count_display: 2,
      enable_desktop_notifications: false,
      default_language: 'de',
    });
    expect(state.subscriptions.subscribed[1]).toMatchObject({
      name: 'town square',
      desktop_notifications: true,
      wildcard_mentions_notify: null,
      is_muted: false,
    });
    expect(state.subscriptions.subscribed[3]?.is_muted).toBe(false);
    expect(state.subscriptions.subscribed[2]).toBeUndefined();
    expect(state.subscriptions.subscribed[4]?.is_muted).toBe(true);
    expect(topicPolicy(state.userTopics, 1, 'hush')).toBe(1);
    state = applyEvents(state, [
      ev({ type: 'user_topic', stream_id: 1, topic_name: 'hush', last_updated: 2, visibility_policy: 0 }),
      ev({
        type: 'subscription',
        op: 'update',
        stream_id: 1,
        property: 'desktop_notifications',
        value: null,
      }),
      ev({ type: 'subscription', op: 'update', stream_id: 1, property: 'is_muted', value: true }),
    ]);
    expect(Object.keys(state.userTopics)).toHaveLength(0);
    expect(state.subscriptions.subscribed[1]).toMatchObject({ desktop_notifications: null, is_muted: true });
  });

  it('reports no change for a batch that changes nothing it reads', () => {
    const { push } = trackerWithCore();
    push('account.snapshot', { accountId: 'a', generation: 0, state: snapshot() });
    expect(
      push('account.events', {
        accountId: 'a',
        generation: 0,
        events: [ev({ type: 'user_status', user_id: ALICE, status_text: 'away' })],
      }),
    ).toEqual({ notifications: [], countsChanged: false, languageChanged: false });
  });
});

describe('the badge', () => {
  const unread = {
    pms: [{ other_user_id: ALICE, sender_id: ALICE, unread_message_ids: [1] }],
    huddles: [],
    streams: [{ stream_id: 1, topic: 't', unread_message_ids: [2, 3, 4] }],
    mentions: [4],
  };

  it.each([
    [1, 4],
    [2, 2],
    [3, 0],
    // Unknown or missing values: the default, all unread messages.
    [7, 4],
    [undefined, 4],
  ])('desktop_icon_count_display %s counts %i', (mode, count) => {
    expect(
      selectBadgeCount(withSettings({ desktop_icon_count_display: mode }, { unread_msgs: unread })),
    ).toBe(count);
  });

  it('adds up the accounts, each by its own setting', () => {
    expect(
      badgeCount([
        withSettings({ desktop_icon_count_display: 1 }, { unread_msgs: unread }),
        withSettings({ desktop_icon_count_display: 2 }, { unread_msgs: unread }),
        withSettings({ desktop_icon_count_display: 3 }, { unread_msgs: unread }),
      ]),
    ).toBe(6);
    expect(badgeCount([])).toBe(0);
  });

  it('shows at most three characters, and nothing for zero', () => {
    expect([0, -1, 1, 99, 100, 12345].map(badgeText)).toEqual(['', '', '1', '99', '99+', '99+']);
    expect([0, 1, 2].map(trayTooltip)).toEqual([
      'Confab',
      'Confab: 1 unread message',
      'Confab: 2 unread messages',
    ]);
  });
});

describe('shouldNotify', () => {
  const defaults = accountStateFromSnapshot(snapshot());

  it('notifies private messages and direct mentions with the defaults', () => {
    expect(shouldNotify(defaults, privateMessage(1))).toBe(true);
    expect(shouldNotify(defaults, privateMessage(2, [], [ALICE, BOB, ME]))).toBe(true);
    expect(shouldNotify(defaults, streamMessage(3, 1, 't', ['mentioned']))).toBe(true);
    expect(shouldNotify(defaults, streamMessage(4, 1, 't', ['has_alert_word']))).toBe(true);
  });

  it('does not notify plain stream messages while enable_stream_desktop_notifications is off', () => {
    expect(shouldNotify(defaults, streamMessage(1, 1, 't'))).toBe(false);
  });

  it("never notifies read messages or the user's own", () => {
    expect(shouldNotify(defaults, privateMessage(1, ['read']))).toBe(false);
    expect(shouldNotify(defaults, privateMessage(2, [], [ALICE, ME], { sender_id: ME }))).toBe(false);
    const streamOn = withSettings({ enable_stream_desktop_notifications: true });
    expect(shouldNotify(streamOn, streamMessage(3, 1, 't', [], { sender_id: ME }))).toBe(false);
  });

  it('honours enable_desktop_notifications for private messages and mentions', () => {
    const off = withSettings({ enable_desktop_notifications: false });
    expect(shouldNotify(off, privateMessage(1))).toBe(false);
    expect(shouldNotify(off, streamMessage(2, 1, 't', ['mentioned']))).toBe(false);
    expect(shouldNotify(off, streamMessage(3, 1, 't', ['wildcard_mentioned']))).toBe(false);
  });

  it('stream messages: the subscription setting, null inheriting enable_stream_desktop_notifications', () => {
    const on = withSettings({ enable_stream_desktop_notifications: true });
    expect(shouldNotify(on, streamMessage(1, 1, 't'))).toBe(true);
    // Independent of enable_desktop_notifications, which is about private messages and mentions.
    const onButPmOff = withSettings({
      enable_stream_desktop_notifications: true,
      enable_desktop_notifications: false,
    });
    expect(shouldNotify(onButPmOff, streamMessage(2, 1, 't'))).toBe(true);

    const perStream = withSettings(
      { enable_stream_desktop_notifications: false },
      { subscriptions: [sub(1, 'general', { desktop_notifications: true }), sub(2, 'design')] },
    );
    expect(shouldNotify(perStream, streamMessage(3, 1, 't'))).toBe(true);
    expect(shouldNotify(perStream, streamMessage(4, 2, 't'))).toBe(false);

    const optedOut = withSettings(
      { enable_stream_desktop_notifications: true },
      { subscriptions: [sub(1, 'general', { desktop_notifications: false }), sub(2, 'design')] },
    );
    expect(shouldNotify(optedOut, streamMessage(5, 1, 't'))).toBe(false);
    expect(shouldNotify(optedOut, streamMessage(6, 2, 't'))).toBe(true);
    // A stream the user is not subscribed to has no stream notifications.
    expect(shouldNotify(on, streamMessage(7, 9, 't'))).toBe(false);
  });

  it("wildcard mentions follow wildcard_mentions_notify, the stream's overriding the user's", () => {
    expect(shouldNotify(defaults, streamMessage(1, 1, 't', ['wildcard_mentioned']))).toBe(true);
    expect(shouldNotify(defaults, streamMessage(2, 1, 't', ['stream_wildcard_mentioned']))).toBe(true);
    const userOff = withSettings({ wildcard_mentions_notify: false });
    expect(shouldNotify(userOff, streamMessage(3, 1, 't', ['wildcard_mentioned']))).toBe(false);
    const streamOn = withSettings(
      { wildcard_mentions_notify: false },
      { subscriptions: [sub(1, 'general', { wildcard_mentions_notify: true })] },
    );
    expect(shouldNotify(streamOn, streamMessage(4, 1, 't', ['wildcard_mentioned']))).toBe(true);
  });

  it('is silent in muted streams and topics, except for direct mentions', () => {
    const state = withSettings(
      { enable_stream_desktop_notifications: true },
      {
        user_topics: [
          { stream_id: 1, topic_name: 'quiet', last_updated: 1, visibility_policy: 1 },
          { stream_id: 3, topic_name: 'loud', last_updated: 1, visibility_policy: 3 },
        ],
      },
    );
    expect(shouldNotify(state, streamMessage(1, 3, 'noise'))).toBe(false);
    expect(shouldNotify(state, streamMessage(2, 3, 'noise', ['wildcard_mentioned']))).toBe(false);
    expect(shouldNotify(state, streamMessage(3, 3, 'noise', ['mentioned']))).toBe(true);
    expect(shouldNotify(state, streamMessage(4, 1, 'Quiet'))).toBe(false);
    expect(shouldNotify(state, streamMessage(5, 1, 'other'))).toBe(true);
    // A followed topic in a muted stream is heard.
    expect(shouldNotify(state, streamMessage(6, 3, 'loud'))).toBe(true);
  });
});

describe('notificationContent', () => {
  const state = accountStateFromSnapshot(snapshot());

  it('titles stream messages with the stream and topic, the body as plain text', () => {
    expect(notificationContent(state, streamMessage(1, 1, 'lunch', ['mentioned']))).toEqual({
      title: 'Alice Liddell (to general > lunch)',
      body: 'Hello team & friends',
    });
  });

  it('titles private and group messages by the sender', () => {
    expect(notificationContent(state, privateMessage(1))).toEqual({
      title: 'Alice Liddell',
      body: 'Secret plan',
    });
    expect(notificationContent(state, privateMessage(2, [], [ALICE, BOB, ME]))).toEqual({
      title: 'Alice Liddell (to you and 1 other)',
      body: 'Secret plan',
    });
    expect(notificationContent(state, privateMessage(3, [], [ALICE, BOB, 13, ME])).title).toBe(
      'Alice Liddell (to you and 2 others)',
    );
  });

  it('hides private content when pm_content_in_desktop_notifications is off', () => {
    const hidden = withSettings({ pm_content_in_desktop_notifications: false });
    expect(notificationContent(hidden, privateMessage(1))).toEqual({
      title: 'Alice Liddell',
      body: 'New private message from Alice Liddell',
    });
    // It is about private messages: stream mentions keep their text.
    expect(notificationContent(hidden, streamMessage(2, 1, 't', ['mentioned'])).body).toBe(
      'Hello team & friends',
    );
  });

  it('cuts long bodies, and takes Markdown source as it is', () => {
    const long = 'word '.repeat(100);
    const body = notificationContent(state, privateMessage(1, [], [ALICE, ME], { content: long })).body;
    expect(body).toBe(`${'word '.repeat(30).slice(0, 150)}…`);
    expect(
      notificationContent(
        state,
        privateMessage(2, [], [ALICE, ME], { content: '**bold** <b>', content_type: 'text/x-markdown' }),
      ).body,
    ).toBe('**bold** <b>');
  });

  it('falls back to the subscription name when display_recipient is missing', () => {
    expect(
      notificationContent(state, streamMessage(1, 2, 'x', [], { display_recipient: undefined })).title,
    ).toBe('Alice Liddell (to design > x)');
  });
});

describe('htmlToText', () => {
  it.each([
    ['<p>a</p><p>b</p>', 'a b'],
    ['line<br>break', 'line break'],
    ['&lt;script&gt; &quot;x&quot; &#39;y&#39; &#x1F600; &nbsp;z', '<script> "x" \'y\' 😀 z'],
    ['<a href="https://x">link</a> &bogus; &#0;', 'link &bogus; &#0;'],
    ['  <ul><li>one</li><li>two</li></ul>  ', 'one two'],
  ])('%j -> %j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });
});

describe('AttentionTracker', () => {
  const accountState = (ids: string[], active: string | null) => ({
    accounts: ids.map((id) => ({
      id,
      serverUrl: 'http://x',
      email: `${id}@x`,
      userId: ME,
      fullName: null,
      serviceVersion: null,
      featureLevel: null,
    })),
    activeAccountId: active,
  });

  it('follows snapshots and event batches per account, and notifies new messages', () => {
    const { tracker, push } = trackerWithCore();
    expect(push('app.state', accountState(['a', 'b'], 'a'))).toMatchObject({
      languageChanged: true,
    });
    expect(push('account.snapshot', { accountId: 'a', generation: 0, state: snapshot() })).toEqual({
      notifications: [],
      countsChanged: true,
      languageChanged: true,
    });
    push('account.snapshot', { accountId: 'b', generation: 3, state: snapshot() });
    const update = push('account.events', {
      accountId: 'b',
      generation: 3,
      events: [privateMessage(50), streamMessage(51, 1, 't')],
    });
    expect(update).toEqual({
      notifications: [
        {
          accountId: 'b',
          messageId: 50,
          title: 'Alice Liddell',
          body: 'Secret plan',
          narrow: { kind: 'dm', userIds: [ALICE] },
          silent: false,
          sound: 'chime',
        },
      ],
      countsChanged: true,
      languageChanged: false,
    });
    expect(tracker.badgeCount()).toBe(2);
    expect(tracker.defaultLanguage()).toBe('en');
  });

  it('ignores batches of an older generation and accounts it has no snapshot of', () => {
    const { tracker, push } = trackerWithCore();
    push('account.snapshot', { accountId: 'a', generation: 2, state: snapshot() });
    const stale = push('account.events', {
      accountId: 'a',
      generation: 1,
      events: [privateMessage(1)],
    });
    expect(stale).toEqual({ notifications: [], countsChanged: false, languageChanged: false });
    const unknown = push('account.events', {
      accountId: 'zz',
      generation: 2,
      events: [privateMessage(2)],
    });
    expect(unknown.notifications).toEqual([]);
    expect(tracker.badgeCount()).toBe(0);
  });

  it('counts but does not notify for the account the user is looking at', () => {
    const { tracker, push } = trackerWithCore();
    push('account.snapshot', { accountId: 'a', generation: 0, state: snapshot() });
    const update = push(
      'account.events',
      { accountId: 'a', generation: 0, events: [privateMessage(1)] },
      'a',
    );
    expect(update.notifications).toEqual([]);
    expect(tracker.badgeCount()).toBe(1);
  });

  it("drops signed-out accounts from the count, and uses the active account's language", () => {
    const { tracker, push } = trackerWithCore();
    push('account.snapshot', {
      accountId: 'a',
      generation: 0,
      state: snapshot({ unread_msgs: { pms: [], huddles: [], streams: [], mentions: [] } }),
    });
    const de = snapshot();
    (de.user_settings as Record<string, unknown>).default_language = 'de';
    push('account.snapshot', { accountId: 'b', generation: 0, state: de });
    push('account.events', { accountId: 'b', generation: 0, events: [privateMessage(1)] });
    push('app.state', accountState(['a', 'b'], 'b'));
    expect(tracker.defaultLanguage()).toBe('de');
    expect(tracker.badgeCount()).toBe(1);
    expect(push('app.state', accountState(['a'], 'a'))).toEqual({
      notifications: [],
      countsChanged: true,
      languageChanged: true,
    });
    expect(tracker.badgeCount()).toBe(0);
    expect(tracker.defaultLanguage()).toBe('en');
  });

  it('holds back notifications while do not disturb is on, still counting; notifies after it ends', () => {
    const { tracker, push, dnd } = trackerWithCore();
    push('account.snapshot', { accountId: 'a', generation: 0, state: snapshot() });
    dnd.now = 1_000;
    dnd.until = 61_000;
    const held = push('account.events', { accountId: 'a', generation: 0, events: [privateMessage(1)] });
    expect(held).toEqual({ notifications: [], countsChanged: true, languageChanged: false });
    expect(tracker.badgeCount()).toBe(1);
    // A mention in a stream the user notifies for: held back all the same.
    const mention = push('account.events', {
      accountId: 'a',
      generation: 0,
      events: [streamMessage(2, 1, 't', ['mentioned'])],
    });
    expect(mention.notifications).toEqual([]);
    expect(tracker.badgeCount()).toBe(2);

    // Its time passes: the next message notifies again.
    dnd.now = 61_000;
    const after = push('account.events', { accountId: 'a', generation: 0, events: [privateMessage(3)] });
    expect(after.notifications).toEqual([
      {
        accountId: 'a',
        messageId: 3,
        title: 'Alice Liddell',
        body: 'Secret plan',
        narrow: { kind: 'dm', userIds: [ALICE] },
        silent: false,
        sound: 'chime',
      },
    ]);
    expect(tracker.badgeCount()).toBe(3);

    // Turned on again, then off: the same.
    dnd.until = 120_000;
    expect(
      push('account.events', { accountId: 'a', generation: 0, events: [privateMessage(4)] }).notifications,
    ).toEqual([]);
    dnd.until = null;
    expect(
      push('account.events', { accountId: 'a', generation: 0, events: [privateMessage(5)] }).notifications,
    ).toHaveLength(1);
  });
  it('gives each notification its conversation and sound, per enable_sounds and notification_sound', () => {
    const { push } = trackerWithCore();
    const quiet = snapshot();
    Object.assign(quiet.user_settings as Record<string, unknown>, { enable_sounds: false });
    push('account.snapshot', { accountId: 'a', generation: 0, state: quiet });
    const none = snapshot();
    Object.assign(none.user_settings as Record<string, unknown>, { notification_sound: 'none' });
    push('account.snapshot', { accountId: 'b', generation: 0, state: none });
    const ding = snapshot();
    Object.assign(ding.user_settings as Record<string, unknown>, { notification_sound: 'ding' });
    push('account.snapshot', { accountId: 'c', generation: 0, state: ding });
    const mention = () => streamMessage(nextEventId, 2, 'Logo', ['mentioned']);
    const only = (accountId: string) =>
      push('account.events', { accountId, generation: 0, events: [mention()] }).notifications[0];
    expect(only('a')).toMatchObject({
      narrow: { kind: 'topic', streamId: 2, topic: 'Logo' },
      silent: true,
      sound: 'chime',
    });
    expect(only('b')).toMatchObject({ silent: true, sound: null });
    expect(only('c')).toMatchObject({ silent: false, sound: 'ding' });
  });

  it('turns a burst of more than five notifying messages into one summary opening the newest', () => {
    const { push } = trackerWithCore();
    push('account.snapshot', { accountId: 'a', generation: 0, state: snapshot() });
    const five = [1, 2, 3, 4, 5].map((id) => privateMessage(id));
    expect(
      push('account.events', { accountId: 'a', generation: 0, events: five }).notifications,
    ).toHaveLength(5);
    const burst = [
      privateMessage(10),
      streamMessage(11, 1, 'lunch', ['mentioned']),
      streamMessage(12, 1, 'plain'),
      privateMessage(13, [], [ALICE, BOB, ME]),
      streamMessage(14, 2, 'logo', ['mentioned']),
      privateMessage(15),
      streamMessage(16, 1, 'lunch', ['mentioned']),
    ];
    expect(push('account.events', { accountId: 'a', generation: 0, events: burst }).notifications).toEqual([
      {
        accountId: 'a',
        title: '6 new messages',
        body: '#general > lunch, user 11, #design > logo and 1 more conversation',
        messageId: 16,
        narrow: { kind: 'topic', streamId: 1, topic: 'lunch' },
        silent: false,
        sound: 'chime',
      },
    ]);
  });
});
