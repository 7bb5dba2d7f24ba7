/** POST /fetch_api_key: login credentials for an API key. */
import { authenticatePassword } from '../auth';
import type { Endpoint } from '../http';
import { str } from '../params';

export const authEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    async handle({ ctx, params }) {
      const username = params.required('username', str);
      const password = params.required('password', str);
      const user = await authenticatePassword(ctx.db, ctx.realmId, username, password);
      return { api_key: user.api_key, email: user.email };
    },
  },
];
