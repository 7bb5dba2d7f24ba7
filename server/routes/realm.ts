/** The organization: GET /server_settings (no sign-in) and PATCH /realm (administrators). */
import { doUpdateRealm, type RealmChanges, serverSettings } from '../actions/realm';
import { route } from '../http';
import { baseUrl } from './register';

export const realmEndpoints = [
  route({
    endpoint: 'GET /server_settings',
    handle(req) {
      return serverSettings(req.ctx, baseUrl(req));
    },
  }),
  route({
    endpoint: 'PATCH /realm',
    handle({ ctx, user, params }) {
      // Every declared setting, decoded (a bad value is refused here), in the catalogue's order.
      const changes: RealmChanges = { ...params };
      return doUpdateRealm(ctx, user, changes);
    },
  }),
];
