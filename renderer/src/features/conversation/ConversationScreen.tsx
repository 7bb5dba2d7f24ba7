/**
 * A narrow's messages: the header (the narrow's title; a stream's description), the
 * virtualized message list with the outbox's pending messages at its end, who is typing, and
 * the composer for the conversation. The list's data lives in view/messageLists.ts.
 */
import { useEffect } from 'react';
import type { Narrow } from '../../../../shared/domain/narrow';
import { useAccountState } from '../../stores/hooks';
import { Banner, Button, EmptyState, ScreenHeader } from '../../ui';
import { narrowTitle } from '../shell/narrowTitle';
import { RichText } from '../shell/richText';
import { releaseReads } from './actions';
import { Composer, TypingIndicator, useOutboxItems } from './compose';
import { MessageList } from './view/MessageList';
import { useMessageList } from './view/useMessageList';
import './view/view.css';

function EmptyNarrow({ narrow }: { narrow: Narrow }) {
  switch (narrow.kind) {
    case 'starred':
      return <EmptyState title="No starred messages">Star a message to find it here later.</EmptyState>;
    case 'mentions':
      return <EmptyState title="No mentions">Messages that mention you will show here.</EmptyState>;
    case 'search':
      return <EmptyState title="No messages match">Try other words or fewer operators.</EmptyState>;
    default:
      return <EmptyState title="No messages yet">Write the first one below.</EmptyState>;
  }
}

export function ConversationScreen({
  narrow,
  messageId,
}: {
  narrow: Narrow;
  messageId?: number | undefined;
}) {
  const title = useAccountState((a) => narrowTitle(narrow, a));
  const streamId = narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : null;
  const description = useAccountState((a) =>
    streamId === null
      ? ''
      : String(
          a.streams[streamId]?.rendered_description ??
            a.subscriptions.subscribed[streamId]?.rendered_description ??
            '',
        ),
  );
  const { key, lists, entry, searchErrors } = useMessageList(narrow, messageId);
  // Opening a narrow ends any hold "Mark as unread from here" put on marking read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each narrow opened (its key) releases
  useEffect(() => releaseReads(), [key]);
  const outbox = useOutboxItems();

  return (
    <div className="conversation-screen">
      <ScreenHeader
        title={title}
        subtitle={
          description ? <RichText html={description} className="conversation-description" /> : undefined
        }
      />
      {searchErrors.length > 0 && (
        <div className="conversation-banner">
          <Banner tone="warn" role="alert">
            {searchErrors.map((error) => (
              <span key={error} className="conversation-search-error">
                {error}
              </span>
            ))}
          </Banner>
        </div>
      )}
      {entry?.fromCache && (
        <div className="conversation-banner">
          <Banner tone="warn" role="status">
            Showing saved messages; they may be out of date.
          </Banner>
        </div>
      )}
      {entry?.error && (
        <div className="conversation-banner">
          <Banner
            tone="danger"
            action={
              <Button size="sm" onPress={() => lists.catchUp()}>
                Try again
              </Button>
            }
          >
            Could not load messages: {entry.error}
          </Banner>
        </div>
      )}
      <div className="conversation-body">
        {!entry || (entry.loading && entry.list.messages.length === 0) ? (
          searchErrors.length > 0 ? null : (
            <div className="conversation-loading" role="status">
              Loading messages…
            </div>
          )
        ) : (
          <MessageList
            narrow={narrow}
            listKey={key}
            lists={lists}
            entry={entry}
            outbox={outbox}
            empty={<EmptyNarrow narrow={narrow} />}
          />
        )}
      </div>
      <div className="conversation-footer">
        <TypingIndicator narrow={narrow} />
        <Composer narrow={narrow} />
      </div>
    </div>
  );
}
