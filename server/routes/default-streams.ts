/**
 * Beyond the spec (issue 8): the organization's default streams, GET, POST and
 * DELETE /default_streams (actions/default-streams.ts).
 */
import { doAddDefaultStream, doRemoveDefaultStream } from '../actions/default-streams';
import { defaultStreamObjects } from '../formats/streams';
import { actionRoute, realmListRoute } from './shapes';

export const defaultStreamEndpoints = [
  realmListRoute('GET /default_streams', 'default_streams', defaultStreamObjects),
  actionRoute('POST /default_streams', ({ ctx, user, params }) =>
    doAddDefaultStream(ctx, user, params.stream_id),
  ),
  actionRoute('DELETE /default_streams', ({ ctx, user, params }) =>
    doRemoveDefaultStream(ctx, user, params.stream_id),
  ),
];
