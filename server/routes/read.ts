/** POST /mark_all_as_read, /mark_stream_as_read, /mark_topic_as_read. */
import { markAllAsRead, markStreamAsRead, topicExists } from '../actions/read';
import type { ServiceContext } from '../context';
import { getStream, type StreamRow } from '../db/streams';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import type { Endpoint, SuccessFields } from '../http';
import { accessStream } from '../objects/streams';
import { int, str } from '../params';

/** The stream if the user may use its content, else "Invalid stream ID" (no hint that it exists). */
export function accessStreamById(ctx: ServiceContext, user: UserRow, streamId: number): StreamRow {
  const stream = getStream(ctx.db, streamId);
  if (!stream || stream.realm_id !== ctx.realmId || !accessStream(ctx.db, user, stream))
    throw badRequest('Invalid stream ID');
  return stream;
}

/** HTTP 200 for work cut short by the time budget after progress; the client repeats the request. */
export const PARTIALLY_COMPLETED: SuccessFields = { result: 'partially_completed', code: 'REQUEST_TIMEOUT' };

export const readEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/mark_all_as_read',
    auth: 'user',
    async handle({ ctx, user }) {
      return (await markAllAsRead(ctx, user.id)).complete ? undefined : PARTIALLY_COMPLETED;
    },
  },
  {
    method: 'POST',
    path: '/mark_stream_as_read',
    auth: 'user',
    handle({ ctx, user, params }) {
      const stream = accessStreamById(ctx, user, params.required('stream_id', int));
      markStreamAsRead(ctx, user.id, stream);
      return undefined;
    },
  },
  {
    method: 'POST',
    path: '/mark_topic_as_read',
    auth: 'user',
    handle({ ctx, user, params }) {
      const stream = accessStreamById(ctx, user, params.required('stream_id', int));
      const topic = params.required('topic_name', str);
      if (!topicExists(ctx, user.id, stream.id, topic)) throw badRequest(`No such topic '${topic}'`);
      markStreamAsRead(ctx, user.id, stream, topic);
      return undefined;
    },
  },
];
