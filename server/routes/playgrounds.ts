/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{playground_id}. */
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds';
import { route } from '../http';
import { actionRoute } from './shapes';

export const playgroundEndpoints = [
  route({
    endpoint: 'POST /realm/playgrounds',
    handle({ ctx, user, params }) {
      // highlighter_language also comes as `pygments_language`, the family's older name.
      const { name, highlighter_language: language, url_prefix: urlPrefix } = params;
      return { id: doAddPlayground(ctx, user, { name, language, urlPrefix }) };
    },
  }),
  actionRoute('DELETE /realm/playgrounds/{playground_id}', ({ ctx, user, params }) =>
    doRemovePlayground(ctx, user, params.playground_id),
  ),
];
