/** POST /users/me/subscriptions/properties: every property, its events, and its errors. */

import { describe, expect, it } from 'vitest';
import type { ApiClient, Params } from '../../shared/client';
import { authOf, call, demoIds, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob } = await serviceWith(['alice', 'bob']);
const streamIds = demoIds(svc).streams;

const update = (client: ApiClient, data: unknown[], extra: Params = {}) =>
  client.request('POST', '/users/me/subscriptions/properties', { subscription_data: data, ...extra });
const raw = (client: ApiClient, params: Params) =>
  call(svc.url, 'POST', '/users/me/subscriptions/properties', { auth: authOf(client), params });

async function subscriptionOf(client: ApiClient, name: string, params: Params = {}) {
  const r = await client.request('POST', '/register', { fetch_event_types: ['subscription'], ...params });
  await client.deleteQueue(r.queue_id as string);
  return (r.subscriptions as Record<string, unknown>[]).find((s) => s.name === name);
}

const change = (stream: string, property: string, value: unknown) => ({
  stream_id: streamIds[stream],
  property,
  value,
});

describe('POST /users/me/subscriptions/properties', () => {
  it.each([
    ['color', '#ff8800'],
    ['color', '#abc'],
    ['pin_to_top', true],
    ['desktop_notifications', true],
    ['audible_notifications', false],
    ['push_notifications', true],
    ['email_notifications', false],
    ['wildcard_mentions_notify', false],
  ])('%s = %j: one update event to the user only', async (property, value) => {
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => update(alice, [change('general', property, value)]),
    });
    expect(result).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });
    expect(events[0]).toEqual([
      { type: 'subscription', op: 'update', stream_id: streamIds.general, property, value, id: 0 },
    ]);
    expect(events[1]).toEqual([]);
    expect((await subscriptionOf(alice, 'general'))?.[property]).toEqual(value);
  });

  it('is_muted sends two events: in_home_view (inverted) and is_muted', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      action: () => update(alice, [change('general', 'is_muted', true)]),
    });
    const base = { type: 'subscription', op: 'update', stream_id: streamIds.general };
    expect(events[0]).toEqual([
      { ...base, property: 'in_home_view', value: false, id: 0 },
      { ...base, property: 'is_muted', value: true, id: 1 },
    ]);
    expect(await subscriptionOf(alice, 'general')).toMatchObject({ is_muted: true, in_home_view: false });
  });

  it('in_home_view is the legacy inverse of is_muted, with the same two events', async () => {
    const { events } = await verifyAction({
      clients: [alice],
      action: () => update(alice, [change('general', 'in_home_view', true)]),
    });
    expect(events[0]?.map((e) => [e.property, e.value])).toEqual([
      ['in_home_view', true],
      ['is_muted', false],
    ]);
    expect(await subscriptionOf(alice, 'general')).toMatchObject({ is_muted: false, in_home_view: true });
  });

  it('notification properties take null ("inherit"); old clients get the user setting instead', async () => {
    await alice.updateSettings({ enable_stream_push_notifications: true });
    const modern = { client_capabilities: { notification_settings_null: true } };
    const legacy = { client_capabilities: { notification_settings_null: false }, include_subscribers: true };
    const { events } = await verifyAction({
      clients: [alice, alice],
      registerParams: [{ ...modern, include_subscribers: true }, legacy],
      action: () => update(alice, [change('engineering', 'push_notifications', null)]),
    });
    expect(events[0]).toMatchObject([{ property: 'push_notifications', value: null }]);
    expect(events[1]).toMatchObject([{ property: 'push_notifications', value: true }]);
    expect((await subscriptionOf(alice, 'engineering', modern))?.push_notifications).toBeNull();
    expect((await subscriptionOf(alice, 'engineering'))?.push_notifications).toBe(true);
  });

  it('several changes in one request, all or nothing', async () => {
    await update(alice, [change('engineering', 'pin_to_top', true), change('design', 'color', '#123456')]);
    expect(await subscriptionOf(alice, 'engineering')).toMatchObject({ pin_to_top: true });
    expect(await subscriptionOf(alice, 'design')).toMatchObject({ color: '#123456' });
    const r = await raw(alice, {
      subscription_data: [change('engineering', 'pin_to_top', false), change('design', 'color', 'red')],
    });
    expect(r.body).toEqual({
      result: 'error',
      msg: 'color is not a valid hex color code',
      code: 'BAD_REQUEST',
    });
    expect(await subscriptionOf(alice, 'engineering')).toMatchObject({ pin_to_top: true });
  });

  it('reports unknown parameters as ignored_parameters_unsupported', async () => {
    const r = await update(alice, [change('general', 'pin_to_top', false)], { frobnicate: true });
    expect(r).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['frobnicate'] });
  });

  const errors: [string, Params, string, number?][] = [
    ['missing subscription_data', {}, "Missing 'subscription_data' argument"],
    ['not JSON', { subscription_data: '[' }, 'subscription_data is not valid JSON'],
    ['not a list', { subscription_data: { a: 1 } }, 'subscription_data is not a list'],
    ['item not a dict', { subscription_data: [5] }, 'subscription_data[0] is not a dict'],
    [
      'missing value',
      { subscription_data: [{ stream_id: 1, property: 'is_muted' }] },
      'value key is missing from subscription_data[0]',
    ],
    [
      'stream_id not an integer',
      { subscription_data: [{ stream_id: 'x', property: 'is_muted', value: true }] },
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    [
      'unknown property',
      { subscription_data: [{ stream_id: 1, property: 'loudness', value: true }] },
      'Unknown subscription property: loudness',
    ],
    [
      'unknown stream',
      { subscription_data: [{ stream_id: 99999, property: 'is_muted', value: true }] },
      'Invalid stream ID',
    ],
    [
      'bad color',
      { subscription_data: [{ stream_id: 1, property: 'color', value: '#12345g' }] },
      'color is not a valid hex color code',
    ],
    [
      'boolean property with a string',
      { subscription_data: [{ stream_id: 1, property: 'pin_to_top', value: 'yes' }] },
      'pin_to_top is not a boolean',
    ],
    [
      'null for is_muted',
      { subscription_data: [{ stream_id: 1, property: 'is_muted', value: null }] },
      'is_muted is not a boolean',
    ],
  ];
  it.each(errors)('%s: a 400 that changes nothing', async (_label, params, msg) => {
    const before = await subscriptionOf(bob, 'general');
    const data = params.subscription_data;
    // Stream 1 stands for general, whatever its id.
    const fixed = Array.isArray(data)
      ? data.map((d) =>
          typeof d === 'object' && d !== null && (d as { stream_id?: unknown }).stream_id === 1
            ? { ...d, stream_id: streamIds.general }
            : d,
        )
      : data;
    const r = await raw(bob, data === undefined ? params : { ...params, subscription_data: fixed as never });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', msg });
    expect(await subscriptionOf(bob, 'general')).toEqual(before);
  });

  it('a stream the user is not subscribed to, or cannot see', async () => {
    const r = await raw(bob, { subscription_data: [change('engineering', 'is_muted', true)] });
    expect(r.body).toEqual({
      result: 'error',
      msg: `Not subscribed to stream id ${streamIds.engineering}`,
      code: 'BAD_REQUEST',
    });
    const hidden = await raw(bob, { subscription_data: [change('design', 'is_muted', true)] });
    expect(hidden.body).toEqual({ result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
  });
});
