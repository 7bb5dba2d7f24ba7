/** Linkifiers: GET /realm/linkifiers (and the older GET /realm/filters), POST/PATCH/DELETE /realm/filters. */
import { doAddLinkifier, doRemoveLinkifier, doUpdateLinkifier } from '../actions/linkifiers';
import { listLinkifiers } from '../db/linkifiers';
import { route } from '../http';
import { actionRoute, realmListRoute } from './shapes';

export const linkifierEndpoints = [
  realmListRoute('GET /realm/linkifiers', 'linkifiers', listLinkifiers),
  route({
    endpoint: 'GET /realm/filters',
    handle({ ctx }) {
      const filters = listLinkifiers(ctx.db, ctx.realmId).map((l) => [l.pattern, l.url_template, l.id]);
      return { filters };
    },
  }),
  route({
    endpoint: 'POST /realm/filters',
    handle({ ctx, user, params }) {
      return { id: doAddLinkifier(ctx, user, { pattern: params.pattern, urlTemplate: params.url_template }) };
    },
  }),
  actionRoute('PATCH /realm/filters/{filter_id}', ({ ctx, user, params }) => {
    // The body first: a missing argument is reported before the path's id is judged.
    const input = { pattern: params.pattern, urlTemplate: params.url_template };
    doUpdateLinkifier(ctx, user, params.filter_id, input);
  }),
  actionRoute('DELETE /realm/filters/{filter_id}', ({ ctx, user, params }) =>
    doRemoveLinkifier(ctx, user, params.filter_id),
  ),
];
