/** GET /events (long-poll) and DELETE /events. */
import { missingArgument } from '../errors';
import type { Endpoint } from '../http';
import { bool, int, str } from '../params';
import { parseQueueParams } from './register';

export const eventEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/events',
    auth: 'user',
    async handle({ ctx, user, params, reply }) {
      const queueId = params.optional('queue_id', str);
      const lastEventId = params.optional('last_event_id', int);
      const dontBlock = params.optional('dont_block', bool, false);
      if (queueId === undefined) {
        // Register parameters instead of a queue_id register a queue (spec); the family does
        // so only when asked not to block, and answers with the new queue's (empty) events.
        if (!dontBlock) throw missingArgument('queue_id');
        const queue = ctx.queues.register(parseQueueParams(ctx, user, params).queue);
        return { events: [], queue_id: queue.id };
      }
      const queue = ctx.queues.get(queueId, user.id);
      const events = await ctx.queues.poll(
        queue,
        { lastEventId, dontBlock },
        { onClose: (listener) => reply.raw.once('close', listener) },
      );
      return { events, queue_id: queue.id };
    },
  },
  {
    method: 'DELETE',
    path: '/events',
    auth: 'user',
    handle({ ctx, user, params }) {
      const queue = ctx.queues.get(params.required('queue_id', str), user.id);
      ctx.queues.delete(queue);
      return {};
    },
  },
];
