/**
 * The streams substore (the register's `streams`: every stream the user can see) and the
 * update rule that every list of stream objects shares.
 */
import type { EventOf } from '../protocol';
import { type ById, byId, mapEntries, withEntry, withoutEntries } from './records';

/** A stream object as the register snapshot and the events carry it (fields pass through). */
export type StreamInfo = Readonly<{ stream_id: number; name: string } & Record<string, unknown>>;
export type StreamsState = ById<StreamInfo>;
export type StreamEvent = EventOf<'stream'>;
export type StreamUpdateEvent = Extract<StreamEvent, { op: 'update' }>;

export function streamsFromSnapshot(streams: readonly StreamInfo[] | undefined): StreamsState {
  return byId(streams, (s) => s.stream_id);
}

/** Event fields that describe the event rather than the stream. */
const ENVELOPE = new Set(['id', 'type', 'op', 'stream_id', 'name', 'property', 'value']);

/**
 * One stream update on one stream object: the property, the legacy flag that mirrors
 * stream_post_policy, and the companion values some updates carry (rendered_description with
 * description, history_public_to_subscribers with invite_only) where the object has them.
 */
export function updateStreamObject<T extends StreamInfo>(stream: T, event: StreamUpdateEvent): T {
  const next: Record<string, unknown> = { ...stream, [event.property]: event.value };
  if (event.property === 'stream_post_policy') next.is_announcement_only = event.value === 2;
  for (const [key, value] of Object.entries(event)) {
    if (!ENVELOPE.has(key) && key in stream) next[key] = value;
  }
  return next as T;
}

export function handleStreamEvent(state: StreamsState, event: StreamEvent): StreamsState {
  switch (event.op) {
    case 'create': {
      let next = state;
      for (const stream of event.streams) {
        if (!Object.hasOwn(next, stream.stream_id)) next = withEntry(next, stream.stream_id, stream);
      }
      return next;
    }
    case 'delete':
      return withoutEntries(
        state,
        event.streams.map((s) => s.stream_id),
      );
    case 'update':
      return mapEntries(state, (stream, id) =>
        id === event.stream_id ? updateStreamObject(stream, event) : stream,
      );
  }
}
