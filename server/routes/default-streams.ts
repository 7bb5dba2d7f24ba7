/**
 * Beyond the spec (issue 8): the organization's default streams, GET, POST and
 * DELETE /default_streams (actions/default-streams.ts).
 */
import { doAddDefaultStream, doRemoveDefaultStream } from '../actions/default-streams';
import { defaultStreamObjects } from '../formats/streams';
import { route } from '../http';

export const defaultStreamEndpoints = [
  route({
    endpoint: 'GET /default_streams',
    handle({ ctx }) {
      return { default_streams: defaultStreamObjects(ctx.db, ctx.realmId) };
    },
  }),
  route({
    endpoint: 'POST /default_streams',
    handle({ ctx, user, params }) {
      doAddDefaultStream(ctx, user, params.stream_id);
      return {};
    },
  }),
  route({
    endpoint: 'DELETE /default_streams',
    handle({ ctx, user, params }) {
      doRemoveDefaultStream(ctx, user, params.stream_id);
      return {};
    },
  }),
];
