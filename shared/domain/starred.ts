/**
 * The starred substore: the ids of the user's starred messages, ascending (register's
 * `starred_messages`), kept by `update_message_flags` for the `starred` flag and by
 * `delete_message`. The sidebar counts them when `starred_message_counts` is on.
 */
import type { EventOf } from '../protocol';

export type StarredState = readonly number[];

export function starredFromSnapshot(ids: unknown): StarredState {
  if (!Array.isArray(ids)) return [];
  return [...new Set(ids.filter((id): id is number => Number.isInteger(id)))].sort((a, b) => a - b);
}

export function handleStarredFlagsEvent(
  state: StarredState,
  event: EventOf<'update_message_flags'>,
): StarredState {
  if (event.flag !== 'starred' || event.messages.length === 0) return state;
  if (event.op === 'add') {
    const added = event.messages.filter((id) => !state.includes(id));
    return added.length === 0 ? state : starredFromSnapshot([...state, ...added]);
  }
  const gone = new Set(event.messages);
  const kept = state.filter((id) => !gone.has(id));
  return kept.length === state.length ? state : kept;
}

export function handleStarredDeleteEvent(
  state: StarredState,
  event: EventOf<'delete_message'>,
): StarredState {
  const gone = new Set(event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]));
  const kept = state.filter((id) => !gone.has(id));
  return kept.length === state.length ? state : kept;
}
