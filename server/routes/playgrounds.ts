/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{playground_id}. */
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds';
import { route } from '../http';

export const playgroundEndpoints = [
  route({
    endpoint: 'POST /realm/playgrounds',
    handle({ ctx, user, params }) {
      // highlighter_language also comes as `pygments_language`, the family's older name.
      const { name, highlighter_language: language, url_prefix: urlPrefix } = params;
      return { id: doAddPlayground(ctx, user, { name, language, urlPrefix }) };
    },
  }),
  route({
    endpoint: 'DELETE /realm/playgrounds/{playground_id}',
    handle({ ctx, user, params }) {
      doRemovePlayground(ctx, user, params.playground_id);
      return undefined;
    },
  }),
];
