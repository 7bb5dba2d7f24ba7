/**
 * Uploads: POST /user_uploads (multipart), the download page with its protective headers,
 * who may download, GET /attachments and DELETE /attachments/{id} with `attachment` events.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ApiClient, basicAuthHeader } from '../../shared/client';
import { authOf, call, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, alice, bob, guest, admin } = await serviceWith(['alice', 'bob', 'guest', 'admin']);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function header(client: ApiClient): string {
  const [email, key] = authOf(client);
  return basicAuthHeader(email, key);
}

async function upload(client: ApiClient, parts: [string, Buffer, string][]) {
  const form = new FormData();
  for (const [name, data, type] of parts) form.append('file', new Blob([data], { type }), name);
  const r = await fetch(`${svc.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { Authorization: header(client) },
    body: form,
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

function download(client: ApiClient | null, url: string): Promise<Response> {
  return fetch(`${svc.url}${url}`, { headers: client ? { Authorization: header(client) } : {} });
}

async function attachments(client: ApiClient): Promise<Record<string, unknown>> {
  return (await call(svc.url, 'GET', '/attachments', { auth: authOf(client) })).body;
}

describe('POST /user_uploads', () => {
  it('stores a file, answers its URL, and tells only the uploader', async () => {
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => upload(alice, [['tiny image.png', PNG, 'text/html']]),
    });
    expect(result.status).toBe(200);
    const url = result.body.url as string;
    expect(url).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/tiny-image\.png$/);
    expect(result.body).toEqual({ result: 'success', msg: '', uri: url, url, filename: 'tiny image.png' });
    const pathId = url.slice('/user_uploads/'.length);
    expect(events[0]).toEqual([
      {
        type: 'attachment',
        op: 'add',
        attachment: {
          id: expect.any(Number),
          name: 'tiny-image.png',
          path_id: pathId,
          size: PNG.length,
          create_time: expect.any(Number),
          messages: [],
        },
        upload_space_used: PNG.length,
        id: 0,
      },
    ]);
    expect(events[1]).toEqual([]);
    expect(existsSync(join(svc.dataDir, 'uploads', ...pathId.split('/')))).toBe(true);

    // Served as what it is (a PNG, whatever the client claimed), inline, sandboxed.
    const r = await download(alice, url);
    expect(r.status).toBe(200);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(PNG);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('content-disposition')).toMatch(/^inline; filename="tiny-image.png"/);
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['HTML', 'page.html', '<html><script>alert(1)</script></html>', 'text/html'],
    [
      'SVG',
      'drawing.svg',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/svg+xml',
    ],
  ])(
    'serves an uploaded %s file as a plain-text download that cannot run',
    async (_label, name, text, claimed) => {
      const up = await upload(alice, [[name, Buffer.from(text), claimed]]);
      expect(up.status).toBe(200);
      const r = await download(alice, up.body.url as string);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await r.text()).toBe(text);
    },
  );

  it('knows long text even where its sample cuts a character in two', async () => {
    const up = await upload(alice, [['long.txt', Buffer.from(`a${'é'.repeat(5000)}`), 'application/x-foo']]);
    const r = await download(alice, up.body.url as string);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('serves binary content it does not know as application/octet-stream', async () => {
    const up = await upload(alice, [['blob.bin', Buffer.from([0, 1, 2, 255, 254]), 'image/png']]);
    const r = await download(alice, up.body.url as string);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('cleans the stored name and keeps nothing outside its folder', async () => {
    const up = await upload(alice, [['../../etc/pass wd?<>.txt', Buffer.from('hi'), 'text/plain']]);
    expect(up.status).toBe(200);
    expect(up.body.url).toMatch(/\/pass-wd\.txt$/);
  });

  it('shortens a long name so that its URL still works', async () => {
    const up = await upload(alice, [[`${'é'.repeat(300)}.txt`, Buffer.from('long'), 'text/plain']]);
    expect(up.status).toBe(200);
    const r = await download(alice, encodeURI(up.body.url as string));
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('long');
  });

  it('refuses a request without a file, or with two', async () => {
    const none = await call(svc.url, 'POST', '/user_uploads', { auth: authOf(alice) });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      result: 'error',
      msg: 'You must specify a file to upload',
      code: 'BAD_REQUEST',
    });
    const two = await upload(alice, [
      ['a.txt', Buffer.from('a'), 'text/plain'],
      ['b.txt', Buffer.from('b'), 'text/plain'],
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toEqual({
      result: 'error',
      msg: 'You may only upload one file at a time',
      code: 'BAD_REQUEST',
    });
  });

  it('refuses a file over 25 MiB with a clear 4xx', async () => {
    const before = (await attachments(alice)).upload_space_used;
    const big = await upload(alice, [
      ['big.bin', Buffer.alloc(25 * 1024 * 1024 + 1, 1), 'application/octet-stream'],
    ]);
    expect(big.status).toBeGreaterThanOrEqual(400);
    expect(big.status).toBeLessThan(500);
    expect(big.body).toMatchObject({
      result: 'error',
      msg: 'Uploaded file is larger than the allowed limit of 25 MiB',
    });
    expect((await attachments(alice)).upload_space_used).toBe(before);
  });
});

describe('downloads', () => {
  it('are for the uploader, and for readers of a message linking the file', async () => {
    const up = await upload(alice, [['notes.txt', Buffer.from('secret notes'), 'text/plain']]);
    const url = up.body.url as string;
    expect((await download(null, url)).status).toBe(401);
    const refused = await download(bob, url);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      result: 'error',
      msg: 'You are not authorized to view this file.',
      code: 'UNAUTHORIZED',
    });
    // A direct message to bob links it: bob may read it, the guest still may not.
    const bobId = (await bob.request('GET', '/users/me')).user_id as number;
    const sent = await alice.request('POST', '/messages', {
      type: 'private',
      to: JSON.stringify([bobId]),
      content: `[notes.txt](${url})`,
    });
    expect((await download(bob, url)).status).toBe(200);
    expect((await download(guest, url)).status).toBe(403);
    const mine = (await attachments(alice)).attachments as Record<string, unknown>[];
    expect(mine.find((a) => `/user_uploads/${a.path_id as string}` === url)?.messages).toEqual([
      { id: sent.id, date_sent: expect.any(Number) },
    ]);
  });

  it('answer 404 for a file that does not exist', async () => {
    const r = await download(alice, '/user_uploads/1/ab/AAAAAAAAAAAAAAAAAAAAAAAA/none.txt');
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ result: 'error', msg: 'File not found', code: 'NOT_FOUND' });
  });
});

describe('attachment update events', () => {
  const linkTo = (url: string) => `[the file](${url})`;

  async function uploaded(name: string) {
    const up = await upload(alice, [[name, Buffer.from(name), 'text/plain']]);
    const url = up.body.url as string;
    const listed = (await attachments(alice)).attachments as Record<string, unknown>[];
    const row = listed.find((a) => a.path_id === url.slice('/user_uploads/'.length)) as Record<
      string,
      unknown
    >;
    return { url, row };
  }

  const update = async (row: Record<string, unknown>, messages: number[]) => ({
    type: 'attachment',
    op: 'update',
    attachment: { ...row, messages: messages.map((id) => ({ id, date_sent: expect.any(Number) })) },
    upload_space_used: (await attachments(alice)).upload_space_used,
    id: expect.any(Number),
  });

  it('a message linking the file tells the uploader, with the message in its list', async () => {
    const { url, row } = await uploaded('linked.txt');
    const bobId = (await bob.request('GET', '/users/me')).user_id as number;
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        call(svc.url, 'POST', '/messages', {
          auth: authOf(alice),
          params: { type: 'private', to: JSON.stringify([bobId]), content: `see ${linkTo(url)}` },
        }),
    });
    expect(result.status).toBe(200);
    const id = result.body.id as number;
    expect(events[0]?.map((e) => e.type)).toEqual(['attachment', 'message']);
    expect(events[0]?.[0]).toEqual(await update(row, [id]));
    // The event's list is what GET /attachments says from now on.
    const listed = (await attachments(alice)).attachments as Record<string, unknown>[];
    expect(listed.find((a) => a.id === row.id)?.messages).toEqual([{ id, date_sent: expect.any(Number) }]);
    // Only the uploader hears of their files.
    expect(events[1]?.map((e) => e.type)).toEqual(['message']);
  });

  it('an edit that links the file tells the uploader; one that drops the link, or a deletion, does not', async () => {
    const { url, row } = await uploaded('edited.txt');
    const first = await alice.request('POST', '/messages', {
      type: 'stream',
      to: 'general',
      topic: 'files',
      content: 'nothing yet',
    });
    const id = first.id as number;
    const linking = await verifyAction({
      clients: [alice],
      action: () =>
        call(svc.url, 'PATCH', `/messages/${id}`, { auth: authOf(alice), params: { content: linkTo(url) } }),
    });
    expect(linking.result.status).toBe(200);
    expect(linking.events[0]?.map((e) => e.type)).toEqual(['attachment', 'update_message']);
    expect(linking.events[0]?.[0]).toEqual(await update(row, [id]));

    // Still linked after another edit: no news.
    const again = await verifyAction({
      clients: [alice],
      action: () =>
        call(svc.url, 'PATCH', `/messages/${id}`, {
          auth: authOf(alice),
          params: { content: `${linkTo(url)}!` },
        }),
    });
    expect(again.events[0]?.map((e) => e.type)).toEqual(['update_message']);

    // As in the family, losing a link sends no attachment event.
    const dropped = await verifyAction({
      clients: [alice],
      action: () =>
        call(svc.url, 'PATCH', `/messages/${id}`, { auth: authOf(alice), params: { content: 'gone' } }),
    });
    expect(dropped.events[0]?.map((e) => e.type)).toEqual(['update_message']);
    const second = await alice.request('POST', '/messages', {
      type: 'stream',
      to: 'general',
      topic: 'files',
      content: linkTo(url),
    });
    // Deleted (by an administrator: members may not delete by default).
    const deleted = await verifyAction({
      clients: [alice],
      action: () => call(svc.url, 'DELETE', `/messages/${second.id as number}`, { auth: authOf(admin) }),
    });
    expect(deleted.result.status).toBe(200);
    expect(deleted.events[0]?.map((e) => e.type)).toEqual(['delete_message']);
  });

  it("another user's message linking the file changes nothing the uploader lists", async () => {
    const { url, row } = await uploaded('shared.txt');
    const { events } = await verifyAction({
      clients: [alice, bob],
      action: () =>
        call(svc.url, 'POST', '/messages', {
          auth: authOf(bob),
          params: { type: 'stream', to: 'general', topic: 'files', content: linkTo(url) },
        }),
    });
    expect(events.map((got) => got.map((e) => e.type))).toEqual([['message'], ['message']]);
    const listed = (await attachments(alice)).attachments as Record<string, unknown>[];
    expect(listed.find((a) => a.id === row.id)?.messages).toEqual([]);
  });
});

describe('attachments', () => {
  it('lists the user’s own files with the space they take', async () => {
    const list = await attachments(bob);
    expect(list).toEqual({ result: 'success', msg: '', attachments: [], upload_space_used: 0 });
    const up = await upload(bob, [['b.txt', Buffer.from('bob'), 'text/plain']]);
    const after = await attachments(bob);
    expect(after.upload_space_used).toBe(3);
    expect(after.attachments).toEqual([
      expect.objectContaining({
        name: 'b.txt',
        path_id: (up.body.url as string).slice(14),
        size: 3,
        messages: [],
      }),
    ]);
  });

  it('deletes one of the user’s files, with an event, and the file is gone', async () => {
    const up = await upload(bob, [['gone.txt', Buffer.from('bye'), 'text/plain']]);
    const listed = (await attachments(bob)).attachments as { id: number; path_id: string }[];
    const target = listed.find((a) => a.path_id === (up.body.url as string).slice(14)) as { id: number };
    const refused = await call(svc.url, 'DELETE', `/attachments/${target.id}`, { auth: authOf(alice) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'Invalid attachment', code: 'BAD_REQUEST' });
    const { events, result } = await verifyAction({
      clients: [bob, alice],
      action: () => call(svc.url, 'DELETE', `/attachments/${target.id}`, { auth: authOf(bob) }),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    expect(events[0]).toEqual([
      { type: 'attachment', op: 'remove', attachment: { id: target.id }, upload_space_used: 3, id: 0 },
    ]);
    expect(events[1]).toEqual([]);
    expect((await download(bob, up.body.url as string)).status).toBe(404);
    const again = await call(svc.url, 'DELETE', `/attachments/${target.id}`, { auth: authOf(bob) });
    expect(again.body.msg).toBe('Invalid attachment');
  });
});

describe('temporary URLs', () => {
  it('serve a file for a minute without credentials, to those who got one', async () => {
    const up = await upload(alice, [['pic.png', PNG, 'image/png']]);
    const url = up.body.url as string;
    const r = await call(svc.url, 'GET', url, { auth: authOf(alice) });
    expect(r.status).toBe(200);
    const temporary = r.body.url as string;
    expect(temporary).toMatch(/^\/user_uploads\/temporary\/\d+\.\d+\.[A-Za-z0-9_-]{22}\/pic\.png$/);
    const file = await download(null, temporary);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);

    // Someone who may not read the file gets no URL; a forged token serves nothing.
    const refused = await call(svc.url, 'GET', url, { auth: authOf(bob) });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('You are not authorized to view this file.');
    const forged = temporary.replace(/\.[A-Za-z0-9_-]{22}\//, `.${'A'.repeat(22)}/`);
    expect((await download(null, forged)).status).toBe(404);
  });
});
