/**
 * Which error a request with several faults gets. The router decodes parameters from the
 * catalogue, but only when a route reads them, so each route's own order of checks decides,
 * as it did when the routes decoded by hand: these are the answers the service gave before
 * the catalogue drove the router, and a request the service accepted stays accepted.
 */
import { describe, expect, it } from 'vitest';
import { authOf, call, type RawResponse, serviceWith } from './support/service';

const { svc, admin, alice, bob } = await serviceWith(['admin', 'alice', 'bob']);

const error = (r: RawResponse) => ({ status: r.status, msg: r.body.msg, code: r.body.code });
const badRequest = (msg: string) => ({ status: 400, msg, code: 'BAD_REQUEST' });

describe('parameters are judged in the order the route reads them', () => {
  it('GET /events with a queue ignores register parameters it does not use, even malformed ones', async () => {
    const queue = await call(svc.url, 'POST', '/register', { auth: authOf(alice), params: {} });
    expect(queue.status).toBe(200);
    const r = await call(svc.url, 'GET', '/events', {
      auth: authOf(alice),
      params: {
        queue_id: String(queue.body.queue_id),
        last_event_id: String(queue.body.last_event_id),
        dont_block: 'true',
        apply_markdown: 'yes',
        narrow: 'x',
      },
    });
    expect({ status: r.status, result: r.body.result, events: r.body.events }).toEqual({
      status: 200,
      result: 'success',
      events: [],
    });
  });

  it('drafts with synchronization off are refused for that before their body is judged', async () => {
    const off = await call(svc.url, 'PATCH', '/settings', {
      auth: authOf(bob),
      params: { enable_drafts_synchronization: 'false' },
    });
    expect(off.status).toBe(200);
    const disabled = badRequest('User has disabled synchronizing drafts.');
    const create = await call(svc.url, 'POST', '/drafts', { auth: authOf(bob), params: { drafts: '[' } });
    expect(error(create)).toEqual(disabled);
    const edit = await call(svc.url, 'PATCH', '/drafts/1', { auth: authOf(bob), params: {} });
    expect(error(edit)).toEqual(disabled);
  });

  it('an unknown stream is named before a missing topic', async () => {
    const deleteTopic = await call(svc.url, 'POST', '/streams/987654/delete_topic', { auth: authOf(admin) });
    expect(error(deleteTopic)).toEqual(badRequest('Invalid stream ID'));
    const markRead = await call(svc.url, 'POST', '/mark_topic_as_read', {
      auth: authOf(alice),
      params: { stream_id: '987654' },
    });
    expect(error(markRead)).toEqual(badRequest('Invalid stream ID'));
  });

  it('GET /messages asks for the anchor first', async () => {
    const r = await call(svc.url, 'GET', '/messages', { auth: authOf(alice), params: { num_after: '1' } });
    expect(error(r)).toEqual({
      status: 400,
      msg: "Missing 'anchor' argument",
      code: 'REQUEST_VARIABLE_MISSING',
    });
  });

  it("POST /messages without 'to' says so before judging the type", async () => {
    const r = await call(svc.url, 'POST', '/messages', {
      auth: authOf(alice),
      params: { type: 'email', content: 'hi' },
    });
    expect(error(r)).toEqual({ status: 400, msg: "Missing 'to' argument", code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('a new profile field without a type says so before judging the name', async () => {
    const r = await call(svc.url, 'POST', '/realm/profile_fields', {
      auth: authOf(admin),
      params: { name: 'a\0' },
    });
    expect(error(r)).toEqual({
      status: 400,
      msg: "Missing 'field_type' argument",
      code: 'REQUEST_VARIABLE_MISSING',
    });
  });

  it('PATCH /settings reports the first bad setting in the order the request gives them', async () => {
    const r = await call(svc.url, 'PATCH', '/settings', {
      auth: authOf(alice),
      body: 'timezone=Bad%2FZone&dense_mode=maybe',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(error(r)).toEqual(badRequest('Invalid timezone'));
  });
});
