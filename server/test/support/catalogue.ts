/**
 * Shared by the table-driven tests (malformed.test.ts, auth_matrix.test.ts): fixtures that
 * resolve the catalogue's `{placeholders}`, and requests built from an endpoint's examples.
 */
import type { ApiClient } from '../../../shared/client';
import { type EndpointSpec, endpointName, type ParamSpec } from '../../../shared/protocol';
import { authOf, call, type RawResponse, type TestService } from './service';

export type Fixtures = Record<string, string>;

/** Objects the examples point at, created by `owner` (who may do everything). */
export async function makeFixtures(svc: TestService, owner: ApiClient, alice: ApiClient): Promise<Fixtures> {
  const subs = await owner.request('GET', '/users/me/subscriptions');
  const general = (subs.subscriptions as { name: string; stream_id: number }[]).find(
    (s) => s.name === 'general',
  );
  const aliceId = (await alice.request('GET', '/users/me')).user_id as number;
  const message = await owner.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'fixtures',
    content: 'a message for the tests',
  });
  // DELETE /messages/{message_id} takes this one, so `message` stays for the others.
  const deletable = await owner.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic: 'fixtures',
    content: 'a message to delete',
  });
  const draft = await owner.request('POST', '/drafts', {
    drafts: [{ type: '', to: [], topic: '', content: 'fixture draft' }],
  });
  const playground = await owner.request('POST', '/realm/playgrounds', {
    name: 'Fixture playground',
    highlighter_language: 'Rust',
    url_prefix: 'https://play.example/?code=',
  });
  const queue = await owner.request('POST', '/register', { event_types: ['heartbeat'] });
  // A stream of its own for DELETE /streams/{stream_id} (archiving), so general stays.
  await owner.request('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'fixture archive' }] });
  const mine = (await owner.request('GET', '/users/me/subscriptions')).subscriptions as { name: string }[];
  const archive = (mine.find((s) => s.name === 'fixture archive') as { stream_id?: number }).stream_id;
  return {
    stream_id: String(general?.stream_id),
    user_id: String(aliceId),
    email: svc.demo.users.alice,
    password: svc.demo.password,
    message_id: String(message.id),
    deletable_message_id: String(deletable.id),
    draft_id: String((draft.ids as number[])[0]),
    playground_id: String(playground.id),
    queue_id: String(queue.queue_id),
    archive_stream_id: String(archive),
    integration_name: 'helloworld',
    webhook_api_key: svc.demo.webhook_bot.api_key,
  };
}

export function resolve(text: string, fixtures: Fixtures): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => fixtures[name] ?? whole);
}

export interface Values {
  /** Raw values by parameter name; a missing name is not sent. */
  [name: string]: string;
}

/** The examples of every parameter (required or not), resolved. */
export function exampleValues(endpoint: EndpointSpec, fixtures: Fixtures, which: 'all' | 'required'): Values {
  const values: Values = {};
  for (const p of endpoint.params) {
    if (which === 'all' || p.required) values[p.name] = resolve(p.example, fixtures);
  }
  return values;
}

/** Sends one request: path parameters into the path, query ones in the URL, others as a form. */
export async function send(
  svc: TestService,
  endpoint: EndpointSpec,
  values: Values,
  auth: ApiClient | [string, string] | null,
): Promise<RawResponse> {
  const byName = new Map<string, ParamSpec>(endpoint.params.map((p) => [p.name, p]));
  let path = endpoint.path;
  const queryParts: string[] = [];
  const form: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const where = byName.get(name)?.in ?? 'body';
    const pair = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(value));
    else if (where === 'query' || endpoint.method === 'GET') queryParts.push(pair);
    else form.push(pair);
  }
  if (queryParts.length > 0) path += `?${queryParts.join('&')}`;
  const options: Parameters<typeof call>[3] = {};
  if (auth) options.auth = Array.isArray(auth) ? auth : authOf(auth);
  if (endpoint.method !== 'GET') {
    options.body = form.join('&');
    options.headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
  }
  return call(svc.url, endpoint.method, path, options);
}

export const nameOf = endpointName;
