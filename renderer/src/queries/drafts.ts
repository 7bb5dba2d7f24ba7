/**
 * The account's drafts as the main process keeps them (its local store is what the Drafts
 * screen shows), through TanStack Query. Read once, then kept current by the `drafts.changed`
 * push, which carries the whole list after every change: local edits, the outbox's progress,
 * other clients. So the list is never stale while the bridge is up; after the bridge was down
 * main.tsx invalidates every query, which re-reads it.
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfabBridge, DraftInput, LocalDraft } from '../../../shared/ipc';
import { call } from '../bridge';

export const draftsQueryKey = (accountId: string) => ['drafts', accountId] as const;

export function useDrafts(accountId: string) {
  return useQuery<LocalDraft[]>({
    queryKey: draftsQueryKey(accountId),
    queryFn: () => call('drafts.list', { accountId }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Saves (creates or updates) a draft; the new list arrives by the push that follows. */
export function useSaveDraft(accountId: string) {
  return useMutation({
    mutationFn: (draft: DraftInput) => call('drafts.save', { accountId, draft }),
  });
}

/** Deletes a draft; the answer is the list without it, shown at once. */
export function useDeleteDraft(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (localId: string) => call('drafts.delete', { accountId, localId }),
    onSuccess: (drafts) => queryClient.setQueryData(draftsQueryKey(accountId), drafts),
  });
}

/** Writes every `drafts.changed` push into the cache, for whichever account it is. Returns the unsubscribe. */
export function followDraftPushes(queryClient: QueryClient, bridge: ConfabBridge): () => void {
  return bridge.on('drafts.changed', ({ accountId, drafts }) => {
    queryClient.setQueryData(draftsQueryKey(accountId), drafts);
  });
}
