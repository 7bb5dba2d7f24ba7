/**
 * Helpers of the message edit/delete/history tests: sending as a demo user, raw calls that
 * answer status and body, the organization's message settings set directly in the database.
 */
import { expect } from 'vitest';
import type { ApiClient } from '../../../shared/client';
import { authOf, call, type RawResponse, type TestService } from './service';

export function messageHelpers(svc: TestService) {
  /** A request as `client`, answering status and body (errors included). */
  const as = (client: ApiClient, method: string, path: string, params: Record<string, unknown> = {}) =>
    call(svc.url, method, path, { auth: authOf(client), params: params as never });

  /** Sends a stream message (or a direct one with `to` a list of ids) and answers its id. */
  async function send(
    client: ApiClient,
    to: string | number[],
    content: string,
    topic = 'edits',
  ): Promise<number> {
    const params =
      typeof to === 'string'
        ? { type: 'stream', to, topic, content }
        : { type: 'private', to: JSON.stringify(to), content };
    const r = await as(client, 'POST', '/messages', params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.id as number;
  }

  /** Sets organization settings (realm.settings JSON) as PATCH /realm would. */
  function setRealm(settings: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(settings))
      svc.sql(`UPDATE realm SET settings = json_set(settings, '$.${key}', json(?))`, JSON.stringify(value));
  }

  /** Moves a message's sending time back by `seconds`. */
  function age(messageId: number, seconds: number): void {
    svc.sql('UPDATE messages SET date_sent = date_sent - ? WHERE id = ?', seconds, messageId);
  }

  return { as, send, setRealm, age };
}

/** Expects the family's error envelope. */
export function expectError(r: RawResponse, msg: string, code = 'BAD_REQUEST', status = 400): void {
  expect({ status: r.status, msg: r.body.msg, code: r.body.code, result: r.body.result }).toEqual({
    status,
    msg,
    code,
    result: 'error',
  });
}
