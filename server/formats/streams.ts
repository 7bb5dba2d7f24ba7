/**
 * The spec's Stream and Subscription objects, and the lists of them the user may see
 * (register's subscriptions and streams, GET /streams): one builder for responses, register
 * and events. Who may see a stream is decided in server/permissions.ts.
 */
import type { Db } from '../db';
import {
  firstMessageId,
  firstMessageIds,
  listDefaultStreams,
  listStreams,
  type StreamRow,
  type SubscriptionRow,
  streamMessageCount,
  streamMessageCounts,
  subscribersByStream,
  subscriptionsOf,
} from '../db/streams';
import { readUserSettings, type UserRow } from '../db/users';
import { canSeeStream, canSeeSubscribers, isGuest } from '../permissions';

/** Subscription notification properties and the user settings a null value inherits. */
export const NOTIFICATION_DEFAULTS = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  email_notifications: 'enable_stream_email_notifications',
  push_notifications: 'enable_stream_push_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
} as const;
export type NotificationProperty = keyof typeof NOTIFICATION_DEFAULTS;

/**
 * What a null notification property means for this user: clients without the
 * notification_settings_null capability get these values instead of null.
 */
export function notificationDefaults(user: UserRow): Record<NotificationProperty, boolean> {
  const settings = readUserSettings(user) as unknown as Record<string, unknown>;
  const result = {} as Record<NotificationProperty, boolean>;
  for (const [property, setting] of Object.entries(NOTIFICATION_DEFAULTS)) {
    result[property as NotificationProperty] = settings[setting] === true;
  }
  return result;
}

const nullableBool = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** What a Stream object tells beyond its row: figures from its messages. */
export interface StreamFigures {
  firstMessageId: number | null;
  /** The spec's stream_weekly_traffic (weeklyTraffic below). */
  weeklyTraffic: number | null;
}

const DAY_SECONDS = 86_400;
/** The family counts the last 4 weeks of its daily figures... */
const TRAFFIC_WINDOW_DAYS = 28;
/** ...and says nothing (null) for a stream younger than a week. */
const TRAFFIC_MIN_AGE_DAYS = 7;

/**
 * The span the traffic is counted over, in epoch seconds: the 28 whole UTC days before today.
 * The family's figure comes from daily analytics, and no event carries a change of it, so
 * today's messages are left out: the figure a client got at register stays true all day.
 */
export function trafficWindow(nowMs = Date.now()): { from: number; to: number } {
  const to = Math.floor(nowMs / 1000 / DAY_SECONDS) * DAY_SECONDS;
  return { from: to - TRAFFIC_WINDOW_DAYS * DAY_SECONDS, to };
}

/** 1234 → 1200: the family rounds its estimate to two significant digits. */
function twoSignificantDigits(n: number): number {
  if (n < 100) return n;
  const unit = 10 ** (String(n).length - 2);
  return Math.round(n / unit) * unit;
}

/**
 * stream_weekly_traffic as the interface family computes it: null for a stream less than a
 * week old (by the window's end), else the messages of the window per week (over the stream's
 * age when it is younger than the window), rounded down, at least 1 when there were any, to
 * two significant digits.
 */
export function weeklyTraffic(dateCreated: number, messages: number, windowEnd: number): number | null {
  const ageDays = Math.floor((windowEnd - dateCreated) / DAY_SECONDS);
  if (ageDays < TRAFFIC_MIN_AGE_DAYS) return null;
  const days = Math.min(ageDays, TRAFFIC_WINDOW_DAYS);
  const weekly = Math.floor((messages * 7) / days);
  return twoSignificantDigits(weekly === 0 && messages > 0 ? 1 : weekly);
}

/** One stream's figures (for events about one stream). */
export function streamFigures(db: Db, stream: StreamRow): StreamFigures {
  const { from, to } = trafficWindow();
  return {
    firstMessageId: firstMessageId(db, stream.id),
    weeklyTraffic: weeklyTraffic(stream.date_created, streamMessageCount(db, stream.id, from, to), to),
  };
}

