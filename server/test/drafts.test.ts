/** Drafts: POST/GET /drafts, PATCH/DELETE /drafts/{id}, drafts events, synchronization off. */

import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { authOf, call, type RawResponse, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

// Demo ids: alice 4, bob 5; streams general 1, engineering 2, design 3 (private: admin, alice).
const ALICE = 4;
const BOB = 5;
const GENERAL = 1;
const ENGINEERING = 2;
const DESIGN = 3;

const { svc, alice, bob, guest, moderator } = await serviceWith(['alice', 'bob', 'guest', 'moderator']);

function postDrafts(client: ApiClient, drafts: unknown): Promise<RawResponse> {
  return call(svc.url, 'POST', '/drafts', {
    auth: authOf(client),
    params: { drafts: typeof drafts === 'string' ? drafts : JSON.stringify(drafts) },
  });
}

async function draftsOf(client: ApiClient): Promise<unknown> {
  const r = await call(svc.url, 'GET', '/drafts', { auth: authOf(client) });
  expect(r.status).toBe(200);
  return r.body.drafts;
}

function expectError(r: RawResponse, status: number, msg: string, code = 'BAD_REQUEST') {
  expect({ status: r.status, body: r.body }).toEqual({
    status,
    body: {
      result: 'error',
      msg,
      code,
      ...(code === 'REQUEST_VARIABLE_MISSING' ? { var_name: 'draft' } : {}),
    },
  });
}

const stamp = 1595479019;
const ok = { type: 'stream', to: [GENERAL], topic: 't', content: 'c' };

describe('POST /drafts', () => {
  it('creates drafts of every type, answers their ids, and sends one add event to the user only', async () => {
    const before = Date.now() / 1000;
    const { events, result, states } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        postDrafts(alice, [
          { type: 'stream', to: [GENERAL], topic: 'greetings', content: 'Hello all', timestamp: stamp },
          // Recipients are sorted, deduplicated, and the sender is left out of a group.
          { type: 'private', to: [BOB, ALICE, BOB], topic: 'ignored', content: 'Hi Bob  \n' },
          { type: '', to: [], topic: '', content: 'An idea', timestamp: stamp + 1.5 },
        ]),
    });
    const after = Date.now() / 1000;
    expect(result.status).toBe(200);
    const ids = result.body.ids as number[];
    expect(result.body).toEqual({ result: 'success', msg: '', ids: [expect.any(Number), ids[1], ids[2]] });
    expect(new Set(ids).size).toBe(3);

    const added = events[0]?.[0]?.drafts as Record<string, unknown>[];
    expect(events[0]).toEqual([{ type: 'drafts', op: 'add', drafts: added, id: 0 }]);
    expect(added).toEqual([
      {
        id: ids[0],
        type: 'stream',
        to: [GENERAL],
        topic: 'greetings',
        content: 'Hello all',
        timestamp: stamp,
      },
      { id: ids[1], type: 'private', to: [BOB], topic: '', content: 'Hi Bob', timestamp: expect.any(Number) },
      { id: ids[2], type: '', to: [], topic: '', content: 'An idea', timestamp: stamp + 1.5 },
    ]);
    // No timestamp: the server's time of creation.
    const filled = added[1]?.timestamp as number;
    expect(filled).toBeGreaterThanOrEqual(Math.floor(before));
    expect(filled).toBeLessThanOrEqual(after + 1);
    expect(events[1]).toEqual([]);
    expect(states[0]?.drafts).toEqual(expect.arrayContaining(added));
  });

  it('keeps a private draft to oneself, and accepts an empty list', async () => {
    const r = await postDrafts(bob, [{ type: 'private', to: [BOB], topic: '', content: 'note to self' }]);
    expect(r.status).toBe(200);
    expect(((await draftsOf(bob)) as Record<string, unknown>[])[0]).toMatchObject({ to: [BOB] });
    const empty = await call(svc.url, 'POST', '/drafts', { auth: authOf(bob) });
    expect(empty.body).toEqual({ result: 'success', msg: '', ids: [] });
  });

  // [drafts value, message]: each is refused with 400 BAD_REQUEST and creates nothing.
  const rows: [string, unknown, string][] = [
    [
      'stream draft without a stream',
      [{ ...ok, to: [] }],
      'Must specify exactly 1 stream ID for stream messages',
    ],
    [
      'stream draft with two streams',
      [{ ...ok, to: [GENERAL, ENGINEERING] }],
      'Must specify exactly 1 stream ID for stream messages',
    ],
    ['unknown stream', [{ ...ok, to: [999] }], 'Invalid stream ID'],
    ['private stream without access', [{ ...ok, to: [DESIGN] }], 'Invalid stream ID'],
    ['unknown user', [{ type: 'private', to: [BOB, 999], topic: '', content: 'c' }], 'Invalid user ID 999'],
    ['null byte in topic', [{ ...ok, topic: 'a\u0000b' }], 'Topic must not contain null bytes'],
    ['null byte in content', [{ ...ok, content: 'a\u0000b' }], 'Message must not contain null bytes'],
    ['blank content', [{ ...ok, content: '  \n ' }], 'drafts[0]["content"] cannot be blank.'],
    ['unknown type', [{ ...ok, type: 'huddle' }], 'Invalid drafts[0]["type"]'],
    ['type not a string', [{ ...ok, type: 1 }], 'drafts[0]["type"] is not a string'],
    ['missing key', [{ type: 'stream', to: [GENERAL], topic: 't' }], 'drafts[0] key is missing: content'],
    ['id sent by the client', [{ ...ok, id: 5 }], 'Unexpected arguments: id'],
    ['to not a list', [{ ...ok, to: GENERAL }], 'drafts[0]["to"] is not a list'],
    ['to with a string', [{ ...ok, to: ['general'] }], 'drafts[0]["to"][0] is not an integer'],
    ['topic not a string', [{ ...ok, topic: null }], 'drafts[0]["topic"] is not a string'],
    ['content not a string', [{ ...ok, content: 5 }], 'drafts[0]["content"] is not a string'],
    ['negative timestamp', [{ ...ok, timestamp: -1 }], 'Timestamp must not be negative.'],
    ['timestamp not a number', [{ ...ok, timestamp: '1' }], 'drafts[0]["timestamp"] is not a number'],
    [
      'timestamp that overflows',
      `[{"type":"stream","to":[${GENERAL}],"topic":"t","content":"c","timestamp":1e303}]`,
      'Invalid timestamp',
    ],
    [
      'infinite timestamp',
      `[{"type":"stream","to":[${GENERAL}],"topic":"t","content":"c","timestamp":1e400}]`,
      'drafts[0]["timestamp"] is not a number',
    ],
    ['timestamp after year 9999', [{ ...ok, timestamp: 253_402_300_800 }], 'Invalid timestamp'],
    ['not JSON', 'drafts!', 'drafts is not valid JSON'],
    ['not a list', { ...ok }, 'drafts is not a list'],
    ['item not an object', [5], 'drafts[0] is not a dict'],
    [
      'a bad draft after a good one',
      [ok, { ...ok, to: [] }],
      'Must specify exactly 1 stream ID for stream messages',
    ],
  ];
  it.each(rows)('refuses %s and changes nothing', async (_label, drafts, msg) => {
    const before = await draftsOf(bob);
    expectError(await postDrafts(bob, drafts), 400, msg);
    expect(await draftsOf(bob)).toEqual(before);
  });

  it('refuses a guest a public stream the guest is not subscribed to', async () => {
    const r = await postDrafts(guest, [{ ...ok, to: [ENGINEERING] }]);
    expectError(r, 400, 'Invalid stream ID');
    expect(await draftsOf(guest)).toEqual([]);
  });

  it('requires authentication', async () => {
    const r = await call(svc.url, 'POST', '/drafts', { params: { drafts: '[]' } });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('UNAUTHORIZED');
  });
});

