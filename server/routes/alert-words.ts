/** Alert words: GET, POST and DELETE /users/me/alert_words. */
import { doAddAlertWords, doRemoveAlertWords, listAlertWords } from '../actions/alert-words';
import { route } from '../http';

export const alertWordEndpoints = [
  route({
    endpoint: 'GET /users/me/alert_words',
    handle({ ctx, user }) {
      return { alert_words: listAlertWords(ctx, user) };
    },
  }),
  route({
    endpoint: 'POST /users/me/alert_words',
    handle({ ctx, user, params }) {
      return { alert_words: doAddAlertWords(ctx, user, params.alert_words) };
    },
  }),
  route({
    endpoint: 'DELETE /users/me/alert_words',
    handle({ ctx, user, params }) {
      return { alert_words: doRemoveAlertWords(ctx, user, params.alert_words) };
    },
  }),
];
