/**
 * The spec's Stream and Subscription objects, and the lists of them the user may see
 * (register's subscriptions and streams, GET /streams): one builder for responses, register
 * and events. Who may see a stream is decided in server/permissions.ts.
 */
import type { Db } from '../db';
import {
  firstMessageIds,
  listDefaultStreams,
  listStreams,
  type StreamRow,
  type SubscriptionRow,
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

export function formatStream(stream: StreamRow, firstMessageId: number | null): Record<string, unknown> {
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
    first_message_id: firstMessageId,
    // Traffic statistics are not kept yet: "too new to tell" is the spec's null.
    stream_weekly_traffic: null,
    can_remove_subscribers_group_id: stream.can_remove_subscribers_group_id,
  };
}

export function formatSubscription(
  stream: StreamRow,
  sub: SubscriptionRow,
  firstMessageId: number | null,
  subscribers: number[] | undefined,
  /** Given for clients without notification_settings_null: nulls become these values. */
  defaults: Record<NotificationProperty, boolean> | null = null,
): Record<string, unknown> {
  const result: Record<string, unknown> = {
    ...formatStream(stream, firstMessageId),
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

/** register's subscriptions, unsubscribed and never_subscribed. */
export function subscriptionState(
  db: Db,
  user: UserRow,
  includeSubscribers: boolean,
  notificationSettingsNull = true,
) {
  const defaults = notificationSettingsNull ? null : notificationDefaults(user);
  const streams = listStreams(db, user.realm_id);
  const subs = new Map(subscriptionsOf(db, user.id).map((s) => [s.stream_id, s]));
  const firsts = firstMessageIds(db, user.realm_id);
  const subscribers = includeSubscribers ? subscribersByStream(db, user.realm_id) : null;
  const subscriptions: Record<string, unknown>[] = [];
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: Record<string, unknown>[] = [];
  for (const stream of streams) {
    const sub = subs.get(stream.id);
    const first = firsts.get(stream.id) ?? null;
    const members = subscribers ? (subscribers.get(stream.id) ?? []) : undefined;
    if (sub?.active === 1) {
      subscriptions.push(formatSubscription(stream, sub, first, members, defaults));
    } else if (sub) {
      // A former subscription of a stream the user can no longer see is gone with the
      // stream (a `stream` delete event told the client).
      if (!canSeeStream(user, stream, false)) continue;
      // Former subscribers of a private stream no longer see its members.
      const visible = canSeeSubscribers(user, stream, false);
      unsubscribed.push(formatSubscription(stream, sub, first, visible ? members : undefined, defaults));
    } else if (canSeeStream(user, stream, false)) {
      const never = formatStream(stream, first);
      if (members) never.subscribers = members;
      neverSubscribed.push(never);
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** register's streams: every stream the user may see. */
export function visibleStreams(db: Db, user: UserRow): Record<string, unknown>[] {
  const subscribed = new Set(
    subscriptionsOf(db, user.id)
      .filter((s) => s.active === 1)
      .map((s) => s.stream_id),
  );
  const firsts = firstMessageIds(db, user.realm_id);
  return listStreams(db, user.realm_id)
    .filter((s) => canSeeStream(user, s, subscribed.has(s.id)))
    .map((s) => formatStream(s, firsts.get(s.id) ?? null));
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
  const firsts = firstMessageIds(db, user.realm_id);
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
    .map((s) => formatStream(s, firsts.get(s.id) ?? null));
}

/**
 * The organization's default streams as Stream objects, sorted by name: GET /default_streams,
 * register's realm_default_streams and `default_streams` events.
 */
export function defaultStreamObjects(db: Db, realmId: number): Record<string, unknown>[] {
  const firsts = firstMessageIds(db, realmId);
  return listDefaultStreams(db, realmId).map((s) => formatStream(s, firsts.get(s.id) ?? null));
}
