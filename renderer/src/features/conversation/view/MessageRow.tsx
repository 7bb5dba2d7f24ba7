/**
 * One row of the message list: the recipient bar when a conversation's run starts, then the
 * message (an `article` named by its sender): avatar, name and time on the first of a sender's
 * run, the content (or the edit form), marks (edited, moved, starred, unread), reactions, and
 * the message's actions, shown on hover and when focus is inside the row.
 */
import { Star } from 'lucide-react';
import { memo } from 'react';
import { dmPeersOf, type Narrow, type NarrowableMessage } from '../../../../../shared/domain/narrow';
import type { Message } from '../../../../../shared/protocol/messages';
import { useAccountState, useOwnUserId, useUser } from '../../../stores/hooks';
import { Avatar, cx } from '../../../ui';
import { useNavigate } from '../../shell/navigation';
import { streamColorRef } from '../../shell/streamColor';
import { MessageActions, MessageEditForm, Reactions, useIsEditing } from '../actions';
import { MessageContent } from './MessageContent';
import { editMark, isUnread } from './rows';
import type { TimeFormats } from './timeFormats';

/** "#design > logo" or "You and Alice, Bob" (sorted by name), and where clicking it goes. */
function useRecipient(message: NarrowableMessage): {
  text: string;
  narrow: Narrow;
  color?: string | undefined;
} {
  const own = useOwnUserId() ?? -1;
  return useAccountState((a) => {
    if (message.type === 'stream') {
      const streamId = message.stream_id ?? -1;
      const name =
        a.streams[streamId]?.name ??
        a.subscriptions.subscribed[streamId]?.name ??
        (typeof (message as Partial<Message>).display_recipient === 'string'
          ? ((message as Message).display_recipient as string)
          : '(unknown stream)');
      return recipientCache(
        `s${streamId}:${name}>${message.subject}:${a.subscriptions.subscribed[streamId]?.color ?? ''}`,
        () => ({
          text: `#${name} > ${message.subject}`,
          narrow: { kind: 'topic', streamId, topic: message.subject },
          color: a.subscriptions.subscribed[streamId]?.color,
        }),
      );
    }
    const peers = dmPeersOf(message, own);
    const names = peers
      .filter((id) => id !== own)
      .map(
        (id) => (a.users.active[id] ?? a.users.nonActive[id])?.full_name ?? nameFromRecipients(message, id),
      )
      .sort((x, y) => x.localeCompare(y));
    const text = names.length === 0 ? 'You' : `You and ${names.join(', ')}`;
    return recipientCache(`d${peers.join(',')}:${text}`, () => ({
      text,
      narrow: { kind: 'dm', userIds: peers },
    }));
  });
}

// Selectors must answer the same object for the same recipient (no re-render loop).
const recipients = new Map<string, { text: string; narrow: Narrow; color?: string | undefined }>();
function recipientCache<T extends { text: string; narrow: Narrow; color?: string | undefined }>(
  key: string,
  make: () => T,
) {
  let value = recipients.get(key);
  if (!value) {
    if (recipients.size > 2000) recipients.clear();
    value = make();
    recipients.set(key, value);
  }
  return value;
}

function nameFromRecipients(message: NarrowableMessage, id: number): string {
  const list = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  for (const r of list as { id?: number; full_name?: string }[])
    if (r.id === id && r.full_name) return r.full_name;
  return 'Unknown user';
}

export function RecipientBar({
  message,
  dateText,
}: {
  message: NarrowableMessage;
  dateText?: string | undefined;
}) {
  const recipient = useRecipient(message);
  const navigate = useNavigate();
  return (
    <div
      className={cx('recipient-bar', message.type === 'private' && 'recipient-bar-dm')}
      ref={streamColorRef(recipient.color)}
    >
      <button
        type="button"
        className="recipient-bar-link"
        onClick={() => navigate({ name: 'narrow', narrow: recipient.narrow })}
      >
        {recipient.text}
      </button>
      {dateText && <span className="recipient-bar-date">{dateText}</span>}
    </div>
  );
}

export const MessageRow = memo(function MessageRow({
  message,
  narrow,
  recipientBar,
  senderHeader,
  selected,
  times,
}: {
  message: Message;
  narrow: Narrow;
  recipientBar: boolean;
  senderHeader: boolean;
  selected: boolean;
  times: TimeFormats;
}) {
  const editing = useIsEditing(message.id);
  const sender = useUser(message.sender_id);
  const senderName = sender?.full_name ?? message.sender_full_name;
  const date = new Date(message.timestamp * 1000);
  const mark = editMark(message);
  const unread = isUnread(message);
  const starred = message.flags.includes('starred');
  const time = (
    <time className="message-time" dateTime={date.toISOString()} title={times.exact(date)}>
      {times.time(date)}
    </time>
  );
  return (
    <>
      {recipientBar && <RecipientBar message={message} dateText={times.day(date)} />}
      <article
        id={`message-${message.id}`}
        className={cx(
          'message',
          senderHeader && 'message-first',
          message.is_me_message && 'message-me',
          unread && 'message-unread',
          selected && 'message-selected',
        )}
        aria-label={`Message from ${senderName}`}
        tabIndex={-1}
        data-message-id={message.id}
      >
        <div className="message-gutter">
          {senderHeader ? <Avatar name={senderName} userId={message.sender_id} size="md" /> : time}
        </div>
        <div className="message-main">
          {senderHeader ? (
            <div className="message-header">
              {!message.is_me_message && <span className="message-sender">{senderName}</span>}
              {time}
            </div>
          ) : (
            !message.is_me_message && <span className="visually-hidden">{senderName}</span>
          )}
          {editing ? (
            <MessageEditForm message={message} />
          ) : (
            <div className="message-body">
              {message.is_me_message && <span className="message-me-sender">{senderName}</span>}
              <MessageContent html={message.content} isMeMessage={message.is_me_message} />
            </div>
          )}
          <div className="message-marks">
            {mark && <span className="message-mark">({mark})</span>}
            {starred && <Star size={13} className="message-star" role="img" aria-label="Starred" />}
            {unread && <span className="message-unread-mark" role="img" aria-label="Unread" />}
          </div>
          <Reactions message={message} />
        </div>
        <div className="message-actions-slot">
          <MessageActions message={message} narrow={narrow} />
        </div>
      </article>
    </>
  );
});
