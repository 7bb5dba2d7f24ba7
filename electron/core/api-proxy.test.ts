/**
 * `api.call` and `api.upload` against the real server: what the renderer may send goes out
 * with the account's key and comes back without the envelope; what it may not (API keys, the
 * event queue, drafts, webhooks, settings that the core must see, unknown endpoints, paths
 * that would resolve elsewhere) is refused with its reason before anything reaches the
 * server; the router refuses malformed payloads; uploads arrive as multipart/form-data.
 */
import { describe, expect, it } from 'vitest';
import type { AccountSummary, IpcResult } from '../../shared/ipc';
import {
  coreTestBed,
  pushedConnected,
  type RecordedRequest,
  recordingFetch,
  signInAs,
  type TestCore,
  waitFor,
} from '../../test/support/core';
import type { StartedServer } from '../../test/support/server';
import {
  ACCOUNT_FIELDS,
  imageTooLargeMessage,
  invalidPathMessage,
  MAX_UPLOAD_IMAGE_BYTES,
  notAnImageMessage,
  readAtMost,
  refusedMessage,
  settingsRefusedMessage,
  unknownEndpointMessage,
} from './api-proxy';

let server: StartedServer;
const bed = coreTestBed('confab-api-proxy-', {}, (started) => {
  server = started;
});

/** A real 1×1 PNG. */
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

interface Signed {
  app: TestCore;
  account: AccountSummary;
  wire: RecordedRequest[];
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    params?: Record<string, unknown>,
  ): Promise<IpcResult<T>>;
}

async function signedIn(who: 'alice' | 'admin' = 'alice'): Promise<Signed> {
  const recording = recordingFetch();
  const app = await bed.start({ fetch: recording.fetch });
  const account = await signInAs(app, server, who);
  await pushedConnected(app, account.id);
  return {
    app,
    account,
    wire: recording.requests,
    call: (method, path, params) =>
      app.invoke('api.call', { accountId: account.id, method, path, ...(params ? { params } : {}) }),
  };
}

const refused = (message: string) => ({ ok: false, error: { message, code: 'BAD_REQUEST' } });

