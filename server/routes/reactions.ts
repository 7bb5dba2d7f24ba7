/** POST and DELETE /messages/{message_id}/reactions: emoji reactions. */
import { addReaction, removeReaction } from '../actions/reactions';
import { route } from '../http';

/** The emoji as the request names it. */
function emojiOf<
  P extends {
    emoji_name?: string | undefined;
    emoji_code?: string | undefined;
    reaction_type?: string | undefined;
  },
>(params: P) {
  return { name: params.emoji_name, code: params.emoji_code, type: params.reaction_type };
}

export const reactionEndpoints = [
  route({
    endpoint: 'POST /messages/{message_id}/reactions',
    handle({ ctx, user, params }) {
      addReaction(ctx, user, params.message_id, { ...emojiOf(params), name: params.emoji_name });
      return undefined;
    },
  }),
  route({
    endpoint: 'DELETE /messages/{message_id}/reactions',
    handle({ ctx, user, params }) {
      removeReaction(ctx, user, params.message_id, emojiOf(params));
      return undefined;
    },
  }),
];
