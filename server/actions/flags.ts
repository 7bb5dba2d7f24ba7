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
  messagesInUnsubscribedStreams,
  messagesWithCopies,
  setFlag,
} from '../db/flags';
import { directMessageUserIds, getMessage, userMessageFlags } from '../db/messages';
import { messageWindow } from '../db/narrow';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import type { OutgoingEvent } from '../events/queue';
import { accessMessage } from './access';
import { anchorOf, messageQuery, type NarrowTerm } from './message-fetch';
import { yieldToEventLoop } from './read';
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

/** What a client needs to put a message back in unread_msgs (the family's message_details). */
function unreadDetails(ctx: ServiceContext, userId: number, messageId: number): Record<string, unknown> {
  const row = getMessage(ctx.db, messageId);
  if (!row) return {};
  const bits = userMessageFlags(ctx.db, userId, messageId) ?? 0;
  const mentioned = (bits & (FLAGS.mentioned | FLAGS.wildcard_mentioned)) !== 0 ? { mentioned: true } : {};
  if (row.stream_id !== null) {
    return {
      type: 'stream',
      stream_id: row.stream_id,
      topic: row.topic,
      unmuted_stream_msg: true,
      ...mentioned,
    };
  }
  const others = directMessageUserIds(ctx.db, row).filter((id) => id !== userId);
  return { type: 'private', user_ids: others, ...mentioned };
}

/**
 * The messages to work on: for marking unread, those outside unsubscribed streams; the others
 * must be readable by the user ("Invalid message(s)"). Those without a copy get a historical
 * one (answered as `created`), which counts as a change: the user's copies grew.
 */
function targetMessages(ctx: ServiceContext, user: UserRow, change: FlagChange, messageIds: number[]) {
  const unique = [...new Set(messageIds)];
  let targets = unique;
  if (change.flag === 'read' && change.op === 'remove') {
    const outside = messagesInUnsubscribedStreams(ctx.db, user.id, unique);
    targets = unique.filter((id) => !outside.has(id));
  }
  const copies = messagesWithCopies(ctx.db, user.id, targets);
  const created = targets.filter((id) => !copies.has(id));
  for (const id of created) accessMessage(ctx, user, id);
  insertHistoricalCopies(ctx.db, user.id, created);
  return { targets, created };
}

/**
 * Messages one transaction of a flag change works on at most: marking 5 000 messages unread
 * (the flags/narrow bound) reads three rows per message for the event's message_details, too
 * long to hold the event loop for in one piece.
 */
export const FLAGS_SLICE_SIZE = 1000;

/** A flag change checked, with what its slices have done so far. */
interface FlagPlan {
  /** The messages to change, ascending. */
  targets: number[];
  /** Those that got a historical copy, which counts as a change. */
  created: Set<number>;
  /** The index in `targets` where the next slice starts. */
  next: number;
}

/**
 * Changes the flag on the plan's next `size` messages and tells the user's clients which
 * changed (always in the first slice, as the one transaction did, even when none did).
 */
function flagSlice(
  ctx: ServiceContext,
  events: EventBatch,
  user: UserRow,
  change: FlagChange,
  plan: FlagPlan,
  size: number,
  first: boolean,
): number[] {
  let ids = plan.targets.slice(plan.next, plan.next + size);
  plan.next += ids.length;
  if (!first && change.flag === 'read' && change.op === 'remove') {
    // Checked again: the user may have left a stream since the first slice, and an unread
    // stream message is always in a subscribed stream.
    const outside = messagesInUnsubscribedStreams(ctx.db, user.id, ids);
    ids = ids.filter((id) => !outside.has(id));
  }
  const set = setFlag(ctx.db, user.id, ids, change.flag, change.op === 'add');
  const changed = [...new Set([...set, ...ids.filter((id) => plan.created.has(id))])].sort((a, b) => a - b);
  if (!first && changed.length === 0) return changed;
  const event: OutgoingEvent = {
    type: 'update_message_flags',
    op: change.op,
    flag: change.flag,
    messages: changed,
    all: false,
  };
  if (change.flag === 'read' && change.op === 'remove') {
    event.message_details = Object.fromEntries(changed.map((id) => [id, unreadDetails(ctx, user.id, id)]));
  }
  events.send(event, [user.id]);
  return changed;
}

/** The checks (and historical copies) of a flag change, in the first slice's transaction. */
function planFlags(ctx: ServiceContext, user: UserRow, change: FlagChange, messageIds: number[]): FlagPlan {
  const { targets, created } = targetMessages(ctx, user, change, messageIds);
  return { targets: [...targets].sort((a, b) => a - b), created: new Set(created), next: 0 };
}

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
  return runAction(ctx, (events) => {
    const plan = planFlags(ctx, user, change, messageIds);
    return flagSlice(ctx, events, user, change, plan, plan.targets.length, true);
  });
}

/**
 * POST /messages/flags and /messages/flags/narrow: every message is checked (and given its
 * historical copy if it needs one) in the first slice's transaction, so a request naming a
 * message the user may not read changes nothing; the flags then change FLAGS_SLICE_SIZE
 * messages at a time, ascending, each slice a transaction with its own event, yielding to the
 * event loop between slices. Up to FLAGS_SLICE_SIZE messages it is one transaction and one
 * event, as before. Answers the ids whose flag changed, ascending.
 *
 * If the server stops between slices, the historical copies exist and the older messages have
 * the flag changed, the newer not yet, each client told of those changed; repeating the
 * request finishes the job (a message whose flag is already right is no change).
 */
export async function updateMessageFlagsInSlices(
  ctx: ServiceContext,
  user: UserRow,
  change: FlagChange,
  messageIds: number[],
): Promise<number[]> {
  const changed: number[] = [];
  const plan = runAction(ctx, (events) => {
    const checked = planFlags(ctx, user, change, messageIds);
    changed.push(...flagSlice(ctx, events, user, change, checked, FLAGS_SLICE_SIZE, true));
    return checked;
  });
  while (plan.next < plan.targets.length) {
    await yieldToEventLoop();
    runAction(ctx, (events) => {
      changed.push(...flagSlice(ctx, events, user, change, plan, FLAGS_SLICE_SIZE, false));
    });
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
  const anchor = anchorOf(ctx, query, range.anchor);
  const window = messageWindow(ctx.db, query, {
    anchor,
    numBefore,
    numAfter,
    includeAnchor: range.includeAnchor,
  });
  const ids = [
    ...window.before.slice(0, numBefore).reverse(),
    ...(window.atAnchor ? [window.atAnchor] : []),
    ...window.after.slice(0, numAfter),
  ].map((row) => row.id);
  // Reading a window of up to 5 000 messages and checking them are each tens of milliseconds:
  // other requests get their turn in between. The window is a read outside any transaction
  // either way; the checks run again in the first slice's transaction.
  await yieldToEventLoop();
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
