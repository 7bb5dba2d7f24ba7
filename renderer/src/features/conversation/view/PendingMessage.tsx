/**
 * A message still in the outbox, at the end of the list it will belong to: the user's own
 * name and avatar, the text as written, and where it stands: "Sending…" (waiting for the
 * server, or on its way), or "Not sent: {the server's reason}" with Retry. While it has not
 * gone out it can be taken back into the composer ("Restore to compose").
 */
import { RotateCcw, Undo2 } from 'lucide-react';
import { useState } from 'react';
import type { NarrowableMessage } from '../../../../../shared/domain/narrow';
import type { OutboxItem } from '../../../../../shared/ipc';
import { useOwnUser } from '../../../stores/hooks';
import { Avatar, Button, cx } from '../../../ui';
import { composeActions, retryOutbox } from '../compose';
import { RecipientBar } from './MessageRow';

export function PendingMessage({
  item,
  message,
  recipientBar,
}: {
  item: OutboxItem;
  message: NarrowableMessage;
  recipientBar: boolean;
}) {
  const own = useOwnUser();
  const name = own?.full_name ?? 'Me';
  const [error, setError] = useState<string | null>(null);
  const failed = item.status === 'failed';
  const run = (action: () => unknown) => {
    setError(null);
    Promise.resolve()
      .then(action)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <>
      {recipientBar && <RecipientBar message={message} />}
      <article
        className={cx('message', 'message-first', 'message-pending', failed && 'message-failed')}
        aria-label={`Message from ${name}`}
      >
        <div className="message-gutter">
          <Avatar name={name} userId={own?.user_id ?? 0} size="md" />
        </div>
        <div className="message-main">
          <div className="message-header">
            <span className="message-sender">{name}</span>
          </div>
          <div className="message-content message-pending-text">{item.content}</div>
          <div className="message-pending-status">
            {failed ? (
              <span className="message-pending-failed">
                Not sent: {item.error ?? 'the server refused it.'}
              </span>
            ) : (
              <span>Sending…</span>
            )}
            {failed && (
              <Button
                size="sm"
                variant="ghost"
                icon={<RotateCcw size={13} aria-hidden="true" />}
                onPress={() => run(() => retryOutbox(item.localId))}
              >
                Retry
              </Button>
            )}
            {(failed || item.status === 'queued') && (
              <Button
                size="sm"
                variant="ghost"
                icon={<Undo2 size={13} aria-hidden="true" />}
                onPress={() => run(() => composeActions.restore(item))}
              >
                Restore to compose
              </Button>
            )}
          </div>
          {error && (
            <p className="message-pending-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </article>
    </>
  );
}