describe('GET /drafts', () => {
  it('lists the own drafts, most recently edited first, with their count', async () => {
    const r0 = await postDrafts(moderator, [
      { type: '', to: [], topic: '', content: 'older', timestamp: 100 },
      { type: '', to: [], topic: '', content: 'newer', timestamp: 200 },
    ]);
    const [older, newer] = r0.body.ids as number[];
    const r = await call(svc.url, 'GET', '/drafts', { auth: authOf(moderator) });
    expect(r.body).toEqual({
      result: 'success',
      msg: '',
      count: 2,
      drafts: [
        { id: newer, type: '', to: [], topic: '', content: 'newer', timestamp: 200 },
        { id: older, type: '', to: [], topic: '', content: 'older', timestamp: 100 },
      ],
    });
  });
});

describe('PATCH /drafts/{draft_id}', () => {
  it('replaces the draft and sends an update event to the user only', async () => {
    const [id] = (await postDrafts(alice, [{ type: '', to: [], topic: '', content: 'first' }])).body
      .ids as number[];
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        call(svc.url, 'PATCH', `/drafts/${id}`, {
          auth: authOf(alice),
          params: {
            draft: JSON.stringify({
              type: 'stream',
              to: [DESIGN],
              topic: 'logo',
              content: 'second',
              timestamp: 300,
            }),
          },
        }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      {
        type: 'drafts',
        op: 'update',
        draft: { id, type: 'stream', to: [DESIGN], topic: 'logo', content: 'second', timestamp: 300 },
        id: 0,
      },
    ]);
    expect(events[1]).toEqual([]);
  });

  it('answers 404 "Draft does not exist" for a missing draft or another user\'s, changing nothing', async () => {
    const [bobsDraft] = (await postDrafts(bob, [{ type: '', to: [], topic: '', content: 'mine' }])).body
      .ids as number[];
    const draft = JSON.stringify({ type: '', to: [], topic: '', content: 'stolen' });
    for (const id of [999999, bobsDraft]) {
      const r = await call(svc.url, 'PATCH', `/drafts/${id}`, { auth: authOf(alice), params: { draft } });
      expectError(r, 404, 'Draft does not exist');
    }
    expect(await draftsOf(bob)).toContainEqual(expect.objectContaining({ id: bobsDraft, content: 'mine' }));
  });

  it('validates the replacement like a new draft, changing nothing', async () => {
    const [id] = (await postDrafts(bob, [{ type: '', to: [], topic: '', content: 'keep' }])).body
      .ids as number[];
    const before = await draftsOf(bob);
    const cases: [Record<string, string>, string, string?][] = [
      [{ draft: JSON.stringify({ ...ok, to: [] }) }, 'Must specify exactly 1 stream ID for stream messages'],
      [{ draft: JSON.stringify({ ...ok, content: 'x\u0000' }) }, 'Message must not contain null bytes'],
      [
        { draft: `{"type":"stream","to":[${GENERAL}],"topic":"t","content":"c","timestamp":1e303}` },
        'Invalid timestamp',
      ],
      [{ draft: JSON.stringify([ok]) }, 'draft is not a dict'],
      [{ draft: '{' }, 'draft is not valid JSON'],
      [{}, "Missing 'draft' argument", 'REQUEST_VARIABLE_MISSING'],
    ];
    for (const [params, msg, code] of cases) {
      const r = await call(svc.url, 'PATCH', `/drafts/${id}`, { auth: authOf(bob), params });
      expectError(r, 400, msg, code);
    }
    const bad = await call(svc.url, 'PATCH', '/drafts/abc', { auth: authOf(bob), params: { draft: '{}' } });
    expectError(bad, 400, 'draft_id is not an integer');
    expect(await draftsOf(bob)).toEqual(before);
  });
});

