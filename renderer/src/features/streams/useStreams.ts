/**
 * The streams screens' data hooks on top of the account store and the api queries: every
 * stream the user can see with its subscription state, and the facts the privacy and
 * subscriber rules read from the organization's settings.
 */
import { useCallback, useMemo } from 'react';
import { topicPolicy } from '../../../../shared/domain';
import type { Subscription, User } from '../../../../shared/protocol';
import {
  useAccountState,
  useAccountStateShallow,
  useOwnRole,
  useOwnUserId,
  useRealm,
} from '../../stores/hooks';
import {
  addSubscribersReason,
  POLICY,
  type PrivacyContext,
  removeSubscriberReason,
  type StreamListItem,
} from './streamsModel';

function asItem(
  s: Record<string, unknown> & { stream_id: number; name: string },
  subscribed: boolean,
): StreamListItem {
  return {
    stream_id: s.stream_id,
    name: s.name,
    description: typeof s.description === 'string' ? s.description : '',
    rendered_description: typeof s.rendered_description === 'string' ? s.rendered_description : '',
    invite_only: s.invite_only === true,
    is_web_public: s.is_web_public === true,
    color: typeof s.color === 'string' ? s.color : undefined,
    subscribed,
    subscriberCount: Array.isArray(s.subscribers) ? s.subscribers.length : null,
    weeklyTraffic: typeof s.stream_weekly_traffic === 'number' ? s.stream_weekly_traffic : null,
  };
}

/** Every stream the user can see: subscribed, left, and never joined. */
export function useStreamList(): StreamListItem[] {
  // Stable object references (compared one by one), turned into list items once they change.
  const subscribed = useAccountStateShallow(
    (a) => Object.values(a.subscriptions.subscribed) as Subscription[],
  );
  const others = useAccountStateShallow((a) => [
    ...Object.values(a.subscriptions.unsubscribed),
    ...Object.values(a.subscriptions.neverSubscribed),
    ...Object.values(a.streams),
  ]);
  return useMemo(() => {
    const seen = new Set<number>();
    const items: StreamListItem[] = [];
    for (const s of subscribed) {
      seen.add(s.stream_id);
      items.push(asItem(s as unknown as Subscription & Record<string, unknown>, true));
    }
    for (const s of others) {
      if (seen.has(s.stream_id)) continue;
      seen.add(s.stream_id);
      items.push(asItem(s, false));
    }
    return items;
  }, [subscribed, others]);
}

/** The organization's active people (no bots), by name. */
export function usePeople(): User[] {
  const users = useAccountStateShallow((a) => Object.values(a.users.active) as User[]);
  return useMemo(
    () => users.filter((u) => !u.is_bot).sort((x, y) => x.full_name.localeCompare(y.full_name)),
    [users],
  );
}

/** One stream's object, subscribed or not. */
export function useStreamItem(streamId: number): Record<string, unknown> | undefined {
  return useAccountState(
    (a) =>
      (a.subscriptions.subscribed[streamId] as unknown as Record<string, unknown> | undefined) ??
      a.subscriptions.unsubscribed[streamId] ??
      a.subscriptions.neverSubscribed[streamId] ??
      a.streams[streamId],
  );
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);

/** The organization facts that decide which privacy a stream may have. */
export function usePrivacyContext(): PrivacyContext {
  const role = useOwnRole();
  const spectator = useRealm('enable_spectator_access');
  const webPublic = useRealm('create_web_public_stream_policy');
  const pub = useRealm('create_public_stream_policy');
  const priv = useRealm('create_private_stream_policy');
  return {
    role,
    spectatorAccess: spectator === true,
    webPublicPolicy: num(webPublic, POLICY.admins),
    publicPolicy: num(pub, POLICY.members),
    privatePolicy: num(priv, POLICY.members),
  };
}

/** A topic's visibility policy (0 inherit, 1 muted, 2 unmuted, 3 followed). */
export function useTopicPolicy(streamId: number, topic: string): number {
  return useAccountState((a) => topicPolicy(a.userTopics, streamId, topic));
}

/** The facts the subscriber rules read, and the rules' answers for one stream. */
export interface SubscriberRules {
  /** Why the user may not add people (null: they may). */
  addReason: string | null;
  /** Why the user may not take this person off the stream (null: they may). */
  removeReason: (user: { user_id: number; bot_owner_id?: number | null }) => string | null;
}

/**
 * Who may add and remove the stream's subscribers, from the organization's policies in the
 * store (invite_to_stream_policy, the stream's can_remove_subscribers_group_id): live, as
 * realm and group events change them.
 */
export function useSubscriberRules(stream: Record<string, unknown>): SubscriberRules {
  const role = useOwnRole();
  const userId = useOwnUserId();
  const invitePolicy = num(useRealm('invite_to_stream_policy'), POLICY.members);
  const groupId =
    typeof stream.can_remove_subscribers_group_id === 'number' ? stream.can_remove_subscribers_group_id : -1;
  const group = useAccountState((a) => a.userGroups[groupId]);
  const subscribed = useAccountState(
    (a) => a.subscriptions.subscribed[Number(stream.stream_id)] !== undefined,
  );
  const addReason = addSubscribersReason(role, invitePolicy, {
    invite_only: stream.invite_only === true,
    is_web_public: stream.is_web_public === true,
    subscribed,
  });
  const removeReason = useCallback(
    (user: { user_id: number; bot_owner_id?: number | null }) =>
      removeSubscriberReason({ role, userId }, user, group),
    [role, userId, group],
  );
  return { addReason, removeReason };
}

/** The server's message of a failed write. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
