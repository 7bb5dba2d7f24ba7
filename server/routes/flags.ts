/** POST /messages/flags and POST /messages/flags/narrow: personal message flags. */
import { checkFlagChange, updateMessageFlagsForNarrow, updateMessageFlagsInSlices } from '../actions/flags';
import { route } from '../http';

export const flagEndpoints = [
  route({
    endpoint: 'POST /messages/flags',
    async handle({ ctx, user, params }) {
      const change = checkFlagChange(params.op, params.flag);
      await updateMessageFlagsInSlices(ctx, user, change, params.messages);
      // The family answers the ids as sent.
      return { messages: params.messages };
    },
  }),
  route({
    endpoint: 'POST /messages/flags/narrow',
    async handle({ ctx, user, params }) {
      const change = checkFlagChange(params.op, params.flag);
      return updateMessageFlagsForNarrow(ctx, user, change, {
        anchor: params.anchor,
        includeAnchor: params.include_anchor ?? true,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
      });
    },
  }),
];
