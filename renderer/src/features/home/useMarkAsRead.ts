/**
 * Marking unread messages as read from the inbox (and the palette): a topic, a stream, given
 * messages (private conversations) or everything. Each runs as a long write
 * (queries/longWrites.ts): repeated while the server answers partially_completed, with its
 * progress and its end shown in the shell's activity strip. The counts drop as the server's
 * `update_message_flags` events arrive, in every window; until it is done the row is busy.
 */
import { useCallback, useState } from 'react';
import { type LongWriteError, runLongWrite, useLongWrites } from '../../queries/longWrites';
import { type MarkTarget, markReadWrite, markTargetKey } from '../../queries/markRead';
import { useAccountId, useAccountState } from '../../stores/hooks';

export { type MarkTarget, markTargetKey } from '../../queries/markRead';

/**
 * Marks the target as read until the server says it is done; rejects with the failed round's
 * message (the job in the activity strip says it too). For callers outside components.
 */
export async function markAsRead(accountId: string, target: MarkTarget, streamName?: string): Promise<void> {
  await runLongWrite(accountId, markReadWrite(target, streamName));
}

export interface MarkAsRead {
  mark: (target: MarkTarget) => void;
  isPending: (target: MarkTarget) => boolean;
  /** The server's message for the last failure, cleared by the next attempt. */
  error: string | null;
}

export function useMarkAsRead(): MarkAsRead {
  const accountId = useAccountId();
  const streams = useAccountState((a) => a.streams);
  const subscribed = useAccountState((a) => a.subscriptions.subscribed);
  const writes = useLongWrites();
  const [error, setError] = useState<string | null>(null);
  const mark = useCallback(
    (target: MarkTarget) => {
      setError(null);
      const name =
        'streamId' in target
          ? (subscribed[target.streamId]?.name ?? streams[target.streamId]?.name)
          : undefined;
      markAsRead(accountId, target, name).catch((e: LongWriteError) => setError(e.message));
    },
    [accountId, streams, subscribed],
  );
  const { isRunning } = writes;
  const isPending = useCallback((target: MarkTarget) => isRunning(markTargetKey(target)), [isRunning]);
  return { mark, isPending, error };
}