describe('api.call', () => {
  it('sends an allowed request with the account key and answers the body without the envelope', async () => {
    const { call, account } = await signedIn();
    const me = await call('GET', '/users/me');
    expect(me.ok).toBe(true);
    if (!me.ok) return;
    expect(me.value).toMatchObject({ user_id: account.userId, email: account.email });
    expect(me.value).not.toHaveProperty('result');
    expect(me.value).not.toHaveProperty('msg');

    // Query parameters (GET) and form parameters (POST), JSON for non-strings.
    const streams = await call<{ streams: { name: string }[] }>('GET', '/streams', { include_public: true });
    expect(streams.ok && streams.value.streams.map((s) => s.name)).toContain('general');
    const words = await call<{ alert_words: string[] }>('POST', '/users/me/alert_words', {
      alert_words: ['proxied'],
    });
    expect(words).toEqual({ ok: true, value: { alert_words: ['proxied'] } });
  });

  it('passes PATCH /settings for the account fields, and the event reaches the core', async () => {
    const { app, call, account } = await signedIn();
    expect(ACCOUNT_FIELDS).toEqual(['full_name', 'email', 'old_password', 'new_password']);
    const renamed = await call('PATCH', '/settings', { full_name: 'Alice Proxied' });
    expect(renamed.ok).toBe(true);
    await waitFor(
      'the rename in the core state',
      () =>
        app.core.accountState(account.id)?.state.users.active[account.userId as number]?.full_name ===
        'Alice Proxied',
    );
  });

  it('answers the service refusal with its message and code', async () => {
    const { call, account } = await signedIn();
    expect(await call('POST', `/users/me/muted_users/${account.userId}`)).toEqual({
      ok: false,
      error: { message: 'Cannot mute self', code: 'BAD_REQUEST' },
    });
    const missing = await call('POST', '/users/me/alert_words');
    expect(missing).toMatchObject({
      ok: false,
      error: { message: "Missing 'alert_words' argument", code: 'REQUEST_VARIABLE_MISSING' },
    });
  });

  it('refuses what returns or rotates an API key, the event queue, drafts and webhooks', async () => {
    const { call, wire } = await signedIn();
    const before = wire.length;
    const keys = 'API keys never leave the main process';
    const queue = "the main process owns the account's event queue";
    const drafts = 'drafts go through drafts.save and drafts.delete, which keep them on this computer first';
    const webhooks = 'incoming webhooks are for integrations';
    const cases: [string, string, string][] = [
      ['POST', '/fetch_api_key', keys],
      ['POST', '/dev_fetch_api_key', keys],
      ['POST', '/jwt/fetch_api_key', keys],
      ['POST', '/users/me/api_key/regenerate', keys],
      ['POST', '/register', queue],
      ['GET', '/events', queue],
      ['DELETE', '/events', queue],
      ['GET', '/drafts', drafts],
      ['POST', '/drafts', drafts],
      ['PATCH', '/drafts/3', drafts],
      ['DELETE', '/drafts/3', drafts],
      ['POST', '/external/helloworld', webhooks],
      // Percent-encoded letters name the same endpoint on the server.
      ['POST', '/%72egister', queue],
    ];
    for (const [method, path, why] of cases) {
      expect(await call(method, path, { username: 'x', password: 'y' }), `${method} ${path}`).toEqual(
        refused(refusedMessage(method, path, why)),
      );
    }
    expect(refusedMessage('POST', '/register', queue)).toBe(
      "Refused: POST /register: the main process owns the account's event queue",
    );
    // Nothing of it reached the server.
    expect(wire.slice(before)).toEqual([]);
  });

  it('refuses the settings of PATCH /settings: they go through settings.update', async () => {
    const { call, wire } = await signedIn();
    const before = wire.length;
    expect(await call('PATCH', '/settings', { dense_mode: true, full_name: 'X' })).toEqual(
      refused('Refused: PATCH /settings with dense_mode: settings go through settings.update'),
    );
    expect(
      await call('PATCH', '/settings', { timezone: 'UTC', enable_drafts_synchronization: false }),
    ).toEqual(refused(settingsRefusedMessage(['timezone', 'enable_drafts_synchronization'])));
    expect(await call('PATCH', '/settings/display', { color_scheme: 2 })).toEqual(
      refused(settingsRefusedMessage(['color_scheme'])),
    );
    expect(wire.slice(before)).toEqual([]);
  });

  it('refuses endpoints outside the catalogue and paths that would resolve elsewhere', async () => {
    const { call, wire } = await signedIn();
    const before = wire.length;
    expect(await call('GET', '/no/such/endpoint')).toEqual(
      refused(unknownEndpointMessage('GET', '/no/such/endpoint')),
    );
    expect(unknownEndpointMessage('GET', '/nope')).toBe('Unknown endpoint: GET /nope');
    // A known path with a method it does not have.
    expect(await call('PATCH', '/users/me/alert_words')).toEqual(
      refused('Unknown endpoint: PATCH /users/me/alert_words'),
    );
    for (const path of [
      '/user_uploads/1/../../events',
      '/user_uploads/1/%2e%2E/%2e%2e/events',
      '/users/me/%2Fdrafts/topics',
      '/streams/12?x=1',
      '/streams//members',
      '/streams/12/',
    ]) {
      expect(await call('GET', path), path).toEqual(refused(invalidPathMessage(path)));
    }
    expect(wire.slice(before)).toEqual([]);
  });

  it('is refused by the router when the payload is malformed', async () => {
    const { app, account } = await signedIn();
    const invoke = (payload: Record<string, unknown>) =>
      app.invoke('api.call', { accountId: account.id, method: 'GET', path: '/users/me', ...payload });
    const invalid = (detail: string) => refused(`Invalid request for api.call: ${detail}`);
    expect(await invoke({ method: 'PUT' })).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/^Invalid request for api\.call: method: /),
      },
    });
    expect(await invoke({ path: `/${'a'.repeat(500)}` })).toEqual(
      invalid('path: Too big: expected string to have <=500 characters'),
    );
    expect(await invoke({ path: 'users/me' })).toEqual(invalid('path: path must start with /'));
    expect(await invoke({ params: ['x'] })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await invoke({ params: { big: 'x'.repeat(1_000_000) } })).toEqual(
      invalid('params: params must be at most 1000000 bytes of JSON'),
    );
    expect(await app.invoke('api.call', { method: 'GET', path: '/users/me' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('accountId') },
    });
    expect(await invoke({ accountId: 'no-such-account' })).toMatchObject({ ok: false });
  });
});

