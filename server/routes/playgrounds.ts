/** Code playgrounds: POST /realm/playgrounds, DELETE /realm/playgrounds/{playground_id}. */
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds';
import { requireAdmin } from '../actions/users';
import { missingArgument } from '../errors';
import type { Endpoint } from '../http';
import { str } from '../params';
import { pathId } from './drafts';

export const playgroundEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/realm/playgrounds',
    auth: 'user',
    handle({ ctx, user, params }) {
      requireAdmin(user);
      const name = params.required('name', str);
      // `pygments_language` is the family's name for it: still accepted as an alias.
      const language =
        params.optional('highlighter_language', str) ?? params.optional('pygments_language', str);
      if (language === undefined) throw missingArgument('highlighter_language');
      const urlPrefix = params.required('url_prefix', str);
      return { id: doAddPlayground(ctx, user, { name, language, urlPrefix }) };
    },
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/:playground_id',
    auth: 'user',
    handle({ ctx, user, path }) {
      requireAdmin(user);
      doRemovePlayground(ctx, user, pathId('playground_id', path.playground_id));
      return undefined;
    },
  },
];
