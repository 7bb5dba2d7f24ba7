/** Alert words: GET, POST and DELETE /users/me/alert_words; each answers the user's words. */
import { doAddAlertWords, doRemoveAlertWords, listAlertWords } from '../actions/alert-words';
import { fieldRoute } from './shapes';

export const alertWordEndpoints = [
  fieldRoute('GET /users/me/alert_words', 'alert_words', ({ ctx, user }) => listAlertWords(ctx, user)),
  fieldRoute('POST /users/me/alert_words', 'alert_words', ({ ctx, user, params }) =>
    doAddAlertWords(ctx, user, params.alert_words),
  ),
  fieldRoute('DELETE /users/me/alert_words', 'alert_words', ({ ctx, user, params }) =>
    doRemoveAlertWords(ctx, user, params.alert_words),
  ),
];
