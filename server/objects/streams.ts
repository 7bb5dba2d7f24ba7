/** Stream and subscription objects of the spec, and who may see which stream. */
import type { Db } from '../db';
import {
  firstMessageIds,
  listStreams,
  type StreamRow,
  type SubscriptionRow,
  subscribersByStream,
  subscriptionsOf,
} from '../db/streams';
import { isAdmin, type UserRow } from '../db/users';

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
  return result;
}

/** Whether the user may see that the stream exists (and its metadata). */
export function canSeeStream(user: UserRow, stream: StreamRow, subscribed: boolean): boolean {
  if (subscribed || stream.is_web_public === 1) return true;
  if (user.role === 600) return false;
  return stream.invite_only === 0 || isAdmin(user);
}

/** register's subscriptions, unsubscribed and never_subscribed. */
export function subscriptionState(db: Db, user: UserRow, includeSubscribers: boolean) {
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
      subscriptions.push(formatSubscription(stream, sub, first, members));
    } else if (sub) {
      // Former subscribers of a private stream no longer see its members.
      const visible = stream.invite_only === 0 || isAdmin(user);
      unsubscribed.push(formatSubscription(stream, sub, first, visible ? members : undefined));
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
