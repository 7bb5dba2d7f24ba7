/** POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read. */
import { accessStreamById } from '../actions/access';
import { markAllAsRead, markStreamAsRead } from '../actions/read';
import { route, type SuccessFields } from '../http';

/** HTTP 200 for work cut short by the time budget after progress; the client repeats the request. */
export const PARTIALLY_COMPLETED: SuccessFields = { result: 'partially_completed', code: 'REQUEST_TIMEOUT' };

export const readEndpoints = [
  route({
    endpoint: 'POST /mark_all_as_read',
    async handle({ ctx, user }) {
      return (await markAllAsRead(ctx, user.id)).complete ? undefined : PARTIALLY_COMPLETED;
    },
  }),
  route({
    endpoint: 'POST /mark_stream_as_read',
    async handle({ ctx, user, params }) {
      const stream = accessStreamById(ctx, user, params.stream_id);
      await markStreamAsRead(ctx, user.id, stream);
      return undefined;
    },
  }),
  route({
    endpoint: 'POST /mark_topic_as_read',
    async handle({ ctx, user, params }) {
      const stream = accessStreamById(ctx, user, params.stream_id);
      await markStreamAsRead(ctx, user.id, stream, params.topic_name);
      return undefined;
    },
  }),
];
