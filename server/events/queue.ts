/**
 * Event queues: one per registered client. Events get increasing ids per queue; a client
 * acknowledges with last_event_id, which drops what it has seen. Queues live in memory and
 * are written to the data directory over a graceful restart (persistence.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities } from '../../shared/protocol';

/** An event before it is queued: the queue adds the id. */
export interface OutgoingEvent {
  type: string;
  [key: string]: unknown;
}
export type QueuedEvent = OutgoingEvent & { id: number };

/** Legacy event types superseded by user_settings (feature level 89). */
const LEGACY_SETTINGS_EVENTS = new Set(['update_display_settings', 'update_global_notifications']);

export interface QueueSettings {
  userId: number;
  realmId: number;
  /** null: every type. */
  eventTypes: ReadonlySet<string> | null;
  capabilities: ClientCapabilities;
  allPublicStreams: boolean;
  narrow: readonly (readonly [string, string])[];
  applyMarkdown: boolean;
  clientExtavatar: boolean;
}

/** The narrow operators a queue can filter message events by (the interface family's set). */
export const NARROW_OPERATORS = ['stream', 'channel', 'topic', 'sender', 'is'] as const;

/** A message event as the narrow filter reads it. */
interface MessageLike {
  type?: unknown;
  display_recipient?: unknown;
  subject?: unknown;
  sender_email?: unknown;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Whether a message event passes the queue's narrow (every term must hold), as the family
 * filters them: stream/topic/sender by name, is:private|dm, starred, unread, mentioned|alerted.
 */
export function matchesNarrow(
  narrow: QueueSettings['narrow'],
  message: MessageLike,
  flags: readonly string[],
): boolean {
  for (const [operator, operand] of narrow) {
    switch (operator) {
      case 'stream':
      case 'channel':
        if (message.type !== 'stream' || !same(message.display_recipient, operand)) return false;
        break;
      case 'topic':
        if (message.type !== 'stream' || !same(message.subject, operand)) return false;
        break;
      case 'sender':
        if (!same(message.sender_email, operand)) return false;
        break;
      case 'is':
        if ((operand === 'private' || operand === 'dm') && message.type !== 'private') return false;
        if (operand === 'starred' && !flags.includes('starred')) return false;
        if (operand === 'unread' && flags.includes('read')) return false;
        if ((operand === 'mentioned' || operand === 'alerted') && !flags.includes('mentioned')) return false;
        break;
    }
  }
  return true;
}

/** An `update_message_flags` add of listed messages: the only kind of event merged. */
function isMergeableAdd(event: OutgoingEvent): boolean {
  return (
    event.type === 'update_message_flags' &&
    event.op === 'add' &&
    event.all === false &&
    Array.isArray(event.messages)
  );
}

/**
 * Whether a queued event stops the search for an earlier add to merge `event` into: any
 * event of the same flag (the candidate itself, or one whose order matters) and deletions.
 */
function blocksMerge(queued: OutgoingEvent, event: OutgoingEvent): boolean {
  if (queued.type === 'delete_message') return true;
  return queued.type === 'update_message_flags' && queued.flag === event.flag;
}

/** A queue as written to disk over a restart. */
export interface QueueDump {
  id: string;
  settings: Omit<QueueSettings, 'eventTypes'> & { eventTypes: string[] | null };
  events: QueuedEvent[];
  nextEventId: number;
  /** How long no client had been connected when the queue was written. */
  idleMs: number;
}

/**
 * A waiting GET /events. `finish` answers it with the queue's events of that moment and
 * detaches it; `fail` answers it with this error (an ApiFailure: its envelope) instead.
 */
export interface Waiter {
  finish(answer: PollAnswer): void;
  fail(error: Error): void;
}

/**
 * Each event's JSON text, made the first time a poll answers with it. One event object goes
 * to every queue that takes it (manager.ts), so the text is made once however many clients
 * get it; a queue adds only its own id.
 */
const eventTexts = new WeakMap<OutgoingEvent, string>();

/** The event with its id as JSON text: `{...event, id}`, made from the event's shared text. */
function queuedEventText(event: OutgoingEvent, id: number): string {
  // An event of its own `id` field would get it replaced: the spread does that, text cannot.
  if (Object.hasOwn(event, 'id')) return JSON.stringify({ ...event, id });
  let text = eventTexts.get(event);
  if (text === undefined) {
    text = JSON.stringify(event);
    eventTexts.set(event, text);
  }
  // `{...event, id}` is the event's own keys, then id: its text is the event's with id last.
  return text === '{}' ? `{"id":${id}}` : `${text.slice(0, -1)},"id":${id}}`;
}

/** What a poll is answered with: a queue's pending events (and their ids) at that moment. */
export class PollAnswer {
  static readonly empty = new PollAnswer([], []);

  /** json()'s text, once made. */
  private text: string | undefined;

  constructor(
    private readonly events: readonly OutgoingEvent[],
    private readonly ids: readonly number[],
  ) {}

  /** The events as the client gets them, each a copy with its id. */
  list(): QueuedEvent[] {
    return this.events.map((event, i) => ({ ...event, id: this.ids[i] as number }));
  }

