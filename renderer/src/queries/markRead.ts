/**
 * Marking as read, as long writes (longWrites.ts): a topic (`/mark_topic_as_read`), a stream
 * (`/mark_stream_as_read`), everything (`/mark_all_as_read`, which the service may answer
 * partially_completed) or given messages (`/messages/flags`, op add, flag read). The inbox, a
 * stream's view and the command palette all mark through these, so each shows the same progress
 * (the unread messages still left, from the account's state) and the same words.
 */
import type { AccountState } from '../../../shared/domain';
import type { LongWrite } from './longWrites';

export type MarkTarget =
  | { kind: 'topic'; streamId: number; topic: string }
  | { kind: 'stream'; streamId: number }
  | { kind: 'messages'; messageIds: readonly number[] }
  | { kind: 'all' };

export function markTargetKey(target: MarkTarget): string {
  switch (target.kind) {
    case 'topic':
      return `read:topic:${target.streamId}:${target.topic}`;
    case 'stream':
      return `read:stream:${target.streamId}`;
    case 'messages':
      return `read:messages:${target.messageIds.join(',')}`;
    case 'all':
      return 'read:all';
  }
}

/** The unread messages of the target in the account's state (muted ones included: they are marked too). */
export function unreadIn(state: AccountState, target: MarkTarget): number {
  const { unreads } = state;
  switch (target.kind) {
    case 'all':
      return unreads.messages.size;
    case 'messages':
      return target.messageIds.filter((id) => unreads.messages.has(id)).length;
    case 'stream':
      return unreads.streams.get(target.streamId)?.count ?? 0;
    case 'topic':
      return unreads.streams.get(target.streamId)?.topics.get(target.topic)?.ids.length ?? 0;
  }
}

/** The long write that marks the target as read; `streamName` names the stream in its words. */
export function markReadWrite(target: MarkTarget, streamName?: string): LongWrite {
  const stream =
    target.kind === 'topic' || target.kind === 'stream'
      ? `#${streamName ?? `stream ${target.streamId}`}`
      : '';
  const common = { key: markTargetKey(target), remaining: (s: AccountState) => unreadIn(s, target) };
  switch (target.kind) {
    case 'topic': {
      const place = `${stream} > ${target.topic || '(no topic)'}`;
      return {
        ...common,
        path: '/mark_topic_as_read',
        params: { stream_id: target.streamId, topic_name: target.topic },
        doing: `Marking ${place} as read`,
        done: `${place} is marked as read.`,
        failed: `Could not mark ${place} as read`,
      };
    }
    case 'stream':
      return {
        ...common,
        path: '/mark_stream_as_read',
        params: { stream_id: target.streamId },
        doing: `Marking ${stream} as read`,
        done: `${stream} is marked as read.`,
        failed: `Could not mark ${stream} as read`,
      };
    case 'messages':
      return {
        ...common,
        path: '/messages/flags',
        params: { messages: target.messageIds, op: 'add', flag: 'read' },
        doing: 'Marking private messages as read',
        done: 'The private messages are marked as read.',
        failed: 'Could not mark the private messages as read',
      };
    case 'all':
      return {
        ...common,
        path: '/mark_all_as_read',
        doing: 'Marking all messages as read',
        done: 'All messages are marked as read.',
        failed: 'Could not mark all messages as read',
      };
  }
}
