/**
 * Where a message goes: a stream's topic or a private conversation. Pure: the composer's
 * target from a narrow or a message, the key a conversation's text and drafts are kept by, the
 * narrow to open once sent, and the checks made before anything is sent.
 */

import { dmPeersOf, dmUserIds, type Narrow } from '../../../../../shared/domain/narrow';
import type { DraftInput, LocalDraft, OutgoingMessage } from '../../../../../shared/ipc';
import type { Message } from '../../../../../shared/protocol/messages';

export type ComposeTarget =
  | { type: 'stream'; streamId: number; topic: string }
  /** The other people (sorted); [] or [self] is a conversation with oneself. */
  | { type: 'private'; userIds: number[] };

/** The composer's recipient fields as typed: possibly incomplete (no stream, nobody yet). */
export interface TargetFields {
  kind: 'stream' | 'private';
  streamId: number | null;
  topic: string;
  userIds: number[];
}

/** The longest topic the service keeps. */
export const MAX_TOPIC_LENGTH = 60;
/** The longest message the service takes. */
export const MAX_MESSAGE_LENGTH = 10_000;

/** The conversation a narrow writes to: a topic, a stream (topic still empty), people; else none. */
export function targetOfNarrow(narrow: Narrow): ComposeTarget | null {
  switch (narrow.kind) {
    case 'topic':
      return { type: 'stream', streamId: narrow.streamId, topic: narrow.topic };
    case 'stream':
      return { type: 'stream', streamId: narrow.streamId, topic: '' };
    case 'dm':
      return { type: 'private', userIds: dmUserIds(narrow.userIds) };
    default:
      return null;
  }
}

/** The conversation a message belongs to (a reply goes there). */
export function targetOfMessage(
  message: Pick<Message, 'type' | 'stream_id' | 'subject' | 'sender_id' | 'display_recipient'>,
  ownUserId: number,
): ComposeTarget {
  if (message.type === 'stream') {
    return { type: 'stream', streamId: message.stream_id ?? 0, topic: message.subject };
  }
  return { type: 'private', userIds: dmPeersOf(message, ownUserId) };
}

/** The other people of a private target, sorted; nobody else: [] (oneself). */
function peers(userIds: readonly number[], ownUserId: number | null): number[] {
  return dmUserIds(userIds.filter((id) => id !== ownUserId));
}

/**
 * The key of a conversation: equal conversations have equal keys, whatever the case of the
 * topic or whether oneself is listed among the people.
 */
export function targetKey(target: ComposeTarget, ownUserId: number | null = null): string {
  if (target.type === 'stream') return `stream:${target.streamId}:${target.topic.trim().toLowerCase()}`;
  return `dm:${peers(target.userIds, ownUserId).join(',')}`;
}

/** A draft's target, when it has one. */
export function targetOfDraft(draft: Pick<LocalDraft, 'type' | 'to' | 'topic'>): ComposeTarget | null {
  if (draft.type === 'stream' && draft.to[0] !== undefined) {
    return { type: 'stream', streamId: draft.to[0], topic: draft.topic };
  }
  if (draft.type === 'private' && draft.to.length > 0)
    return { type: 'private', userIds: dmUserIds(draft.to) };
  return null;
}

/** The conversation key of a draft (null: it has no recipient yet). */
export function draftKey(
  draft: Pick<LocalDraft, 'type' | 'to' | 'topic'>,
  ownUserId: number | null,
): string | null {
  const target = targetOfDraft(draft);
  return target ? targetKey(target, ownUserId) : null;
}

/** The drafts of one conversation, newest first. */
export function draftsFor(
  drafts: readonly LocalDraft[],
  target: ComposeTarget,
  ownUserId: number | null,
): LocalDraft[] {
  const key = targetKey(target, ownUserId);
  return drafts
    .filter((d) => draftKey(d, ownUserId) === key)
    .sort((a, b) => b.timestamp - a.timestamp || a.localId.localeCompare(b.localId));
}

/** "1 draft", "3 drafts", "99+ drafts". */
export function draftCountText(count: number): string {
  if (count > 99) return '99+ drafts';
  return count === 1 ? '1 draft' : `${count} drafts`;
}

