/** POST /users/me/status. */
import { checkStatusRequest, doUpdateStatus } from '../actions/status';
import { route } from '../http';

export const statusEndpoints = [
  route({
    endpoint: 'POST /users/me/status',
    handle({ ctx, user, params }) {
      // Everything is checked before anything is written: a bad request changes nothing.
      const change = checkStatusRequest(ctx, {
        statusText: params.status_text,
        away: params.away,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      });
      doUpdateStatus(ctx, user.id, change);
      return {};
    },
  }),
];
