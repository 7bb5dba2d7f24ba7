/**
 * The subscriptions substore: the streams the user is subscribed to (with their personal
 * properties), those they left (`unsubscribed`) and those they never joined
 * (`never_subscribed`). Stream events change these lists too, so this slice has a handler for
 * them as well.
 */
import type { EventOf, Subscription } from '../protocol';
import { type ById, byId, mapEntries, removeIds, withEntry, withoutEntries } from './records';
import { type StreamEvent, type StreamInfo, updateStreamObject } from './streams';

export interface SubscriptionsState {
  subscribed: ById<Subscription>;
  unsubscribed: ById<StreamInfo>;
  neverSubscribed: ById<StreamInfo>;
  /**
   * The snapshot carried subscriber lists (register with include_subscribers). Events always
   * carry them; without this we would keep lists a fresh snapshot does not have.
   */
  withSubscribers: boolean;
}

export type SubscriptionEvent = EventOf<'subscription'>;

export interface SubscriptionsSnapshot {
  subscriptions?: readonly Subscription[];
  unsubscribed?: readonly StreamInfo[];
  never_subscribed?: readonly StreamInfo[];
}

export function subscriptionsFromSnapshot(snapshot: SubscriptionsSnapshot): SubscriptionsState {
  const lists: readonly (readonly StreamInfo[] | undefined)[] = [
    snapshot.subscriptions,
    snapshot.unsubscribed,
    snapshot.never_subscribed,
  ];
  return {
    subscribed: byId(snapshot.subscriptions, (s) => s.stream_id),
    unsubscribed: byId(snapshot.unsubscribed, (s) => s.stream_id),
    neverSubscribed: byId(snapshot.never_subscribed, (s) => s.stream_id),
    withSubscribers: lists.some((list) => list?.some((s) => Array.isArray(s.subscribers)) ?? false),
  };
}

/** Whose state this is: the rules for leaving a private stream depend on it. */
export interface Viewer {
  userId: number | null;
  isAdmin: boolean;
}

/** The value of a subscription property update, with the legacy inverse kept in step. */
function updateProperty(sub: Subscription, property: string, value: unknown): Subscription {
  const next: Record<string, unknown> = { ...sub, [property]: value };
  if (property === 'is_muted') next.in_home_view = value !== true;
  if (property === 'in_home_view') next.is_muted = value !== true;
  return next as Subscription;
}

function subscribersOf(stream: StreamInfo): readonly number[] | null {
  return Array.isArray(stream.subscribers) ? (stream.subscribers as number[]) : null;
}

function withoutSubscribers<T extends StreamInfo>(stream: T): T {
  if (!('subscribers' in stream)) return stream;
  const { subscribers: _dropped, ...rest } = stream;
  return rest as T;
}

function peerChange<T extends StreamInfo>(
  list: ById<T>,
  streamIds: ReadonlySet<number> | 'all',
  change: (subscribers: readonly number[]) => readonly number[],
): ById<T> {
  return mapEntries(list, (stream, id) => {
    const subscribers = subscribersOf(stream);
    if ((streamIds !== 'all' && !streamIds.has(id)) || !subscribers) return stream;
    const next = change(subscribers);
    return next === subscribers ? stream : { ...stream, subscribers: next };
  });
}

/** Removes users from every subscriber list (a deactivated user leaves them all). */
export function dropSubscribers(state: SubscriptionsState, userIds: readonly number[]): SubscriptionsState {
  const drop = new Set(userIds);
  return changeLists(state, (list) => peerChange(list, 'all', (s) => removeIds(s, drop)));
}

function changeLists(
  state: SubscriptionsState,
  change: <T extends StreamInfo>(list: ById<T>) => ById<T>,
): SubscriptionsState {
  const subscribed = change(state.subscribed);
  const unsubscribed = change(state.unsubscribed);
  const neverSubscribed = change(state.neverSubscribed);
  if (
    subscribed === state.subscribed &&
    unsubscribed === state.unsubscribed &&
    neverSubscribed === state.neverSubscribed
  ) {
    return state;
  }
  return { ...state, subscribed, unsubscribed, neverSubscribed };
}

export function handleSubscriptionEvent(
  state: SubscriptionsState,
  event: SubscriptionEvent,
  viewer: Viewer,
): SubscriptionsState {
  switch (event.op) {
    case 'add': {
      const ids = event.subscriptions.map((s) => s.stream_id);
      let subscribed = state.subscribed;
      for (const sub of event.subscriptions) {
        subscribed = withEntry(
          subscribed,
          sub.stream_id,
          state.withSubscribers ? sub : withoutSubscribers(sub),
        );
      }
      return {
        ...state,
        subscribed,
        unsubscribed: withoutEntries(state.unsubscribed, ids),
        neverSubscribed: withoutEntries(state.neverSubscribed, ids),
      };
    }
    case 'remove': {
      const ids = event.subscriptions.map((s) => s.stream_id);
      let unsubscribed = state.unsubscribed;
      for (const id of ids) {
        const sub = state.subscribed[id];
        if (!sub) continue;
        let left: StreamInfo = sub;
        const subscribers = subscribersOf(sub);
        if (subscribers) {
          // A former subscriber of a private stream no longer sees who is in it.
          left =
            sub.invite_only && !viewer.isAdmin
              ? withoutSubscribers(sub)
              : { ...sub, subscribers: subscribers.filter((u) => u !== viewer.userId) };
        }
        unsubscribed = withEntry(unsubscribed, id, left);
      }
      return { ...state, subscribed: withoutEntries(state.subscribed, ids), unsubscribed };
    }
    case 'update': {
      const sub = state.subscribed[event.stream_id];
      if (!sub) return state;
      return {
        ...state,
        subscribed: withEntry(
          state.subscribed,
          event.stream_id,
          updateProperty(sub, event.property, event.value),
        ),
      };
    }
    case 'peer_add':
    case 'peer_remove': {
      const streamIds = new Set(event.stream_ids);
      const users = event.user_ids;
      const drop = new Set(users);
      return changeLists(state, (list) =>
        peerChange(list, streamIds, (current) =>
          event.op === 'peer_add'
            ? users.every((u) => current.includes(u))
              ? current
              : [...current, ...users.filter((u) => !current.includes(u))]
            : removeIds(current, drop),
        ),
      );
    }
  }
}

/** Stream events as they touch the user's three lists. */
export function handleStreamEventInSubscriptions(
  state: SubscriptionsState,
  event: StreamEvent,
): SubscriptionsState {
  switch (event.op) {
    case 'create': {
      let neverSubscribed = state.neverSubscribed;
      for (const stream of event.streams) {
        if (Object.hasOwn(state.subscribed, stream.stream_id)) continue;
        const entry = state.withSubscribers
          ? { ...stream, subscribers: subscribersOf(stream) ?? [] }
          : withoutSubscribers(stream);
        neverSubscribed = withEntry(neverSubscribed, stream.stream_id, entry);
      }
      return neverSubscribed === state.neverSubscribed ? state : { ...state, neverSubscribed };
    }
    case 'delete': {
      const ids = event.streams.map((s) => s.stream_id);
      return changeLists(state, (list) => withoutEntries(list, ids));
    }
    case 'update':
      return changeLists(state, (list) =>
        mapEntries(list, (stream, id) =>
          id === event.stream_id ? updateStreamObject(stream, event) : stream,
        ),
      );
  }
}
