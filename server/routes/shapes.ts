/**
 * The shapes most routes take, so that a route says only what is its own: an action answered
 * with a bare success, one field computed from the request, or the organization's list of
 * something. Each is a plain `route()` underneath: the request is typed from the catalogue entry
 * and parameters are decoded as the callback reads them, so the order of checks stays the route's.
 */
import type { EndpointName } from '../../shared/protocol';
import type { Db } from '../db';
import { type Route, type RouteRequest, route } from '../http';

/** A route that does one thing and answers `{result: 'success', msg: ''}` alone. */
export function actionRoute<N extends EndpointName>(
  endpoint: N,
  act: (req: RouteRequest<N>) => void | Promise<void>,
): Route<N> {
  return route({
    endpoint,
    async handle(req) {
      await act(req);
      return undefined;
    },
  });
}

/** A route whose answer is one field, `{[field]: compute(request)}`. */
export function fieldRoute<N extends EndpointName>(
  endpoint: N,
  field: string,
  compute: (req: RouteRequest<N>) => unknown,
): Route<N> {
  return route({
    endpoint,
    async handle(req) {
      return { [field]: await compute(req) };
    },
  });
}

/** A route answering the organization's list of something, `{[field]: list(db, realmId)}`. */
export function realmListRoute<N extends EndpointName>(
  endpoint: N,
  field: string,
  list: (db: Db, realmId: number) => unknown,
): Route<N> {
  return fieldRoute(endpoint, field, ({ ctx }) => list(ctx.db, ctx.realmId));
}
