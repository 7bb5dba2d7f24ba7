/** The drafts substore: the server's drafts of this user (synchronized drafts only). */
import type { Draft, EventOf } from '../protocol';
import { type ById, byId, withEntry, withoutEntries } from './records';

export type DraftsState = ById<Draft>;
export type DraftsEvent = EventOf<'drafts'>;

export const draftsFromSnapshot = (drafts: readonly Draft[] | undefined): DraftsState =>
  byId(drafts, (d) => d.id);

export function handleDraftsEvent(state: DraftsState, event: DraftsEvent): DraftsState {
  switch (event.op) {
    case 'add': {
      let next = state;
      for (const draft of event.drafts) next = withEntry(next, draft.id, draft);
      return next;
    }
    case 'update':
      return withEntry(state, event.draft.id, event.draft);
    case 'remove':
      return withoutEntries(state, [event.draft_id]);
  }
}
