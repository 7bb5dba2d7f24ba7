/**
 * The people list's data on top of the stores' hooks: every active human of the organization
 * with their presence, recomputed when users or presence change and as time passes (someone
 * going idle or offline sends no event).
 */
import { useEffect, useMemo, useState } from 'react';
import { presenceOf } from '../../../../shared/domain';
import type { User } from '../../../../shared/protocol';
import { useAccountState } from '../../stores/hooks';
import type { PersonEntry } from './peopleModel';

/** How often presence is judged again. */
const TICK_MS = 15_000;

/** Epoch milliseconds, refreshed every `intervalMs` while mounted. */
export function useNow(intervalMs = TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/** Everyone the list shows (active humans), with their presence now. */
export function usePeopleEntries(): PersonEntry[] {
  const now = useNow();
  const users = useAccountState((a) => a.users.active);
  const presence = useAccountState((a) => a.presence);
  const ownId = useAccountState((a) => a.userId);
  const ownPresenceEnabled = useAccountState((a) => a.userSettings.presence_enabled);
  return useMemo(() => {
    const state = {
      users: { active: users },
      presence,
      userId: ownId,
      userSettings: { presence_enabled: ownPresenceEnabled },
    } as unknown as Parameters<typeof presenceOf>[0];
    return (Object.values(users) as User[])
      .filter((u) => !u.is_bot)
      .map((u) => ({
        userId: u.user_id,
        name: u.full_name,
        email: u.delivery_email ?? u.email,
        presence: presenceOf(state, u.user_id, now),
      }));
  }, [users, presence, ownId, ownPresenceEnabled, now]);
}

/** When the user was last seen (Unix seconds), for "Last active …". */
export function useLastSeen(userId: number): number | undefined {
  return useAccountState((a) => {
    const p = a.presence.users[userId];
    if (!p) return undefined;
    return Math.max(p.active_timestamp ?? 0, p.idle_timestamp ?? 0) || undefined;
  });
}
