/** GET /events (long-poll) and DELETE /events. */
import { missingArgument } from '../errors';
import { route } from '../http';
import { parseQueueParams } from './register';

export const eventEndpoints = [
  route({
    endpoint: 'GET /events',
    async handle({ ctx, user, params, reply }) {
      const { queue_id: queueId, last_event_id: lastEventId } = params;
      const dontBlock = params.dont_block ?? false;
      if (queueId === undefined) {
        // Register parameters instead of a queue_id register a queue (spec); the family does
        // so only when asked not to block, and answers with the new queue's (empty) events.
        if (!dontBlock) throw missingArgument('queue_id');
        const queue = ctx.queues.register(parseQueueParams(ctx, user, params).queue);
        return { events: [], queue_id: queue.id };
      }
      const queue = ctx.queues.get(queueId, user.id);
      const answer = await ctx.queues.wait(
        queue,
        { lastEventId, dontBlock },
        // A response closes once: `on` spares the wrapper `once` would add to every poll.
        { onClose: (listener) => reply.raw.on('close', listener) },
      );
      // The envelope http.ts would send, written around the events' text: one event reaching
      // thousands of waiting polls is serialized once, not once per poll.
      reply
        .type('application/json; charset=utf-8')
        .send(
          `{"result":"success","msg":"","events":${answer.json()},"queue_id":${JSON.stringify(queue.id)}}`,
        );
      return undefined;
    },
  }),
  route({
    endpoint: 'DELETE /events',
    handle({ ctx, user, params }) {
      const queue = ctx.queues.get(params.queue_id, user.id);
      ctx.queues.delete(queue);
      return {};
    },
  }),
];
