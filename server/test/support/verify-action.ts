/**
 * verify_action, the interface family's check of an action's events: for each watched
 * client, register (the snapshot before), run the action, collect the events it caused,
 * apply them to the old snapshot (apply-events.ts), register again, and demand the same state.
 * Events are also validated against shared/protocol's schemas.
 */
import { expect } from 'vitest';
import type { ApiClient, Params } from '../../../shared/client';
import { parseEvent, type RawEvent } from '../../../shared/protocol';
import { applyEventsToState } from './apply-events';

/** What the desktop app registers with (DESIGN.md), plus subscribers so peer events count. */
export const DEFAULT_REGISTER_PARAMS: Params = {
  apply_markdown: true,
  include_subscribers: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    user_settings_object: true,
  },
};

/** Fields that differ between any two registers, or describe the request not the state. */
export const VOLATILE_KEYS: readonly string[] = [
  'result',
  'msg',
  'queue_id',
  'last_event_id',
  'server_timestamp',
];

export interface VerifyActionOptions<T> {
  /** Accepted for callers written to the brief's signature; the clients know their server. */
  url?: string;
  /** The users to watch, one queue each. */
  clients: readonly ApiClient[];
  /** register parameters for every client, or one set per client (same order). */
  registerParams?: Params | readonly Params[];
  action: () => Promise<T>;
  /** Compare only these snapshot keys (default: all keys of either snapshot but VOLATILE_KEYS). */
  stateKeys?: readonly string[];
  /** Further keys to leave out of the comparison. */
  ignoreKeys?: readonly string[];
  /** How long the queues must stay empty before the events are taken as complete. Default 150 ms. */
  quietMs?: number;
}

export interface VerifyActionResult<T> {
  /** The events each client got (heartbeats left out), in client order. */
  events: RawEvent[][];
  result: T;
  /** The fresh register state per client, for further assertions. */
  states: Record<string, unknown>[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const identity = (item: Record<string, unknown>): string | null => {
  if ('stream_id' in item && ('topic' in item || 'topic_name' in item)) {
    return `s${String(item.stream_id)}\u0000${String(item.topic ?? item.topic_name).toLowerCase()}`;
  }
  for (const key of ['id', 'stream_id', 'user_id', 'other_user_id', 'user_ids_string', 'key']) {
    if (key in item) return `${key}:${String(item[key])}`;
  }
  return null;
};

/**
 * The order of lists is not state: lists of plain values are sorted, lists of objects are
 * sorted by their identity (id, stream_id, user_id, ...), recursively.
 */
export function normalizeState(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(normalizeState);
    if (items.every((v) => typeof v === 'number')) return [...(items as number[])].sort((a, b) => a - b);
    if (items.every((v) => typeof v === 'string')) return [...(items as string[])].sort();
    const objects = items as Record<string, unknown>[];
    if (objects.every((v) => typeof v === 'object' && v !== null && identity(v) !== null)) {
      return [...objects].sort((a, b) => String(identity(a)).localeCompare(String(identity(b))));
    }
    return items;
  }
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) result[k] = normalizeState(v);
    return result;
  }
  return value;
}

async function register(client: ApiClient, params: Params): Promise<Record<string, unknown>> {
  return client.request('POST', '/register', params);
}

/** Takes events until a poll finds none and a second one, quietMs later, finds none either. */
async function drain(client: ApiClient, queueId: string, quietMs: number): Promise<RawEvent[]> {
  const events: RawEvent[] = [];
  let last = -1;
  let quiet = 0;
  while (quiet < 2) {
    const r = await client.getEvents({ queue_id: queueId, last_event_id: last, dont_block: true });
    if (r.events.length === 0) {
      quiet++;
      if (quiet < 2) await sleep(quietMs);
      continue;
    }
    quiet = 0;
    for (const event of r.events) {
      last = Math.max(last, event.id);
      if (event.type !== 'heartbeat') events.push(event);
    }
  }
  return events;
}

function compared(state: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of keys) result[key] = state[key];
  return normalizeState(result) as Record<string, unknown>;
}

export async function verifyAction<T>(options: VerifyActionOptions<T>): Promise<VerifyActionResult<T>> {
  const paramsFor = (i: number): Params => {
    const p = options.registerParams;
    if (Array.isArray(p)) return (p as readonly Params[])[i] ?? DEFAULT_REGISTER_PARAMS;
    return (p as Params | undefined) ?? DEFAULT_REGISTER_PARAMS;
  };
  const quietMs = options.quietMs ?? 150;
  const before = await Promise.all(options.clients.map((c, i) => register(c, paramsFor(i))));

  const result = await options.action();

  const events: RawEvent[][] = [];
  const states: Record<string, unknown>[] = [];
  for (const [i, client] of options.clients.entries()) {
    const old = before[i] as Record<string, unknown>;
    const queueId = old.queue_id as string;
    const got = await drain(client, queueId, quietMs);
    await client.deleteQueue(queueId);
    // A known type with a wrong shape fails here, with the event in the message.
    for (const event of got) {
      try {
        parseEvent(event);
      } catch (error) {
        throw new Error(
          `client ${i}: malformed ${event.type} event ${JSON.stringify(event)}: ${String(error)}`,
        );
      }
    }
    events.push(got);

    const params = paramsFor(i);
    const userId = old.user_id as number;
    const applied = applyEventsToState(old, got, userId, {
      includeSubscribers: params.include_subscribers === true,
    });
    const fresh = await register(client, params);
    await client.deleteQueue(fresh.queue_id as string);
    states.push(fresh);

    const ignored = new Set([...VOLATILE_KEYS, ...(options.ignoreKeys ?? [])]);
    // The reducer cannot re-query the newest message after a deletion (apply-events.ts).
    if (got.some((e) => e.type === 'delete_message')) {
      ignored.add('max_message_id');
      ignored.add('recent_private_conversations');
    }
    const keys = new Set(
      (options.stateKeys ?? [...Object.keys(old), ...Object.keys(fresh)]).filter((k) => !ignored.has(k)),
    );
    expect(
      compared(applied, keys),
      `client ${i} (user ${userId}): old snapshot + events vs fresh register`,
    ).toEqual(compared(fresh, keys));
  }
  return { events, result, states };
}
