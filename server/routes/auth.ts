/** POST /fetch_api_key: login credentials for an API key. */
import { authenticatePassword } from '../auth';
import { ApiFailure } from '../errors';
import { route } from '../http';
import { checkLoginAllowed, recordLoginFailure } from '../ratelimit';

export const authEndpoints = [
  route({
    endpoint: 'POST /fetch_api_key',
    async handle({ ctx, params }) {
      const { username, password } = params;
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
  }),
];
