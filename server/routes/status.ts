/** POST /users/me/status. */
import { checkStatusRequest, doUpdateStatus } from '../actions/status';
import { badRequest } from '../errors';
import type { Endpoint } from '../http';
import { bool, type Decoder } from '../params';

/** A bare string without NUL characters (which no stored text may hold). */
const text: Decoder<string> = (name, raw) => {
  if (raw.includes('\0')) throw badRequest(`${name} contains NULL (0x00) characters.`);
  return raw;
};

export const statusEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/users/me/status',
    auth: 'user',
    handle({ ctx, user, params }) {
      // Everything is checked before anything is written: a bad request changes nothing.
      const change = checkStatusRequest(ctx, {
        statusText: params.optional('status_text', text),
        away: params.optional('away', bool),
        emojiName: params.optional('emoji_name', text),
        emojiCode: params.optional('emoji_code', text),
        reactionType: params.optional('reaction_type', text),
      });
      doUpdateStatus(ctx, user.id, change);
      return {};
    },
  },
];
