/**
 * register's state for streams and subscriptions (fetch_event_types `stream`, `subscription`)
 * and the organization's default streams (`default_streams`).
 */
import { defaultStreamObjects, subscriptionState, visibleStreams } from '../../formats/streams';
import { isGuest } from '../../permissions';
import type { AreaRequest, State } from './index';

export function streamsState({ ctx, user, want, options }: AreaRequest): State {
  const state: State = {};
  if (want('stream')) state.streams = visibleStreams(ctx.db, user);
  // Guests are not told the organization's default streams, as in the family.
  if (want('default_streams'))
    state.realm_default_streams = isGuest(user) ? [] : defaultStreamObjects(ctx.db, user.realm_id);
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
