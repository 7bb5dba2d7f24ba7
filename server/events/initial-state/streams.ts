/** register's state for streams and subscriptions (fetch_event_types `stream`, `subscription`). */
import { subscriptionState, visibleStreams } from '../../formats/streams';
import type { AreaRequest, State } from './index';

export function streamsState({ ctx, user, want, options }: AreaRequest): State {
  const state: State = {};
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
