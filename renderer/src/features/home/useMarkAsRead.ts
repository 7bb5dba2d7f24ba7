/**
 * Marking unread messages as read from the inbox (and the palette): a topic
 * (`/mark_topic_as_read`), a stream (`/mark_stream_as_read`) or given messages (private
 * conversations: `/messages/flags`, op add, flag read). The counts drop when the server's
 * `update_message_flags` event arrives, in every window; until then the row says it is busy.
 */
import { useCallback, useState } from 'react';
import { getBridge } from '../../bridge';
import { callApi } from '../../bridge/api';
import { useAccountId } from '../../stores/hooks';

export type MarkTarget =
  | { kind: 'topic'; streamId: number; topic: string }
  | { kind: 'stream'; streamId: number }
  | { kind: 'messages'; messageIds: number[] }
  | { kind: 'all' };

export function markTargetKey(target: MarkTarget): string {
  switch (target.kind) {
    case 'topic':
      return `topic:${target.streamId}:${target.topic}`;
    case 'stream':
      return `stream:${target.streamId}`;
    case 'messages':
      return `messages:${target.messageIds.join(',')}`;
    case 'all':
      return 'all';
  }
}

export async function markAsRead(accountId: string, target: MarkTarget): Promise<void> {
  const bridge = getBridge();
  switch (target.kind) {
    case 'topic':
      await callApi(bridge, accountId, 'POST', '/mark_topic_as_read', {
        stream_id: target.streamId,
        topic_name: target.topic,
      });
      return;
    case 'stream':
      await callApi(bridge, accountId, 'POST', '/mark_stream_as_read', { stream_id: target.streamId });
      return;
    case 'messages':
      await callApi(bridge, accountId, 'POST', '/messages/flags', {
        messages: target.messageIds,
        op: 'add',
        flag: 'read',
      });
      return;
    case 'all':
      // The server may answer partially_completed when it ran out of time: ask again.
      for (let i = 0; i < 10; i++) {
        const answer = await callApi<{ result?: string }>(bridge, accountId, 'POST', '/mark_all_as_read');
        if (answer?.result !== 'partially_completed') return;
      }
      return;
  }
}

export interface MarkAsRead {
  mark: (target: MarkTarget) => void;
  isPending: (target: MarkTarget) => boolean;
  /** The server's message for the last failure, cleared by the next attempt. */
  error: string | null;
}

export function useMarkAsRead(): MarkAsRead {
  const accountId = useAccountId();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const mark = useCallback(
    (target: MarkTarget) => {
      const key = markTargetKey(target);
      setError(null);
      setPending((p) => new Set(p).add(key));
      markAsRead(accountId, target)
        .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
        .finally(() =>
          setPending((p) => {
            const next = new Set(p);
            next.delete(key);
            return next;
          }),
        );
    },
    [accountId],
  );
  const isPending = useCallback((target: MarkTarget) => pending.has(markTargetKey(target)), [pending]);
  return { mark, isPending, error };
}
