/**
 * Event queues: one per registered client. Events get increasing ids per queue; a client
 * acknowledges with last_event_id, which drops what it has seen. Queues live in memory.
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

export interface Waiter {
  /** Answers the waiting GET /events with these events and detaches it. */
  finish(events: QueuedEvent[]): void;
}

export class EventQueue {
  readonly id = randomUUID();
  private events: QueuedEvent[] = [];
  private nextEventId = 0;
  waiter: Waiter | null = null;
  /** When a client was last connected: set at register and at the start and end of each poll. */
  lastConnectedMs: number;

  constructor(
    readonly settings: QueueSettings,
    nowMs: number,
  ) {
    this.lastConnectedMs = nowMs;
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
    if (type === 'heartbeat') return true;
    if (LEGACY_SETTINGS_EVENTS.has(type) && this.settings.capabilities.user_settings_object) return false;
    return this.settings.eventTypes === null || this.settings.eventTypes.has(type);
  }

  push(event: OutgoingEvent): QueuedEvent {
    const queued = { ...event, id: this.nextEventId++ };
    this.events.push(queued);
    return queued;
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