  /**
   * `JSON.stringify(this.list())`, without copying the events or serializing one twice; made
   * once (the manager makes it before answering a poll, within its time budget).
   */
  json(): string {
    if (this.events.length === 0) return '[]';
    if (this.text !== undefined) return this.text;
    let text = '[';
    for (let i = 0; i < this.events.length; i++) {
      if (i > 0) text += ',';
      text += queuedEventText(this.events[i] as OutgoingEvent, this.ids[i] as number);
    }
    this.text = `${text}]`;
    return this.text;
  }
}

/**
 * A new queue id: a UUID as one flat string. randomUUID's own string is a rope of some twenty
 * pieces, about 480 bytes that an idle queue would keep for as long as it lives.
 */
function newQueueId(): string {
  return Buffer.from(randomUUID(), 'latin1').toString('latin1');
}

/** The events of a queue that has none yet: shared, never written (push replaces it first). */
const NO_EVENTS: never[] = [];

/**
 * One client's queue. Events are held as given (an event object is shared by every queue it
 * went to, never changed) beside their ids, and copied with the id only when read; an idle
 * queue with no events holds little more than its id.
 */
export class EventQueue {
  readonly id: string;
  private events: OutgoingEvent[] = NO_EVENTS;
  /** The events' ids, in the same order (increasing). */
  private ids: number[] = NO_EVENTS;
  private nextEventId = 0;
  waiter: Waiter | null = null;
  /** When a client was last connected: set at register and at the start and end of each poll. */
  lastConnectedMs: number;

  constructor(
    readonly settings: QueueSettings,
    nowMs: number,
    id: string = newQueueId(),
  ) {
    this.lastConnectedMs = nowMs;
    this.id = id;
  }

  /** The queue as written over a restart; a waiting poll counts as a connected client. */
  dump(nowMs: number): QueueDump {
    const { eventTypes, ...rest } = this.settings;
    return {
      id: this.id,
      settings: { ...rest, eventTypes: eventTypes === null ? null : [...eventTypes] },
      events: this.pending(),
      nextEventId: this.nextEventId,
      idleMs: this.waiter ? 0 : Math.max(0, nowMs - this.lastConnectedMs),
    };
  }

  /**
   * A queue read back after a restart. The downtime does not count as idle time (no client
   * could connect), the idle time before it does. `settings`, when given, stands for the
   * dump's (an equal object that other queues share).
   */
  static restore(dump: QueueDump, nowMs: number, settings?: QueueSettings): EventQueue {
    const { eventTypes, ...rest } = dump.settings;
    const queue = new EventQueue(
      settings ?? { ...rest, eventTypes: eventTypes === null ? null : new Set(eventTypes) },
      nowMs - dump.idleMs,
      dump.id,
    );
    queue.events = dump.events.map(({ id: _, ...event }) => event as OutgoingEvent);
    queue.ids = dump.events.map((event) => event.id);
    queue.nextEventId = dump.nextEventId;
    return queue;
  }

  get userId(): number {
    return this.settings.userId;
  }

  /** The id of the newest event ever queued, or -1. */
  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  /** Whether this client gets an event of this type at all. */
  wants(type: string): boolean {
    // The queue's own events reach every client whatever it asked for.
    if (type === 'heartbeat' || type === 'restart') return true;
    if (LEGACY_SETTINGS_EVENTS.has(type) && this.settings.capabilities.user_settings_object) return false;
    return this.settings.eventTypes === null || this.settings.eventTypes.has(type);
  }

  /**
   * Whether this client gets this event: its type, its narrow, its capabilities. It reads the
   * queue's settings only, so queues of equal settings answer alike (manager.ts relies on it).
   */
  accepts(event: OutgoingEvent): boolean {
    if (!this.wants(event.type)) return false;
    if (event.type === 'message' && this.settings.narrow.length > 0) {
      const message = (event.message ?? {}) as MessageLike;
      const flags = Array.isArray(event.flags) ? (event.flags as string[]) : [];
      return matchesNarrow(this.settings.narrow, message, flags);
    }
    // Typing in streams only for clients that declared they handle it.
    if (event.type === 'typing' && 'stream_id' in event) {
      return this.settings.capabilities.stream_typing_notifications === true;
    }
    return true;
  }

  /** Queues the event (kept as is, not copied: the caller must not change it afterwards). */
  push(event: OutgoingEvent): void {
    if (this.events === NO_EVENTS) {
      this.events = [];
      this.ids = [];
    }
    const merged = this.mergeFlags(event);
    this.events.push(merged);
    this.ids.push(this.nextEventId++);
  }

  /**
   * Flags added to messages while an earlier such event still waits in the queue travel as
   * one event (NOTES.md), under the new id: a client that saw the earlier one but has not
   * acknowledged it gets it again, merged, which is harmless for adding a flag. The earlier
   * event only moves past events that cannot change its meaning: never past another event
   * of the same flag (a removal, an `all` event) nor a message deletion, so the order of
   * an add, a remove and an add of one flag is kept.
   */
  private mergeFlags(event: OutgoingEvent): OutgoingEvent {
    if (!isMergeableAdd(event)) return event;
    const index = this.events.findLastIndex((e) => blocksMerge(e, event));
    const earlier = this.events[index];
    if (!earlier || !isMergeableAdd(earlier) || Object.keys(earlier).length !== Object.keys(event).length) {
      return event;
    }
    this.events.splice(index, 1);
    this.ids.splice(index, 1);
    const messages = [...new Set([...(earlier.messages as number[]), ...(event.messages as number[])])];
    return { ...event, messages: messages.sort((a, b) => a - b) };
  }

  /** Drops events the client has acknowledged (ids only grow along the queue). */
  acknowledge(lastEventId: number): void {
    let seen = 0;
    while (seen < this.ids.length && (this.ids[seen] as number) <= lastEventId) seen++;
    if (seen === 0) return;
    this.events.splice(0, seen);
    this.ids.splice(0, seen);
  }

  /** The pending events, for a poll's answer. */
  answer(): PollAnswer {
    return this.events.length === 0 ? PollAnswer.empty : new PollAnswer([...this.events], [...this.ids]);
  }

  pending(): QueuedEvent[] {
    return this.answer().list();
  }

  get hasPending(): boolean {
    return this.events.length > 0;
  }
}
