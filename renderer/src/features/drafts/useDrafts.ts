/**
 * The account's drafts as the main process keeps them: read once, then kept current by the
 * `drafts.changed` push (local edits, the outbox's progress, other clients). Re-read when the
 * bridge comes back, since pushes sent while it was down are lost.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DraftInput, LocalDraft } from '../../../../shared/ipc';
import { getBridge, onBridgeLink } from '../../bridge';
import { unwrap } from '../../bridge/result';

export interface DraftsApi {
  drafts: LocalDraft[] | null;
  error: string | null;
  save(draft: DraftInput): Promise<LocalDraft>;
  remove(localId: string): Promise<void>;
}

export function useDrafts(accountId: string): DraftsApi {
  const [drafts, setDrafts] = useState<LocalDraft[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const bridge = getBridge();
    let live = true;
    const load = () => {
      bridge
        .invoke('drafts.list', { accountId })
        .then((result) => {
          if (!live) return;
          setDrafts(unwrap(result));
          setError(null);
        })
        .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    };
    const offPush = bridge.on('drafts.changed', (payload) => {
      if (payload.accountId === accountId) setDrafts(payload.drafts);
    });
    const offLink = onBridgeLink((up) => {
      if (up) load();
    });
    load();
    return () => {
      live = false;
      offPush();
      offLink();
    };
  }, [accountId]);

  const save = useCallback(
    async (draft: DraftInput) => unwrap(await getBridge().invoke('drafts.save', { accountId, draft })),
    [accountId],
  );
  const remove = useCallback(
    async (localId: string) => {
      setDrafts(unwrap(await getBridge().invoke('drafts.delete', { accountId, localId })));
    },
    [accountId],
  );
  return { drafts, error, save, remove };
}
