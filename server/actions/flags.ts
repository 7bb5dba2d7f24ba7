/**
 * Personal message flags (POST /messages/flags and /messages/flags/narrow), after the
 * interface family's do_update_message_flags: only `read`, `starred` and `collapsed` can be
 * changed by the user; a message the user has no copy of but may read (history of a public
 * stream) gets a historical copy first; marking unread ignores messages of streams the user
 * is not subscribed to (unread stream messages are always in subscribed streams). One
 * `update_message_flags` event to the user lists the messages whose flag changed; marking
 * unread adds `message_details`, what the clients need to put them back in unread_msgs.
 */
import type { ServiceContext } from '../context';
import {
  FLAGS,
  type FlagName,
  insertHistoricalCopies,
  messagePlaces,
  messagesInUnsubscribedStreams,
  messagesWithCopies,
  setFlag,
  unreadDetailRows,
} from '../db/flags';
import { directMessageUserIds } from '../db/messages';
import { messageWindowIds } from '../db/narrow';
import { inOneRead } from '../db/sql';
import type { UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import type { OutgoingEvent } from '../events/queue';
import { accessMessage } from './access';
import { anchorOf, messageQuery, type NarrowTerm } from './message-fetch';
import { yieldToInput } from './read';
import { type EventBatch, runAction } from './transaction';

/** The flags the family's API knows (its NON_API_FLAGS left out). */
const API_FLAGS: ReadonlySet<string> = new Set([
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'wildcard_mentioned',
  'has_alert_word',
  'historical',
]);
/** The flags a user may change. */
const EDITABLE_FLAGS: ReadonlySet<string> = new Set(['read', 'starred', 'collapsed']);

export interface FlagChange {
  op: 'add' | 'remove';
  flag: FlagName;
}

/** The operation and flag as sent, checked: the family's texts for each mistake. */
export function checkFlagChange(op: string, flag: string): FlagChange {
  if (!API_FLAGS.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return { op, flag: flag as FlagName };
}

const marksUnread = (change: FlagChange) => change.flag === 'read' && change.op === 'remove';

/**
 * What a client needs to put each message back in unread_msgs (the family's message_details),
 * by id: read for a whole slice at once, a conversation's members once per conversation.
 */
function unreadDetails(
  ctx: ServiceContext,
  userId: number,
  messageIds: readonly number[],
): Record<number, Record<string, unknown>> {
  const rows = new Map(unreadDetailRows(ctx.db, userId, messageIds).map((row) => [row.id, row]));
  const others = new Map<string, number[]>();
  const details: Record<number, Record<string, unknown>> = {};
  for (const id of messageIds) {
    const row = rows.get(id);
    if (!row) {
      details[id] = {};
      continue;
    }
    const bits = row.flags ?? 0;
    const mentioned = (bits & (FLAGS.mentioned | FLAGS.wildcard_mentioned)) !== 0 ? { mentioned: true } : {};
    if (row.stream_id !== null) {
      details[id] = {
        type: 'stream',
        stream_id: row.stream_id,
        topic: row.topic,
        unmuted_stream_msg: true,
        ...mentioned,
      };
      continue;
    }
    // directMessageUserIds reads the recipient (and the sender, for a message to oneself).
    const key = `${row.recipient_id}:${row.sender_id}`;
    let userIds = others.get(key);
    if (!userIds) {
      userIds = directMessageUserIds(ctx.db, row).filter((other) => other !== userId);
      others.set(key, userIds);
    }
    details[id] = { type: 'private', user_ids: userIds, ...mentioned };
  }
  return details;
}

/**
 * Of these messages, none of which the user has a copy of, those the user may read (accessMessage);
 * with `strict`, the first one they may not read refuses the request ("Invalid message(s)").
 * accessMessage's verdict on a message without a copy depends only on its organization and
 * stream, so it is asked once per stream, not once per message.
 */
function readableWithoutCopy(
  ctx: ServiceContext,
  user: UserRow,
  messageIds: number[],
  strict: boolean,
): number[] {
  const places = messagePlaces(ctx.db, messageIds);
  const verdicts = new Map<string, boolean>();
  const mayRead = (id: number) => {
    if (strict) {
      accessMessage(ctx, user, id);
      return true;
    }
    try {
      accessMessage(ctx, user, id);
      return true;
    } catch (error) {
      if (error instanceof ApiFailure) return false;
      throw error;
    }
  };
  return messageIds.filter((id) => {
    const place = places.get(id);
    const key = place ? `${place.realm_id}:${place.stream_id}` : `none:${id}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = mayRead(id);
      verdicts.set(key, verdict);
    }
    return verdict;
  });
}

/**
 * Of these messages (ascending, no repeats), those to work on and those of them that need a
 * historical copy first: for marking unread, those outside unsubscribed streams; the others
 * must be readable by the user, which `strict` enforces ("Invalid message(s)") and otherwise
 * leaves out the ones the user may no longer read. Reads only.
 */
function targetsOf(
  ctx: ServiceContext,
  user: UserRow,
  change: FlagChange,
  messageIds: number[],
  strict: boolean,
): { targets: number[]; uncopied: number[] } {
  let targets = messageIds;
  if (marksUnread(change)) {
    const outside = messagesInUnsubscribedStreams(ctx.db, user.id, targets);
    if (outside.size > 0) targets = targets.filter((id) => !outside.has(id));
  }
  const copies = messagesWithCopies(ctx.db, user.id, targets);
  const missing = targets.filter((id) => !copies.has(id));
  if (missing.length === 0) return { targets, uncopied: [] };
  const uncopied = readableWithoutCopy(ctx, user, missing, strict);
  if (uncopied.length < missing.length) {
    const refused = new Set(missing);
    for (const id of uncopied) refused.delete(id);
    targets = targets.filter((id) => !refused.has(id));
  }
  return { targets, uncopied };
}

/**
 * Messages one transaction of a flag change works on at most, and one read of its checks:
 * marking 5 000 messages unread (the flags/narrow bound) in one piece would hold the event
 * loop for tens of milliseconds.
 */
export const FLAGS_SLICE_SIZE = 1000;

/**
 * Changes the flag on these messages (ascending, no repeats), first giving a historical copy
 * to those that need one (answered as changed: the user's copies grew), and tells the user's
 * clients which changed; with `tell`, even when none did (the request's first slice).
 * Answers the ids changed, ascending.
 */
function flagSlice(
  ctx: ServiceContext,
  events: EventBatch,
  user: UserRow,
  change: FlagChange,
  messageIds: number[],
  { strict, tell }: { strict: boolean; tell: boolean },
): number[] {
  const { targets, uncopied } = targetsOf(ctx, user, change, messageIds, strict);
  insertHistoricalCopies(ctx.db, user.id, uncopied);
  const set = setFlag(ctx.db, user.id, targets, change.flag, change.op === 'add');
  const changed = uncopied.length === 0 ? set : [...new Set([...set, ...uncopied])].sort((a, b) => a - b);
  if (!tell && changed.length === 0) return changed;
  const event: OutgoingEvent = {
    type: 'update_message_flags',
    op: change.op,
    flag: change.flag,
    messages: changed,
    all: false,
  };
  if (marksUnread(change)) event.message_details = unreadDetails(ctx, user.id, changed);
  events.send(event, [user.id]);
  return changed;
}

const ascendingUnique = (messageIds: readonly number[]) => [...new Set(messageIds)].sort((a, b) => a - b);

/**
 * Changes one flag on the user's messages in one transaction and tells the user's clients;
 * answers the ids whose flag changed. For one or a few messages (a scheduled message sent);
 * requests go through updateMessageFlagsInSlices.
 */
export function updateMessageFlags(
  ctx: ServiceContext,
  user: UserRow,
  change: FlagChange,
  messageIds: number[],
): number[] {
  return runAction(ctx, (events) =>
    flagSlice(ctx, events, user, change, ascendingUnique(messageIds), { strict: true, tell: true }),
  );
}

/**
 * POST /messages/flags and /messages/flags/narrow. Up to FLAGS_SLICE_SIZE messages it is one
 * transaction and one event. Beyond, every message is first checked, FLAGS_SLICE_SIZE at a
 * time (reads only), so a request naming a message the user may not read changes nothing;
 * then the flags change FLAGS_SLICE_SIZE messages at a time, ascending, each slice a
 * transaction with its own event (the first always sends one, as the one transaction did).
 * The event loop runs between any two slices. Answers the ids whose flag changed, ascending.
 *
 * A slice checks its messages again, as of its own transaction: one in a stream the user has
 * left since is not marked unread, and one the user may no longer read gets no historical copy
 * (which would let them read it). A historical copy is made in the slice that flags its
 * message, so a slice is what a request for its messages alone would do.
 *
 * If the server stops between slices, the older messages have the flag changed (with their
 * historical copies), the newer not yet, each client told of those changed; repeating the
 * request finishes the job (a message whose flag is already right is no change).
 */
export async function updateMessageFlagsInSlices(
  ctx: ServiceContext,
  user: UserRow,
  change: FlagChange,
  messageIds: number[],
): Promise<number[]> {
  const unique = ascendingUnique(messageIds);
  if (unique.length <= FLAGS_SLICE_SIZE) return updateMessageFlags(ctx, user, change, unique);
  const checked: number[] = [];
  for (let start = 0; start < unique.length; start += FLAGS_SLICE_SIZE) {
    if (start > 0) await yieldToInput();
    const slice = unique.slice(start, start + FLAGS_SLICE_SIZE);
    checked.push(...inOneRead(ctx.db, () => targetsOf(ctx, user, change, slice, true).targets));
  }
  const changed: number[] = [];
  for (let start = 0; start === 0 || start < checked.length; start += FLAGS_SLICE_SIZE) {
    await yieldToInput();
    const slice = checked.slice(start, start + FLAGS_SLICE_SIZE);
    const tell = start === 0;
    changed.push(
      ...runAction(ctx, (events) => flagSlice(ctx, events, user, change, slice, { strict: false, tell })),
    );
  }
  return changed;
}

/** The family's bound on the messages one flags/narrow request works on (MAX_MESSAGES_PER_UPDATE). */
export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface NarrowRange {
  anchor: string;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
}

/** num_before and num_after cut so that one request covers at most MAX_MESSAGES_PER_UPDATE. */
function clampRange(range: NarrowRange): { numBefore: number; numAfter: number } {
  const half = MAX_MESSAGES_PER_UPDATE / 2;
  const numBefore = Math.min(range.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - range.numAfter, half));
  const numAfter = Math.min(range.numAfter, Math.max(MAX_MESSAGES_PER_UPDATE - numBefore, half));
  return { numBefore, numAfter };
}

/**
 * POST /messages/flags/narrow: the window of the narrow around the anchor (as GET /messages
 * reads it), then one flag change on those messages; answers the family's counts.
 */
export async function updateMessageFlagsForNarrow(
  ctx: ServiceContext,
  user: UserRow,
  change: FlagChange,
  range: NarrowRange,
) {
  if (range.numBefore > 0 && range.numAfter > 0 && !range.includeAnchor)
    throw badRequest('The anchor can only be excluded at an end of the range');
  const { numBefore, numAfter } = clampRange(range);
  const query = messageQuery(ctx, user, range.narrow);
  // One state of the database for the anchor and the window, and one read lock for them.
  const window = inOneRead(ctx.db, () =>
    messageWindowIds(ctx.db, query, {
      anchor: anchorOf(ctx, query, range.anchor),
      numBefore,
      numAfter,
      includeAnchor: range.includeAnchor,
    }),
  );
  const ids = [
    ...window.before.slice(0, numBefore).reverse(),
    ...(window.atAnchor === undefined ? [] : [window.atAnchor]),
    ...window.after.slice(0, numAfter),
  ];
  // Other requests get their turn between reading the window and checking its messages.
  await yieldToInput();
  const changed = await updateMessageFlagsInSlices(ctx, user, change, ids);
  return {
    processed_count: ids.length,
    updated_count: changed.length,
    first_processed_id: ids[0] ?? null,
    last_processed_id: ids.at(-1) ?? null,
    found_oldest: window.before.length <= numBefore,
    found_newest: window.after.length <= numAfter,
  };
}
