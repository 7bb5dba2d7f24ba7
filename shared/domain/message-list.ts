/**
 * One narrow's message list: the messages a view (or the cache) holds for a narrow, ascending
 * by id, with whether the list reaches the narrow's oldest and newest message. Pages from
 * `GET /messages` are merged in with `mergePage`; live events are applied with
 * `applyMessageEvents`, one batch at a time, copying the list at most once per batch (a burst
 * of thousands of events costs one pass), and answering the very same object when the batch
 * changes nothing of this list, so a view does not re-render for other narrows' news.
 *
 * What a list cannot know it leaves alone: a message moved *into* the narrow, or starred while
 * the starred narrow is open, is not in the event (only its id), so the view learns of it at its
 * next fetch; a message moved or unstarred *out of* the narrow leaves at once.
 */
import type { EventOf, Message, MessageReaction, ServerEvent } from '../protocol';
import { messageInNarrow, type Narrow } from './narrow';

export interface MessageListState {
  narrow: Narrow;
  /** Ascending by id, no duplicates. */
  messages: Message[];
  /** The list holds the narrow's oldest message. */
  foundOldest: boolean;
  /** The list holds the narrow's newest message (so live messages are appended). */
  foundNewest: boolean;
}

export interface MessagePageInput {
  messages: Message[];
  foundOldest?: boolean;
  foundNewest?: boolean;
  /** Start over with this page (a jump to another anchor, or a refetch after a gap). */
  replace?: boolean;
}

export function emptyMessageList(narrow: Narrow): MessageListState {
  return { narrow, messages: [], foundOldest: false, foundNewest: false };
}

const byId = (a: Message, b: Message) => a.id - b.id;

/** Sorted by id, one message per id (the later of two with the same id wins). */
function normalized(messages: readonly Message[]): Message[] {
  const map = new Map<number, Message>();
  for (const m of messages) map.set(m.id, m);
  return [...map.values()].sort(byId);
}

/**
 * Merges a page of messages (older, newer or overlapping) into the list: one message per id, the
 * page's copy winning (it is the service's current state), ascending. `foundOldest` and
 * `foundNewest` once reached stay reached (a page fetched towards the past says nothing about
 * the newest end); `replace` starts over with the page and its flags.
 */
export function mergePage(list: MessageListState, page: MessagePageInput): MessageListState {
  if (page.replace) {
    return {
      narrow: list.narrow,
      messages: normalized(page.messages),
      foundOldest: page.foundOldest ?? false,
      foundNewest: page.foundNewest ?? false,
    };
  }
  const foundOldest = list.foundOldest || page.foundOldest === true;
  const foundNewest = list.foundNewest || page.foundNewest === true;
  if (page.messages.length === 0) {
    return foundOldest === list.foundOldest && foundNewest === list.foundNewest
      ? list
      : { ...list, foundOldest, foundNewest };
  }
  const incoming = normalized(page.messages);
  const have = list.messages;
  let messages: Message[];
  const first = have[0];
  const last = have[have.length - 1];
  if (!first || !last) messages = incoming;
  else if ((incoming[incoming.length - 1] as Message).id < first.id) messages = [...incoming, ...have];
  else if ((incoming[0] as Message).id > last.id) messages = [...have, ...incoming];
  else messages = normalized([...have, ...incoming]);
  return { ...list, messages, foundOldest, foundNewest };
}

/** The Message of a `message` event, with the user's flags from beside it. */
export function messageFromEvent(event: EventOf<'message'>): Message {
  const message = event.message as unknown as Message;
  return {
    ...message,
    reactions: Array.isArray(message.reactions) ? message.reactions : [],
    flags: [...event.flags],
  };
}

/** The flags an edit of the content recomputes (the service sends them in `flags`). */
const CONTENT_FLAGS = new Set(['mentioned', 'wildcard_mentioned', 'has_alert_word']);

