/** The drafts endpoints of the client (getDrafts, createDrafts, editDraft, deleteDraft). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, type StartedServer, startServerProcess } from '../../test/support/server';
import { ApiClient, ApiError, type FetchLike } from './index';

let server: StartedServer;
beforeAll(async () => {
  server = await startServerProcess({ args: ['--rate-limit-user', '0', '--rate-limit-ip', '0'] });
});
afterAll(async () => {
  await server?.dispose();
});

/** A client whose every request is answered with `body` (HTTP 200). */
const answering = (body: unknown) => {
  const requests: string[] = [];
  const fetch: FetchLike = async (url, init) => {
    requests.push(`${init.method} ${new URL(url).pathname}`);
    return { status: 200, headers: { get: () => null }, text: async () => JSON.stringify(body) };
  };
  return { client: new ApiClient({ serverUrl: 'http://drafts.invalid', fetch }), requests };
};

describe('drafts endpoints', () => {
  it('create, list, edit and delete against the real server', async () => {
    const bob = await loginAs(server, 'bob');
    for (const d of await bob.getDrafts()) await bob.deleteDraft(d.id);
    expect(await bob.getDrafts()).toEqual([]);

    const ids = await bob.createDrafts([
      { type: '', to: [], topic: '', content: 'older', timestamp: 1_700_000_000 },
      { type: '', to: [], topic: '', content: 'newer', timestamp: 1_700_000_100.5 },
    ]);
    expect(ids).toHaveLength(2);
    const [older, newer] = ids as [number, number];
    // Newest first, with the timestamps we sent.
    expect(await bob.getDrafts()).toEqual([
      { id: newer, type: '', to: [], topic: '', content: 'newer', timestamp: 1_700_000_100.5 },
      { id: older, type: '', to: [], topic: '', content: 'older', timestamp: 1_700_000_000 },
    ]);

    await bob.editDraft(older, {
      type: '',
      to: [],
      topic: '',
      content: 'older, edited',
      timestamp: 1_700_000_200,
    });
    expect((await bob.getDrafts())[0]).toEqual({
      id: older,
      type: '',
      to: [],
      topic: '',
      content: 'older, edited',
      timestamp: 1_700_000_200,
    });

    await bob.deleteDraft(newer);
    expect((await bob.getDrafts()).map((d) => d.id)).toEqual([older]);
    // The server's refusals come back as ApiError.
    const gone = await bob.deleteDraft(newer).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404 });
    const bad = await bob
      .createDrafts([{ type: 'stream', to: [], topic: 't', content: 'no stream' }])
      .catch((error: unknown) => error);
    expect(bad).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    await bob.deleteDraft(older);
  });

  it('rejects answers that do not match the protocol, and ids that are not ids', async () => {
    const missingIds = answering({ result: 'success', msg: '' });
    await expect(
      missingIds.client.createDrafts([{ type: '', to: [], topic: '', content: 'x' }]),
    ).rejects.toThrow();
    const tooFew = answering({ result: 'success', msg: '', ids: [] });
    await expect(tooFew.client.createDrafts([{ type: '', to: [], topic: '', content: 'x' }])).rejects.toThrow(
      /0 ids for 1 drafts/,
    );
    const badDraft = answering({ result: 'success', msg: '', drafts: [{ id: 'one', content: 'x' }] });
    await expect(badDraft.client.getDrafts()).rejects.toThrow();

    const { client, requests } = answering({ result: 'success', msg: '' });
    await expect(client.deleteDraft(Number.NaN)).rejects.toThrow(TypeError);
    await expect(client.editDraft(-1, { type: '', to: [], topic: '', content: 'x' })).rejects.toThrow(
      TypeError,
    );
    expect(requests).toEqual([]);
    await client.deleteDraft(7);
    expect(requests).toEqual(['DELETE /api/v1/drafts/7']);
  });
});
