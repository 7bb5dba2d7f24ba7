/**
 * The rows of a message list, from its messages: a recipient bar before each run of one
 * conversation (a stream's topic, or a private conversation), the sender's name, avatar and
 * time on the first message of a sender's run, later messages of the same sender within a few
 * minutes without them. Pending messages of the outbox come last. Pure, so it is tested alone
 * and computed once per change of the list, not per row.
 */
import {
  dmPeersOf,
  messageInNarrow,
  type Narrow,
  type NarrowableMessage,
} from '../../../../../shared/domain/narrow';
import type { OutboxItem } from '../../../../../shared/ipc';
import type { Message } from '../../../../../shared/protocol/messages';

/** A sender's next message within this many seconds joins their run (no header again). */
export const SENDER_RUN_SECONDS = 5 * 60;

/** A conversation's identity: stream + topic (case-insensitive), or the people of a DM. */
export function conversationKey(message: NarrowableMessage, ownUserId: number): string {
  if (message.type === 'stream') return `stream:${message.stream_id ?? -1}:${message.subject.toLowerCase()}`;
  return `dm:${dmPeersOf(message, ownUserId).join(',')}`;
}

export interface MessageRow {
  kind: 'message';
  key: string;
  message: Message;
  /** The first of a conversation's run: a recipient bar goes above it. */
  recipientBar: boolean;
  /** The first of a sender's run: sender name, avatar and time show. */
  senderHeader: boolean;
}

export interface PendingRow {
  kind: 'pending';
  key: string;
  item: OutboxItem;
  message: NarrowableMessage;
  recipientBar: boolean;
}

export type Row = MessageRow | PendingRow;

function startsSenderRun(prev: Message | undefined, message: Message): boolean {
  if (!prev) return true;
  if (prev.sender_id !== message.sender_id) return true;
  if (prev.is_me_message || message.is_me_message) return true;
  return message.timestamp - prev.timestamp > SENDER_RUN_SECONDS;
}

/** The rows for messages in ascending id order. */
export function messageRows(messages: readonly Message[], ownUserId: number): MessageRow[] {
  const rows: MessageRow[] = [];
  let prevKey: string | null = null;
  let prev: Message | undefined;
  for (const message of messages) {
    const key = conversationKey(message, ownUserId);
    const recipientBar = key !== prevKey;
    rows.push({
      kind: 'message',
      key: `m${message.id}`,
      message,
      recipientBar,
      senderHeader: recipientBar || startsSenderRun(prev, message),
    });
    prevKey = key;
    prev = message;
  }
  return rows;
}

/** An outbox item as the message it will be (what a narrow looks at). */
export function outboxMessage(item: OutboxItem, ownUserId: number): NarrowableMessage {
  if (item.type === 'stream') {
    return { type: 'stream', stream_id: item.to[0], subject: item.topic, sender_id: ownUserId };
  }
  return {
    type: 'private',
    subject: '',
    sender_id: ownUserId,
    display_recipient: [...item.to, ownUserId].map((id) => ({ id })),
  };
}

/**
 * The outbox's messages that belong in the narrow and are not in the list yet (once the
 * server's message is there, its pending row goes), oldest first.
 */
export function pendingRows(
  items: readonly OutboxItem[],
  narrow: Narrow,
  ownUserId: number,
  shownIds: ReadonlySet<number>,
  lastShown: Message | undefined,
): PendingRow[] {
  let prevKey = lastShown ? conversationKey(lastShown, ownUserId) : null;
  const rows: PendingRow[] = [];
  const sorted = [...items].sort((a, b) => a.createdAt - b.createdAt);
  for (const item of sorted) {
    if (item.messageId !== null && shownIds.has(item.messageId)) continue;
    const message = outboxMessage(item, ownUserId);
    if (!messageInNarrow(narrow, message, [], ownUserId)) continue;
    const key = conversationKey(message, ownUserId);
    rows.push({ kind: 'pending', key: `p${item.localId}`, item, message, recipientBar: key !== prevKey });
    prevKey = key;
  }
  return rows;
}

/** Whether a message is unread for the user (its flags lack `read`). */
export const isUnread = (message: Pick<Message, 'flags'>): boolean => !message.flags.includes('read');

/**
 * The mark a message carries: "edited" once its content changed, "moved" when only its
 * topic or stream did (the edit history says which); a last edit time without a history
 * counts as edited.
 */
export function editMark(
  message: Pick<Message, 'edit_history' | 'last_edit_timestamp'>,
): 'edited' | 'moved' | null {
  const history = Array.isArray(message.edit_history) ? message.edit_history : [];
  if (history.length === 0) return message.last_edit_timestamp !== undefined ? 'edited' : null;
  const edited = history.some(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      ('prev_content' in entry || 'prev_rendered_content' in entry),
  );
  return edited ? 'edited' : 'moved';
}