/** The mark a message shows: "(edited)" for a content edit, "(moved)" for a move only. */
export function editMarkOf(message: Message): 'edited' | 'moved' | null {
  if (message.last_edit_timestamp === undefined) return null;
  const history = Array.isArray(message.edit_history) ? message.edit_history : null;
  // Without the history (the organization hides it) the family says "edited".
  if (!history || history.length === 0) return 'edited';
  const contentEdited = history.some(
    (entry) => typeof entry === 'object' && entry !== null && 'prev_content' in entry,
  );
  return contentEdited ? 'edited' : 'moved';
}

const sameReaction = (a: MessageReaction, b: MessageReaction) =>
  a.user_id === b.user_id && a.emoji_code === b.emoji_code && a.reaction_type === b.reaction_type;

/**
 * A batch under way: the list's messages copied on the first change, an index by id built on
 * the first look-up, removals compacted once at the end.
 */
class Batch {
  private messages: Message[] | null = null;
  private index: Map<number, number> | null = null;
  private removed: Set<number> | null = null;
  private unsorted = false;
  private lastId: number;

  constructor(private readonly list: MessageListState) {
    this.lastId = list.messages[list.messages.length - 1]?.id ?? Number.NEGATIVE_INFINITY;
  }

  private current(): Message[] {
    return this.messages ?? this.list.messages;
  }

  private writable(): Message[] {
    this.messages ??= this.list.messages.slice();
    return this.messages;
  }

  private positionOf(id: number): number {
    if (!this.index) {
      const index = new Map<number, number>();
      this.current().forEach((m, i) => {
        index.set(m.id, i);
      });
      this.index = index;
    }
    return this.index.get(id) ?? -1;
  }

  get(id: number): Message | undefined {
    const i = this.positionOf(id);
    return i < 0 ? undefined : this.current()[i];
  }

  /** Every message still in the list. */
  ids(): number[] {
    return this.current()
      .map((m) => m.id)
      .filter((id) => this.positionOf(id) >= 0);
  }

  set(message: Message): void {
    const i = this.positionOf(message.id);
    if (i >= 0) this.writable()[i] = message;
  }

  add(message: Message): void {
    if (this.positionOf(message.id) >= 0) return;
    const messages = this.writable();
    messages.push(message);
    this.index?.set(message.id, messages.length - 1);
    if (message.id < this.lastId) this.unsorted = true;
    else this.lastId = message.id;
  }

  remove(id: number): void {
    if (this.positionOf(id) < 0) return;
    this.writable();
    this.removed ??= new Set();
    this.removed.add(id);
    this.index?.delete(id);
  }

  result(): MessageListState {
    if (!this.messages) return this.list;
    const removed = this.removed;
    let messages = removed ? this.messages.filter((m) => !removed.has(m.id)) : this.messages;
    if (this.unsorted) messages = messages.sort(byId);
    return { ...this.list, messages };
  }
}

