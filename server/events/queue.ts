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

export interface Waiter {
  /** Answers the waiting GET /events with these events and detaches it. */
  finish(events: QueuedEvent[]): void;
  /** Answers the waiting GET /events with this error (an ApiFailure: its envelope) and detaches it. */
  fail(error: Error): void;
}

export class EventQueue {
  readonly id: string;
  private events: QueuedEvent[] = [];
  private nextEventId = 0;
  waiter: Waiter | null = null;
  /** When a client was last connected: set at register and at the start and end of each poll. */
  lastConnectedMs: number;

  constructor(
    readonly settings: QueueSettings,
    nowMs: number,
    id: string = randomUUID(),
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
   * could connect), the idle time before it does.
   */
  static restore(dump: QueueDump, nowMs: number): EventQueue {
    const { eventTypes, ...rest } = dump.settings;
    const queue = new EventQueue(
      { ...rest, eventTypes: eventTypes === null ? null : new Set(eventTypes) },
      nowMs - dump.idleMs,
      dump.id,
    );
    queue.events = dump.events;
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

  /** Whether this client gets this event: its type, its narrow, its capabilities. */
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

  push(event: OutgoingEvent): QueuedEvent {
    const merged = this.mergeFlags(event);
    const queued = { ...merged, id: this.nextEventId++ };
    this.events.push(queued);
    return queued;
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
    if (
      !earlier ||
      !isMergeableAdd(earlier) ||
      Object.keys(earlier).length !== Object.keys(event).length + 1
    ) {
      return event;
    }
    this.events.splice(index, 1);
    const messages = [...new Set([...(earlier.messages as number[]), ...(event.messages as number[])])];
    return { ...event, messages: messages.sort((a, b) => a - b) };
  }

  /** Drops events the client has acknowledged. */
  acknowledge(lastEventId: number): void {
    if (this.events.length > 0 && this.events[0] !== undefined && this.events[0].id <= lastEventId) {
      this.events = this.events.filter((e) => e.id > lastEventId);
    }
  }

  pending(): QueuedEvent[] {
    return [...this.events];
  }

  get hasPending(): boolean {
    return this.events.length > 0;
  }
}