describe('DELETE /drafts/{draft_id}', () => {
  it('deletes the draft and sends a remove event to the user only', async () => {
    const [id] = (await postDrafts(alice, [{ type: '', to: [], topic: '', content: 'bye' }])).body
      .ids as number[];
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => call(svc.url, 'DELETE', `/drafts/${id}`, { auth: authOf(alice) }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([{ type: 'drafts', op: 'remove', draft_id: id, id: 0 }]);
    expect(events[1]).toEqual([]);
    const again = await call(svc.url, 'DELETE', `/drafts/${id}`, { auth: authOf(alice) });
    expectError(again, 404, 'Draft does not exist');
  });

  it("answers 404 for another user's draft and keeps it", async () => {
    const [id] = (await postDrafts(bob, [{ type: '', to: [], topic: '', content: 'private' }])).body
      .ids as number[];
    expectError(
      await call(svc.url, 'DELETE', `/drafts/${id}`, { auth: authOf(alice) }),
      404,
      'Draft does not exist',
    );
    expect(await draftsOf(bob)).toContainEqual(expect.objectContaining({ id }));
  });
});

describe('with draft synchronization off', () => {
  it('refuses every draft endpoint and registers no drafts', async () => {
    const owner = await svc.login('owner');
    const [id] = (await postDrafts(owner, [{ type: '', to: [], topic: '', content: 'kept' }])).body
      .ids as number[];
    // Flip the setting behind the service's back, so the drafts are still stored: the
    // register must hide them because of the setting alone.
    svc.sql(
      `UPDATE users SET settings = json_set(settings, '$.enable_drafts_synchronization', json('false'))
       WHERE email = ?`,
      svc.demo.users.owner,
    );
    const msg = 'User has disabled synchronizing drafts.';
    const draft = JSON.stringify({ type: '', to: [], topic: '', content: 'x' });
    expectError(await postDrafts(owner, [{ type: '', to: [], topic: '', content: 'x' }]), 400, msg);
    expectError(await call(svc.url, 'GET', '/drafts', { auth: authOf(owner) }), 400, msg);
    expectError(
      await call(svc.url, 'PATCH', `/drafts/${id}`, { auth: authOf(owner), params: { draft } }),
      400,
      msg,
    );
    expectError(await call(svc.url, 'DELETE', `/drafts/${id}`, { auth: authOf(owner) }), 400, msg);
    const r = await owner.registerQueue({ fetch_event_types: ['drafts'] });
    expect(r.drafts).toEqual([]);
    if (r.queue_id) await owner.deleteQueue(r.queue_id);
  });
});
