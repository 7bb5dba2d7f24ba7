/**
 * The recent messages of the account in context, grouped (recent.ts): fetched once per visit
 * (the main process answers from its cache when the server is out of reach), shown at once
 * from the last visit meanwhile, and kept live by the account's event batches. Events that
 * arrive while the fetch runs wait and are applied to its answer, so none is lost.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ServerEvent } from '../../../../shared/protocol';
import { call } from '../../bridge';
import {
  useAccountId,
  useAccountState,
  useOnEventBatches,
  useRecentPrivateConversations,
} from '../../stores/hooks';
import {
  addMessages,
  applyRecentEvents,
  emptyRecent,
  groupConversations,
  type RecentRow,
  type RecentState,
  recentRows,
} from './recent';

/** How many of the newest messages the table is built from. */
export const RECENT_FETCH = 400;

/** The last state per account: shown while a new visit fetches. */
const lastKnown = new Map<string, RecentState>();

export interface RecentData {
  rows: RecentRow[];
  /** True until the first answer (and nothing known from before). */
  loading: boolean;
  error: string | null;
  /** The answer came from the main process's saved copy. */
  fromCache: boolean;
  retry: () => void;
}

export function useRecent(): RecentData {
  const accountId = useAccountId();
  const ownUserId = useAccountState((a) => a.userId) ?? 0;
  const onEventBatches = useOnEventBatches();
  const [state, setState] = useState<RecentState | null>(() => lastKnown.get(accountId) ?? null);
  const [error, setError] = useState<string | null>(null);
  const [fromCache, setFromCache] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    let cancelled = false;
    let waiting: ServerEvent[] | null = [];
    const keep = (next: RecentState) => {
      lastKnown.set(accountId, next);
      return next;
    };
    const off = onEventBatches((batch) => {
      if (batch.accountId !== accountId) return;
      if (waiting) waiting.push(...batch.events);
      else setState((s) => keep(applyRecentEvents(s ?? emptyRecent(), batch.events, ownUserId)));
    });
    call('messages.fetch', {
      accountId,
      narrow: { kind: 'all' },
      anchor: 'newest',
      numBefore: RECENT_FETCH,
      numAfter: 0,
    }).then(
      (page) => {
        if (cancelled) return;
        const fetched = addMessages(emptyRecent(), page.messages, ownUserId);
        const next = applyRecentEvents(fetched, waiting ?? [], ownUserId);
        waiting = null;
        setState(keep(next));
        setFromCache(page.fromCache);
        setError(null);
      },
      (e: unknown) => {
        if (cancelled) return;
        const missed = waiting ?? [];
        waiting = null;
        setState((s) => keep(applyRecentEvents(s ?? emptyRecent(), missed, ownUserId)));
        setError(e instanceof Error ? e.message : String(e));
      },
    );
    return () => {
      cancelled = true;
      off();
    };
  }, [accountId, ownUserId, onEventBatches, attempt]);

  const privateConversations = useRecentPrivateConversations();
  const userId = useAccountState((a) => a.userId);
  const users = useAccountState((a) => a.users);
  const subscriptions = useAccountState((a) => a.subscriptions);
  const userTopics = useAccountState((a) => a.userTopics);
  const unreads = useAccountState((a) => a.unreads);
  const groups = useMemo(
    () => (state ? groupConversations(state, privateConversations, ownUserId) : []),
    [state, privateConversations, ownUserId],
  );
  const rows = useMemo(
    () => recentRows(groups, { userId, users, subscriptions, userTopics, unreads }),
    [groups, userId, users, subscriptions, userTopics, unreads],
  );
  return {
    rows,
    loading: state === null && error === null,
    error,
    fromCache,
    retry: () => setAttempt((n) => n + 1),
  };
}
