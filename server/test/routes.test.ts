/**
 * The routes and the endpoint catalogue are one contract: every entry has exactly one route
 * and every route an entry, checked here, at compile time, and again when the server starts
 * (registerEndpoints refuses a table that does not pair).
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, type EndpointName, endpointName, PAGES } from '../../shared/protocol';
import { type AnyRoute, pairRoutes } from '../http';
import { type apiEndpoints, apiRoutes, type pageEndpoints, pageRoutes } from '../routes';

// A compile error here (npm test's typecheck) names the catalogue entries no route serves; it
// is a check of types only, so the tests below check the same at run time.
type Routed = (typeof apiEndpoints)[number]['endpoint'] | (typeof pageEndpoints)[number]['endpoint'];
type Unrouted = Exclude<EndpointName, Routed>;
true satisfies [Unrouted] extends [never] ? true : Unrouted;

describe('routes and catalogue', () => {
  it('pair one to one, for the REST API and for the pages', () => {
    const api = pairRoutes(apiRoutes).map(([spec, route]) => [endpointName(spec), route.endpoint]);
    expect(api).toHaveLength(ENDPOINTS.length);
    for (const [entry, route] of api) expect(route).toBe(entry);
    expect(pairRoutes(pageRoutes)).toHaveLength(PAGES.length);
  });

  it('refuse a route without a catalogue entry', () => {
    const stray = { endpoint: 'GET /no_such_endpoint', handle: () => undefined } as unknown as AnyRoute;
    expect(() => pairRoutes({ ...apiRoutes, routes: [...apiRoutes.routes, stray] })).toThrow(
      'route GET /no_such_endpoint has no catalogue entry',
    );
  });

  it('refuse a catalogue entry without a route, and an entry with two', () => {
    const [first, ...rest] = apiRoutes.routes;
    expect(() => pairRoutes({ ...apiRoutes, routes: rest })).toThrow(
      `catalogue entry ${first?.endpoint} has no route`,
    );
    expect(() => pairRoutes({ ...apiRoutes, routes: [...apiRoutes.routes, first as AnyRoute] })).toThrow(
      `${first?.endpoint} has two routes`,
    );
  });
});
