/** Typing notifications: POST /typing. */
import { doSendTypingNotification } from '../actions/typing';
import { route } from '../http';

export const typingEndpoints = [
  route({
    endpoint: 'POST /typing',
    handle({ ctx, user, params }) {
      doSendTypingNotification(ctx, user, {
        type: params.type ?? 'direct',
        op: params.op,
        to: params.to,
        streamId: params.stream_id,
        topic: params.topic,
      });
      return {};
    },
  }),
];
