/** register's state for streams and subscriptions (fetch_event_types `stream`, `subscription`). */
import type { ClientCapabilities } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import type { UserRow } from '../db/users';
import { subscriptionState, visibleStreams } from '../objects/streams';

export interface StreamsStateOptions {
  clientCapabilities: ClientCapabilities;
  includeSubscribers: boolean;
}

export function streamsState(
  ctx: ServiceContext,
  user: UserRow,
  want: (type: string) => boolean,
  options: StreamsStateOptions,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  if (want('stream')) state.streams = visibleStreams(ctx.db, user);
  if (want('subscription')) {
    Object.assign(
      state,
      subscriptionState(
        ctx.db,
        user,
        options.includeSubscribers,
        options.clientCapabilities.notification_settings_null === true,
      ),
    );
  }
  return state;
}