/** Every stream's figures of a realm, from one grouped query each (for lists of streams). */
export function realmStreamFigures(db: Db, realmId: number): (stream: StreamRow) => StreamFigures {
  const { from, to } = trafficWindow();
  const firsts = firstMessageIds(db, realmId);
  const counts = streamMessageCounts(db, realmId, from, to);
  return (stream) => ({
    firstMessageId: firsts.get(stream.id) ?? null,
    weeklyTraffic: weeklyTraffic(stream.date_created, counts.get(stream.id) ?? 0, to),
  });
}

export function formatStream(stream: StreamRow, figures: StreamFigures): Record<string, unknown> {
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    invite_only: stream.invite_only === 1,
    is_web_public: stream.is_web_public === 1,
    stream_post_policy: stream.stream_post_policy,
    is_announcement_only: stream.stream_post_policy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers === 1,
    first_message_id: figures.firstMessageId,
    stream_weekly_traffic: figures.weeklyTraffic,
    can_remove_subscribers_group_id: stream.can_remove_subscribers_group_id,
  };
}

export function formatSubscription(
  stream: StreamRow,
  sub: SubscriptionRow,
  figures: StreamFigures,
  subscribers: number[] | undefined,
  /** Given for clients without notification_settings_null: nulls become these values. */
  defaults: Record<NotificationProperty, boolean> | null = null,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ...formatStream(stream, figures),
    color: sub.color,
    is_muted: sub.is_muted === 1,
    in_home_view: sub.is_muted === 0,
    pin_to_top: sub.pin_to_top === 1,
    desktop_notifications: nullableBool(sub.desktop_notifications),
    email_notifications: nullableBool(sub.email_notifications),
    push_notifications: nullableBool(sub.push_notifications),
    audible_notifications: nullableBool(sub.audible_notifications),
    wildcard_mentions_notify: nullableBool(sub.wildcard_mentions_notify),
    // No email gateway: streams have no incoming address.
    email_address: '',
  };
  if (subscribers) result.subscribers = subscribers;
  if (defaults) {
    for (const property of Object.keys(NOTIFICATION_DEFAULTS) as NotificationProperty[]) {
      if (result[property] === null) result[property] = defaults[property];
    }
  }
  return result;
}

/** A live stream of the organization with its figures: what its Stream object is built from. */
export interface StreamWithFigures {
  stream: StreamRow;
  figures: StreamFigures;
}

/** Every live stream of the organization with its figures, by id. */
export function realmStreams(db: Db, realmId: number): StreamWithFigures[] {
  const figuresOf = realmStreamFigures(db, realmId);
  return listStreams(db, realmId).map((stream) => ({ stream, figures: figuresOf(stream) }));
}

/**
 * Where each stream goes in register's subscriptions, unsubscribed and never_subscribed for
 * this user (`subscriptions` are the user's rows, active or not), with whether the user may
 * see the subscribers of a stream they left.
 */
export function placeStreams<S extends StreamWithFigures>(
  user: UserRow,
  streams: readonly S[],
  subscriptions: readonly SubscriptionRow[],
) {
  const subs = new Map(subscriptions.map((s) => [s.stream_id, s]));
  const subscribed: { entry: S; sub: SubscriptionRow }[] = [];
  const unsubscribed: { entry: S; sub: SubscriptionRow; subscribersVisible: boolean }[] = [];
  const neverSubscribed: S[] = [];
  for (const entry of streams) {
    const { stream } = entry;
    const sub = subs.get(stream.id);
    if (sub?.active === 1) {
      subscribed.push({ entry, sub });
    } else if (sub) {
      // A former subscription of a stream the user can no longer see is gone with the
      // stream (a `stream` delete event told the client).
      if (!canSeeStream(user, stream, false)) continue;
      // Former subscribers of a private stream no longer see its members.
      unsubscribed.push({ entry, sub, subscribersVisible: canSeeSubscribers(user, stream, false) });
    } else if (canSeeStream(user, stream, false)) {
      neverSubscribed.push(entry);
    }
  }
  return { subscribed, unsubscribed, neverSubscribed };
}

/**
 * register's subscriptions, unsubscribed and never_subscribed. `streams` and `subscriptions`
 * default to the organization's (realmStreams) and the user's rows; register, which also
 * lists the streams, reads them once for both.
 */
