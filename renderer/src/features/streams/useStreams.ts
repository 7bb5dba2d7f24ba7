/**
 * The streams screens' data hooks on top of the account store and the api queries: every
 * stream the user can see with its subscription state, the facts the privacy rules read, and
 * long writes that the server answers `partially_completed` until they are done.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { topicPolicy } from '../../../../shared/domain';
import type { Subscription, User } from '../../../../shared/protocol';
import { type ApiParams, isPartiallyCompleted, useApiMutation } from '../../queries/api';
import { useAccountState, useAccountStateShallow, useOwnRole, useRealm } from '../../stores/hooks';
import { POLICY, type PrivacyContext, repeatUntilDone, type StreamListItem } from './streamsModel';

function asItem(
  s: Record<string, unknown> & { stream_id: number; name: string },
  subscribed: boolean,
): StreamListItem {
  return {
    stream_id: s.stream_id,
    name: s.name,
    description: typeof s.description === 'string' ? s.description : '',
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

export interface RepeatedWrite {
  run: (path: string, params?: ApiParams) => Promise<boolean>;
  running: boolean;
  rounds: number;
  error: string | null;
  reset: () => void;
}

/**
 * A POST the server may answer `partially_completed` (its time budget ran out after progress):
 * sent again until it answers done. `run` resolves true when done, false on an error (shown).
 */
export function useRepeatedWrite(): RepeatedWrite {
  const mutation = useApiMutation();
  const [running, setRunning] = useState(false);
  const [rounds, setRounds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  const run = useCallback(
    async (path: string, params?: ApiParams) => {
      if (busy.current) return false;
      busy.current = true;
      setRunning(true);
      setError(null);
      setRounds(0);
      try {
        await repeatUntilDone(
          () => mutation.mutateAsync({ method: 'POST', path, params }),
          isPartiallyCompleted,
          setRounds,
        );
        return true;
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        return false;
      } finally {
        busy.current = false;
        setRunning(false);
      }
    },
    [mutation.mutateAsync],
  );
  const reset = useCallback(() => setError(null), []);
  return { run, running, rounds, error, reset };
}

/** The server's message of a failed write. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