describe("api.call: a custom emoji's image", () => {
  it('answers the bytes and type of GET /user_uploads/emoji/{id}/{filename}, the address register gives', async () => {
    const { app, account, call } = await signedIn();
    const added = await app.invoke('api.upload', {
      accountId: account.id,
      path: '/realm/emoji/image_dot',
      fileName: 'dot.png',
      mimeType: 'image/png',
      dataBase64: PNG_1X1,
    });
    expect(added.ok).toBe(true);
    let sourceUrl = '';
    await waitFor('the emoji in the core state', () => {
      const emoji = Object.values(app.core.accountState(account.id)?.state.realmEmoji ?? {}).find(
        (e) => e.name === 'image_dot',
      );
      sourceUrl = emoji?.source_url ?? '';
      return sourceUrl !== '';
    });
    expect(sourceUrl).toMatch(/^\/user_uploads\/emoji\/\d+\/[\w-]+\.png$/);
    expect(await call('GET', sourceUrl)).toEqual({
      ok: true,
      value: { content_type: 'image/png', data_base64: PNG_1X1 },
    });

    // A missing image: the server's own answer.
    expect(await call('GET', '/user_uploads/emoji/999999/none.png')).toEqual({
      ok: false,
      error: { message: 'File not found', code: 'NOT_FOUND' },
    });
  });

  it('reads no other page: not another method, a non-numeric id, nor a path that leaves it', async () => {
    const { call, wire } = await signedIn();
    const before = wire.length;
    expect(await call('POST', '/user_uploads/emoji/1/dot.png')).toEqual(
      refused(unknownEndpointMessage('POST', '/user_uploads/emoji/1/dot.png')),
    );
    expect(await call('GET', '/user_uploads/emoji/one/dot.png')).toEqual(
      refused(unknownEndpointMessage('GET', '/user_uploads/emoji/one/dot.png')),
    );
    expect(await call('GET', '/user_uploads/emoji/1/%2E%2E')).toEqual(
      refused(invalidPathMessage('/user_uploads/emoji/1/%2E%2E')),
    );
    expect(await call('GET', '/user_uploads/emoji/1')).toEqual(
      refused(unknownEndpointMessage('GET', '/user_uploads/emoji/1')),
    );
    expect(wire.length).toBe(before);
  });
});