export function fieldsOfTarget(
  target: ComposeTarget | null,
  kind: 'stream' | 'private' = 'stream',
): TargetFields {
  if (!target) return { kind, streamId: null, topic: '', userIds: [] };
  return target.type === 'stream'
    ? { kind: 'stream', streamId: target.streamId, topic: target.topic, userIds: [] }
    : { kind: 'private', streamId: null, topic: '', userIds: dmUserIds(target.userIds) };
}

/** The fields as a target, once they name one: a stream chosen, or someone to write to. */
export function targetOfFields(fields: TargetFields): ComposeTarget | null {
  if (fields.kind === 'stream') {
    return fields.streamId === null
      ? null
      : { type: 'stream', streamId: fields.streamId, topic: fields.topic };
  }
  return fields.userIds.length === 0 ? null : { type: 'private', userIds: dmUserIds(fields.userIds) };
}

/** The view of a conversation (where the composer goes once a new message is sent). */
export function narrowOfTarget(target: ComposeTarget, ownUserId: number | null): Narrow {
  if (target.type === 'stream') {
    const topic = target.topic.trim();
    return topic
      ? { kind: 'topic', streamId: target.streamId, topic }
      : { kind: 'stream', streamId: target.streamId };
  }
  const others = peers(target.userIds, ownUserId);
  return { kind: 'dm', userIds: others.length > 0 ? others : ownUserId === null ? [] : [ownUserId] };
}

/** The outbox's recipient fields (a conversation with oneself is addressed to oneself). */
export function outgoingOf(
  target: ComposeTarget,
  ownUserId: number | null,
): Pick<OutgoingMessage, 'type' | 'to' | 'topic'> {
  if (target.type === 'stream') return { type: 'stream', to: [target.streamId], topic: target.topic.trim() };
  const others = peers(target.userIds, ownUserId);
  return {
    type: 'private',
    to: others.length > 0 ? others : ownUserId === null ? [] : [ownUserId],
    topic: '',
  };
}

/** A draft of the fields and text (type '' while no recipient is chosen). */
export function draftInputOf(fields: TargetFields, content: string, localId: string | null): DraftInput {
  const target = targetOfFields(fields);
  const base = localId === null ? {} : { localId };
  if (!target) return { ...base, type: '', to: [], topic: '', content };
  if (target.type === 'stream') {
    return {
      ...base,
      type: 'stream',
      to: [target.streamId],
      topic: target.topic.slice(0, MAX_TOPIC_LENGTH),
      content,
    };
  }
  return { ...base, type: 'private', to: target.userIds, topic: '', content };
}

export interface SendCheck {
  /** Where the problem is: the field to show it under. */
  field: 'stream' | 'topic' | 'to' | 'message';
  message: string;
}

/**
 * What stops a message from being sent, in the order the user meets the fields: no stream, a
 * topic missing where the organization requires one, or too long, nobody to write to, no text.
 */
export function checkSend(
  fields: TargetFields,
  content: string,
  { mandatoryTopics }: { mandatoryTopics: boolean },
): SendCheck | null {
  if (fields.kind === 'stream') {
    if (fields.streamId === null) return { field: 'stream', message: 'Choose a stream to send to.' };
    if (mandatoryTopics && fields.topic.trim() === '') {
      return { field: 'topic', message: 'Topics are required in this organization.' };
    }
    if ([...fields.topic.trim()].length > MAX_TOPIC_LENGTH) {
      return { field: 'topic', message: `Topics are at most ${MAX_TOPIC_LENGTH} characters long.` };
    }
  } else if (fields.userIds.length === 0) {
    return { field: 'to', message: 'Choose at least one person to send to.' };
  }
  if (content.trim() === '') return { field: 'message', message: 'Write a message first.' };
  if (content.length > MAX_MESSAGE_LENGTH) {
    return {
      field: 'message',
      message: `Messages are at most ${MAX_MESSAGE_LENGTH.toLocaleString('en')} characters long.`,
    };
  }
  return null;
}