/** Applies one `update_message` event: content and its flags, topic and stream, edit marks. */
function applyUpdate(batch: Batch, list: MessageListState, event: EventOf<'update_message'>, own: number) {
  const raw = event as Record<string, unknown>;
  const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
  const targetId = event.message_id ?? ids[0];
  const rendered = typeof raw.rendered_content === 'string' ? raw.rendered_content : undefined;
  const markdown = typeof raw.content === 'string' ? raw.content : undefined;
  const contentChanged = rendered !== undefined || markdown !== undefined;
  const topic = typeof event.subject === 'string' ? event.subject : undefined;
  const newStreamId = event.new_stream_id;
  const moved = topic !== undefined || newStreamId !== undefined;
  const editTimestamp = typeof raw.edit_timestamp === 'number' ? raw.edit_timestamp : undefined;
  const marks = event.rendering_only !== true && editTimestamp !== undefined;
  const eventFlags = Array.isArray(raw.flags)
    ? (raw.flags as unknown[]).filter((f): f is string => typeof f === 'string')
    : undefined;

  for (const id of ids) {
    const old = batch.get(id);
    if (!old) continue;
    const next: Message = { ...old };
    const isTarget = id === targetId;
    if (isTarget && contentChanged) {
      const asMarkdown = old.content_type === 'text/x-markdown';
      const content = asMarkdown ? (markdown ?? rendered) : (rendered ?? markdown);
      if (content !== undefined) next.content = content;
      if (typeof raw.is_me_message === 'boolean') next.is_me_message = raw.is_me_message;
      if (eventFlags) {
        next.flags = [
          ...old.flags.filter((f) => !CONTENT_FLAGS.has(f)),
          ...eventFlags.filter((f) => CONTENT_FLAGS.has(f)),
        ];
      }
    }
    if (topic !== undefined) {
      next.subject = topic;
      if (Array.isArray(raw.topic_links)) next.topic_links = raw.topic_links as Message['topic_links'];
    }
    if (newStreamId !== undefined) next.stream_id = newStreamId;
    if (marks && (moved || (isTarget && contentChanged))) {
      next.last_edit_timestamp = editTimestamp;
      const entry: Record<string, unknown> = { timestamp: editTimestamp };
      if (typeof raw.user_id === 'number') entry.user_id = raw.user_id;
      if (isTarget && contentChanged) {
        entry.prev_content = raw.orig_content;
        entry.prev_rendered_content = raw.orig_rendered_content;
      }
      if (newStreamId !== undefined) {
        entry.prev_stream = old.stream_id;
        entry.stream = newStreamId;
      }
      if (topic !== undefined) {
        entry.prev_topic = old.subject;
        entry.topic = topic;
      }
      next.edit_history = [entry, ...(Array.isArray(old.edit_history) ? old.edit_history : [])];
    }
    if (moved && list.narrow.kind !== 'search' && !messageInNarrow(list.narrow, next, next.flags, own)) {
      batch.remove(id);
    } else {
      batch.set(next);
    }
  }
}

function applyReaction(batch: Batch, event: EventOf<'reaction'>): void {
  const old = batch.get(event.message_id);
  if (!old) return;
  const reaction: MessageReaction = {
    emoji_name: event.emoji_name,
    emoji_code: event.emoji_code,
    reaction_type: event.reaction_type,
    user_id: event.user_id,
  };
  const has = old.reactions.some((r) => sameReaction(r, reaction));
  if (event.op === 'add') {
    if (!has) batch.set({ ...old, reactions: [...old.reactions, reaction] });
  } else if (has) {
    batch.set({ ...old, reactions: old.reactions.filter((r) => !sameReaction(r, reaction)) });
  }
}

function applyFlags(batch: Batch, list: MessageListState, event: EventOf<'update_message_flags'>): void {
  const ids = event.all ? batch.ids() : event.messages;
  for (const id of ids) {
    const old = batch.get(id);
    if (!old) continue;
    const has = old.flags.includes(event.flag);
    if (event.op === 'add') {
      if (!has) batch.set({ ...old, flags: [...old.flags, event.flag] });
    } else if (has) {
      if (event.flag === 'starred' && list.narrow.kind === 'starred') batch.remove(id);
      else batch.set({ ...old, flags: old.flags.filter((f) => f !== event.flag) });
    }
  }
}

/**
 * Applies a batch of events to the list; answers `list` itself when none of them changes it.
 * A new message is appended only when the list reaches the narrow's newest message and the
 * message belongs in the narrow (a search never matches locally: its view refetches).
 */
export function applyMessageEvents(
  list: MessageListState,
  events: readonly ServerEvent[],
  ownUserId: number,
): MessageListState {
  const batch = new Batch(list);
  for (const event of events) {
    switch (event.type) {
      case 'message': {
        if (!list.foundNewest) break;
        const message = messageFromEvent(event);
        if (messageInNarrow(list.narrow, message, message.flags, ownUserId)) batch.add(message);
        break;
      }
      case 'update_message':
        applyUpdate(batch, list, event, ownUserId);
        break;
      case 'delete_message':
        for (const id of event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]))
          batch.remove(id);
        break;
      case 'reaction':
        applyReaction(batch, event);
        break;
      case 'update_message_flags':
        applyFlags(batch, list, event);
        break;
      default:
        break;
    }
  }
  return batch.result();
}