describe('uploads.image', () => {
  async function uploaded(signed: Signed, fileName: string, data: Buffer): Promise<string> {
    const result = await signed.app.invoke<{ url: string }>('api.upload', {
      accountId: signed.account.id,
      path: '/user_uploads',
      fileName,
      mimeType: 'application/octet-stream',
      dataBase64: data.toString('base64'),
    });
    if (!result.ok) throw new Error(result.error.message);
    return result.value.url;
  }

  it("answers an uploaded PNG's type and bytes, asking its temporary URL with the key", async () => {
    const signed = await signedIn();
    const { app, account, wire } = signed;
    const path = await uploaded(signed, 'dot.png', Buffer.from(PNG_1X1, 'base64'));
    expect(path).toMatch(/^\/user_uploads\/\d+\/[0-9a-f]{2}\/[\w-]+\/dot\.png$/);
    const before = wire.length;
    expect(await app.invoke('uploads.image', { accountId: account.id, path })).toEqual({
      ok: true,
      value: { contentType: 'image/png', dataBase64: PNG_1X1 },
    });
    // One request with the key: the temporary URL (the image itself is read without it).
    const asked = wire.slice(before).filter((r) => !r.url.pathname.endsWith('/events'));
    expect(asked.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([`GET /api/v1${path}`]);
    expect(asked[0]?.init.headers.Authorization).toMatch(/^Basic /);
  });

  it('refuses a file that is not an image, whatever its name, and one over 10 MiB', async () => {
    const signed = await signedIn();
    const { app, account } = signed;
    const text = await uploaded(signed, 'notes.png', Buffer.from('not a picture\n'));
    expect(await app.invoke('uploads.image', { accountId: account.id, path: text })).toEqual({
      ok: false,
      error: { message: notAnImageMessage(text, 'text/plain'), code: 'BAD_RESPONSE' },
    });
    expect(notAnImageMessage(text, 'text/plain')).toBe(
      `${text} is not an image the app shows (text/plain); PNG, GIF, JPEG and WebP are`,
    );

    const png = Buffer.from(PNG_1X1, 'base64');
    const large = Buffer.concat([png, Buffer.alloc(MAX_UPLOAD_IMAGE_BYTES + 1 - png.length)]);
    const big = await uploaded(signed, 'big.png', large);
    expect(await app.invoke('uploads.image', { accountId: account.id, path: big })).toEqual({
      ok: false,
      error: { message: imageTooLargeMessage(big), code: 'BAD_RESPONSE' },
    });
    expect(imageTooLargeMessage(big)).toBe(`${big} is larger than 10 MiB: too large to show`);
    // Exactly 10 MiB is shown.
    const limit = await uploaded(signed, 'limit.png', large.subarray(0, MAX_UPLOAD_IMAGE_BYTES));
    const atLimit = await app.invoke<{ contentType: string; dataBase64: string }>('uploads.image', {
      accountId: account.id,
      path: limit,
    });
    expect(atLimit.ok && atLimit.value.contentType).toBe('image/png');
    expect(atLimit.ok && Buffer.from(atLimit.value.dataBase64, 'base64').length).toBe(MAX_UPLOAD_IMAGE_BYTES);
  });

  it("answers the service's refusal of a file the user may not read", async () => {
    const { app, account } = await signedIn();
    expect(
      await app.invoke('uploads.image', {
        accountId: account.id,
        path: '/user_uploads/1/ab/nosuchfile/x.png',
      }),
    ).toEqual({ ok: false, error: { message: 'File not found', code: 'NOT_FOUND' } });
  });

  it('is refused by the router for any path but an uploaded file, before anything is sent', async () => {
    const { app, account, wire } = await signedIn();
    const before = wire.length;
    const invalid = refused(
      'Invalid request for uploads.image: path: path must be an uploaded file: /user_uploads/{realm_id}/{dir}/{key}/{filename}',
    );
    for (const path of [
      '/users/me',
      '/api/v1/users/me',
      '/user_uploads',
      '/user_uploads/1/ab/cd',
      '/user_uploads/1/ab/cd/e/f.png',
      '/user_uploads/emoji/1/dot.png',
      '/user_uploads/temporary/1.2.abc/dot.png',
      '/user_uploads/1/ab/../dot.png',
      '/user_uploads/1/ab/%2E%2E/dot.png',
      '/user_uploads/1/ab/cd%2F..%2F../dot.png',
      '/user_uploads/1/ab/cd/dot.png?x=1',
      'https://example.com/user_uploads/1/ab/cd/dot.png',
    ]) {
      expect(await app.invoke('uploads.image', { accountId: account.id, path }), path).toEqual(invalid);
    }
    expect(
      await app.invoke('uploads.image', {
        accountId: 'no-such-account',
        path: '/user_uploads/1/ab/cd/x.png',
      }),
    ).toMatchObject({ ok: false });
    expect(wire.slice(before).filter((r) => !r.url.pathname.endsWith('/events'))).toEqual([]);
  });
});

describe('readAtMost', () => {
  it('reads a body up to the limit, and stops at a larger one, declared or not', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    expect(await readAtMost(new Response(bytes), 4)).toEqual(bytes);
    expect(await readAtMost(new Response(bytes), 3)).toBeNull();
    const declared = new Response(bytes, { headers: { 'Content-Length': '4000000' } });
    expect(await readAtMost(declared, 5)).toBeNull();
    const chunked = new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(3));
          controller.enqueue(new Uint8Array(3));
          controller.close();
        },
      }),
    );
    expect(await readAtMost(chunked, 5)).toBeNull();
  });
});

