/**
 * Words and order of the Drafts screen, as pure functions: a draft's target, its time, its
 * sync state, and how the list is grouped (the open conversation's drafts first, each group
 * newest first).
 */
import type { LocalDraft } from '../../../../shared/ipc';

/** Names the screen knows; an unknown id keeps a neutral placeholder, never a bare number. */
export interface Names {
  streamName: (streamId: number) => string | undefined;
  userName: (userId: number) => string | undefined;
  /** The signed-in user: left out of a direct message's list unless alone in it. */
  ownUserId: number | null;
}

export type DraftTarget =
  | { kind: 'stream'; streamId: number; stream: string; topic: string }
  | { kind: 'private'; userIds: number[]; names: string[] }
  | { kind: 'none' };

export function draftTarget(draft: Pick<LocalDraft, 'type' | 'to' | 'topic'>, names: Names): DraftTarget {
  if (draft.type === 'stream' && draft.to[0] !== undefined) {
    const streamId = draft.to[0];
    return {
      kind: 'stream',
      streamId,
      stream: names.streamName(streamId) ?? 'unknown stream',
      topic: draft.topic,
    };
  }
  if (draft.type === 'private' && draft.to.length > 0) {
    const others = draft.to.filter((id) => id !== names.ownUserId);
    const userIds = others.length > 0 ? others : draft.to;
    return { kind: 'private', userIds, names: userIds.map((id) => names.userName(id) ?? 'Unknown user') };
  }
  return { kind: 'none' };
}

/** "#engineering > release 1.0", "Bob, Carol" or "No recipient yet". */
export function draftTargetText(target: DraftTarget): string {
  switch (target.kind) {
    case 'stream':
      return target.topic ? `#${target.stream} > ${target.topic}` : `#${target.stream}`;
    case 'private':
      return joinNames(target.names);
    case 'none':
      return 'No recipient yet';
  }
}

/** "Bob", "Bob and Carol", "Bob, Carol and Dan". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** How the draft stands with the server, in the words the list and the editor show. */
export function draftSyncText(draft: Pick<LocalDraft, 'status' | 'syncError' | 'content'>): string {
  switch (draft.status) {
    case 'synced':
      return 'Synced';
    case 'pending':
      return 'Saved on this computer, will sync';
    case 'local-only':
      return `Not synced: ${notSyncedReason(draft)}`;
  }
}

function notSyncedReason(draft: Pick<LocalDraft, 'syncError' | 'content'>): string {
  if (draft.syncError) return `the server refused it (${draft.syncError})`;
  if (draft.content.trim() === '') return 'empty drafts stay on this computer';
  return 'draft synchronization is off';
}

/**
 * A draft's time: the time of day when it is from today, else the date (with the year when it
 * is not this year's); `exact` is the full date and time for the hover.
 */
export function draftTime(
  timestampSeconds: number,
  now: Date,
  twentyFourHour: boolean,
  locale?: string,
): { short: string; exact: string; iso: string } {
  const date = new Date(timestampSeconds * 1000);
  const sameDay =
    date.getFullYear() === now.getFullYear() &&
    date.getMonth() === now.getMonth() &&
    date.getDate() === now.getDate();
  const hour12 = !twentyFourHour;
  const short = sameDay
    ? new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', hour12 }).format(date)
    : new Intl.DateTimeFormat(locale, {
        month: 'short',
        day: 'numeric',
        ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
      }).format(date);
  const exact = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12,
  }).format(date);
  return { short, exact, iso: date.toISOString() };
}

/** The conversation open in the window (a stream, or one of its topics). */
export interface Conversation {
  streamId: number;
  topic?: string;
}

export interface DraftGroup {
  id: 'conversation' | 'others';
  title: string;
  drafts: LocalDraft[];
}

export function newestFirst(drafts: readonly LocalDraft[]): LocalDraft[] {
  return [...drafts].sort((a, b) => b.timestamp - a.timestamp || a.localId.localeCompare(b.localId));
}

function inConversation(draft: LocalDraft, conversation: Conversation): boolean {
  if (draft.type !== 'stream' || draft.to[0] !== conversation.streamId) return false;
  return conversation.topic === undefined || draft.topic === conversation.topic;
}

/**
 * The list's groups: with an open conversation that has drafts, "Drafts for #stream > topic"
 * first, then "Other drafts"; otherwise one group of every draft. Each group newest first.
 */
export function groupDrafts(
  drafts: readonly LocalDraft[],
  conversation: Conversation | null,
  streamName: (streamId: number) => string | undefined,
): DraftGroup[] {
  const sorted = newestFirst(drafts);
  if (conversation) {
    const here = sorted.filter((d) => inConversation(d, conversation));
    if (here.length > 0) {
      const name = `#${streamName(conversation.streamId) ?? 'unknown stream'}`;
      const title = conversation.topic ? `Drafts for ${name} > ${conversation.topic}` : `Drafts for ${name}`;
      const others = sorted.filter((d) => !inConversation(d, conversation));
      return [
        { id: 'conversation', title, drafts: here },
        ...(others.length > 0 ? [{ id: 'others' as const, title: 'Other drafts', drafts: others }] : []),
      ];
    }
  }
  return [{ id: 'others', title: 'All drafts', drafts: sorted }];
}

/** "Draft deleted." or "3 drafts deleted." */
export function deletedText(count: number): string {
  return count === 1 ? 'Draft deleted.' : `${count} drafts deleted.`;
}
