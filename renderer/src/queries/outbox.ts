/**
 * The account's outbox as the main process keeps it on disk (messages written but not yet
 * known to have reached the server, and those the server refused), through TanStack Query:
 * read once (`outbox.list`), then kept current by the `outbox.changed` push, which carries the
 * whole list after every change. After the bridge was down, main.tsx invalidates every query,
 * which reads it again. The message view shows these items as pending rows (local echo).
 */
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ConfabBridge, OutboxItem, OutgoingMessage } from '../../../shared/ipc';
import { call, getBridge } from '../bridge';
import { useAccountId } from '../stores/hooks';

export const outboxQueryKey = (accountId: string) => ['outbox', accountId] as const;

const EMPTY: OutboxItem[] = [];

/** Which query clients already follow the push: one subscription each. */
const following = new WeakMap<QueryClient, () => void>();

/** Writes every `outbox.changed` push into the cache, for whichever account it is. Returns the unsubscribe. */
export function followOutboxPushes(queryClient: QueryClient, bridge: Pick<ConfabBridge, 'on'>): () => void {
  const known = following.get(queryClient);
  if (known) return known;
  const unsubscribe = bridge.on('outbox.changed', ({ accountId, items }) => {
    queryClient.setQueryData(outboxQueryKey(accountId), items);
  });
  const stop = () => {
    unsubscribe();
    following.delete(queryClient);
  };
  following.set(queryClient, stop);
  return stop;
}

/** The account (and its query client) the outbox functions act on: the one on screen. */
let current: { accountId: string; queryClient: QueryClient } | null = null;

/** Makes the surrounding account the one retryOutbox / discardOutbox act on. */
export function useOutboxAccount(): string {
  const accountId = useAccountId();
  const queryClient = useQueryClient();
  useEffect(() => {
    followOutboxPushes(queryClient, getBridge());
    current = { accountId, queryClient };
  }, [accountId, queryClient]);
  return accountId;
}

/** The account's outbox items, oldest first (as the main process sends them). */
export function useOutboxItems(): OutboxItem[] {
  const accountId = useOutboxAccount();
  const query = useQuery<OutboxItem[]>({
    queryKey: outboxQueryKey(accountId),
    queryFn: () => call('outbox.list', { accountId }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return query.data ?? EMPTY;
}

function accountOf(accountId: string | undefined): { accountId: string; queryClient: QueryClient | null } {
  if (accountId !== undefined) {
    return { accountId, queryClient: current?.accountId === accountId ? current.queryClient : null };
  }
  if (!current) throw new Error('No account shows its outbox');
  return current;
}

/** Puts a message in the outbox; the list follows by the push (and the answer, at once). */
export async function sendToOutbox(accountId: string, message: OutgoingMessage): Promise<OutboxItem> {
  const item = await call('outbox.send', { accountId, message });
  const queryClient = current?.accountId === accountId ? current.queryClient : null;
  // A push may have told of a later state already: the answer only adds what is missing.
  queryClient?.setQueryData<OutboxItem[]>(outboxQueryKey(accountId), (items = []) =>
    items.some((i) => i.localId === item.localId) ? items : [...items, item],
  );
  return item;
}

/** Sends a failed message again (of the account on screen, unless another is named). */
export async function retryOutbox(localId: string, accountId?: string): Promise<OutboxItem> {
  const target = accountOf(accountId);
  const item = await call('outbox.retry', { accountId: target.accountId, localId });
  // Shown as on its way at once; a push that came first (a later state) is kept.
  target.queryClient?.setQueryData<OutboxItem[]>(outboxQueryKey(target.accountId), (items = []) =>
    items.map((i) => (i.localId === item.localId && i.status === 'failed' ? item : i)),
  );
  return item;
}

/** Takes a message out of the outbox for good; answers the outbox without it. */
export async function discardOutbox(localId: string, accountId?: string): Promise<OutboxItem[]> {
  const target = accountOf(accountId);
  const items = await call('outbox.discard', { accountId: target.accountId, localId });
  target.queryClient?.setQueryData(outboxQueryKey(target.accountId), items);
  return items;
}