describe('api.upload', () => {
  it('adds a custom emoji from a real PNG; it is listed, and the event reaches the core', async () => {
    const { app, account, call, wire } = await signedIn();
    const added = await app.invoke('api.upload', {
      accountId: account.id,
      path: '/realm/emoji/proxied_dot',
      fileName: 'dot.png',
      mimeType: 'image/png',
      dataBase64: PNG_1X1,
    });
    expect(added).toEqual({ ok: true, value: {} });
    const post = wire.find((r) => r.method === 'POST' && r.url.pathname.endsWith('/realm/emoji/proxied_dot'));
    expect(post?.init.headers['Content-Type']).toMatch(
      /^multipart\/form-data; boundary=ConfabFormBoundary[0-9a-f]{32}$/,
    );
    expect(post?.init.body).toBeInstanceOf(Uint8Array);

    const listed = await call<{ emoji: Record<string, { name: string; deactivated: boolean }> }>(
      'GET',
      '/realm/emoji',
    );
    expect(listed.ok && Object.values(listed.value.emoji).map((e) => e.name)).toContain('proxied_dot');
    await waitFor('the emoji in the core state', () =>
      Object.values(app.core.accountState(account.id)?.state.realmEmoji ?? {}).some(
        (e) => e.name === 'proxied_dot' && !e.deactivated,
      ),
    );

    // The server's own refusal comes back as it is.
    const again = await app.invoke('api.upload', {
      accountId: account.id,
      path: '/realm/emoji/proxied_dot',
      fileName: 'dot.png',
      mimeType: 'image/png',
      dataBase64: PNG_1X1,
    });
    expect(again).toEqual({
      ok: false,
      error: { message: 'A custom emoji with this name already exists.', code: 'BAD_REQUEST' },
    });
  });

  it('uploads a file with its name and answers its URL', async () => {
    const { app, account } = await signedIn();
    const text = 'hello from the proxy\n';
    const uploaded = await app.invoke<{ uri: string; url: string; filename: string }>('api.upload', {
      accountId: account.id,
      path: '/user_uploads',
      fileName: 'café "final".txt',
      mimeType: 'text/plain',
      dataBase64: Buffer.from(text).toString('base64'),
    });
    expect(uploaded.ok).toBe(true);
    if (!uploaded.ok) return;
    expect(uploaded.value.url).toMatch(/^\/user_uploads\/\d+\//);
    // UTF-8 as browsers send it, quotes percent-encoded (WHATWG's multipart/form-data encoding).
    expect(uploaded.value.filename).toBe('café %22final%22.txt');
  });

  it('sends files only to the upload endpoints, and refuses malformed payloads in the router', async () => {
    const { app, account } = await signedIn();
    const upload = (payload: Record<string, unknown>) =>
      app.invoke('api.upload', {
        accountId: account.id,
        path: '/user_uploads',
        fileName: 'a.txt',
        mimeType: 'text/plain',
        dataBase64: 'aGk=',
        ...payload,
      });
    expect(await upload({ path: '/users/me/alert_words' })).toEqual(
      refused(
        'Refused: api.upload sends files to /user_uploads or /realm/emoji/{emoji_name}, not to /users/me/alert_words',
      ),
    );
    expect(await upload({ path: '/realm/emoji/../../register' })).toEqual(
      refused(invalidPathMessage('/realm/emoji/../../register')),
    );
    expect(await upload({ dataBase64: 'not base64!' })).toEqual(
      refused('Invalid request for api.upload: dataBase64: dataBase64 must be base64'),
    );
    expect(await upload({ fileName: 'a\nb.txt' })).toEqual(
      refused('Invalid request for api.upload: fileName: fileName must not contain control characters'),
    );
    // Larger than 25 MiB decoded.
    const tooLarge = 'A'.repeat(Math.ceil((25 * 1024 * 1024) / 3) * 4 + 4);
    expect(await upload({ dataBase64: tooLarge })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('dataBase64') },
    });
  });
});