export function subscriptionState(
  db: Db,
  user: UserRow,
  includeSubscribers: boolean,
  notificationSettingsNull = true,
  streams: readonly StreamWithFigures[] = realmStreams(db, user.realm_id),
  subscriptions: readonly SubscriptionRow[] = subscriptionsOf(db, user.id),
) {
  const places = placeStreams(user, streams, subscriptions);
  return formatPlaces(db, user, places, includeSubscribers, notificationSettingsNull);
}

/** The three lists of subscriptionState, from where the streams go (placeStreams). */
export function formatPlaces(
  db: Db,
  user: UserRow,
  places: ReturnType<typeof placeStreams>,
  includeSubscribers: boolean,
  notificationSettingsNull: boolean,
) {
  const defaults = notificationSettingsNull ? null : notificationDefaults(user);
  const subscribers = includeSubscribers ? subscribersByStream(db, user.realm_id) : null;
  const membersOf = (stream: StreamRow) => (subscribers ? (subscribers.get(stream.id) ?? []) : undefined);
  return {
    subscriptions: places.subscribed.map(({ entry, sub }) =>
      formatSubscription(entry.stream, sub, entry.figures, membersOf(entry.stream), defaults),
    ),
    unsubscribed: places.unsubscribed.map(({ entry, sub, subscribersVisible }) =>
      formatSubscription(
        entry.stream,
        sub,
        entry.figures,
        subscribersVisible ? membersOf(entry.stream) : undefined,
        defaults,
      ),
    ),
    // Without subscribers, the Stream object as it is (register writes it from its kept JSON).
    never_subscribed: places.neverSubscribed.map((entry) => {
      const never = formatStream(entry.stream, entry.figures);
      const members = membersOf(entry.stream);
      if (members) never.subscribers = members;
      return never;
    }),
  };
}

/** register's streams: every stream the user may see (`subscriptions`: the user's rows). */
export function visibleStreams<S extends StreamWithFigures>(
  user: UserRow,
  streams: readonly S[],
  subscriptions: readonly SubscriptionRow[],
): S[] {
  const subscribed = new Set(subscriptions.filter((s) => s.active === 1).map((s) => s.stream_id));
  return streams.filter(({ stream }) => canSeeStream(user, stream, subscribed.has(stream.id)));
}

export interface StreamQuery {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
}

/** GET /streams: the union of the sets the flags name, sorted by name; access checked by the caller. */
export function queryStreams(db: Db, user: UserRow, q: StreamQuery): Record<string, unknown>[] {
  const activeSubs = (userId: number) =>
    new Set(
      subscriptionsOf(db, userId)
        .filter((s) => s.active === 1)
        .map((s) => s.stream_id),
    );
  const mine = activeSubs(user.id);
  const owner =
    q.includeOwnerSubscribed && user.is_bot === 1 && user.bot_owner_id !== null ? user.bot_owner_id : null;
  const owners = owner !== null ? activeSubs(owner) : new Set<number>();
  const figuresOf = realmStreamFigures(db, user.realm_id);
  return listStreams(db, user.realm_id)
    .filter(
      (s) =>
        q.includeAllActive ||
        // Guests see public streams only through a subscription (the interface family's rule).
        (q.includePublic && s.invite_only === 0 && !isGuest(user)) ||
        (q.includeWebPublic && s.is_web_public === 1) ||
        (q.includeSubscribed && mine.has(s.id)) ||
        (q.includeDefault && s.is_default === 1 && canSeeStream(user, s, mine.has(s.id))) ||
        // A bot sees what its owner is subscribed to.
        owners.has(s.id),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((s) => formatStream(s, figuresOf(s)));
}

/**
 * The organization's default streams as Stream objects, sorted by name: GET /default_streams,
 * register's realm_default_streams and `default_streams` events.
 */
export function defaultStreamObjects(db: Db, realmId: number): Record<string, unknown>[] {
  const figuresOf = realmStreamFigures(db, realmId);
  return listDefaultStreams(db, realmId).map((s) => formatStream(s, figuresOf(s)));
}
