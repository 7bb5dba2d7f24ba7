/** POST /fetch_api_key: login credentials for an API key. */
import { authenticatePassword } from '../auth';
import { ApiFailure } from '../errors';
import type { Endpoint } from '../http';
import { str } from '../params';
import { checkLoginAllowed, recordLoginFailure } from '../ratelimit';

export const authEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    async handle({ ctx, params }) {
      const username = params.required('username', str);
      const password = params.required('password', str);
      // Password guessing: 5 failures per username in 30 minutes, then even the right
      // password is refused until the oldest failure has aged out (the family's rule).
      checkLoginAllowed(ctx.rateLimits, username);
      try {
        const user = await authenticatePassword(ctx.db, ctx.realmId, username, password);
        return { api_key: user.api_key, email: user.email };
      } catch (error) {
        if (error instanceof ApiFailure && error.code === 'AUTHENTICATION_FAILED') {
          recordLoginFailure(ctx.rateLimits, username);
        }
        throw error;
      }
    },
  },
];
