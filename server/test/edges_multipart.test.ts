/**
 * multipart/form-data bodies: text parts are parameters exactly like form fields, file parts
 * reach the handler as `files` (size-limited), and a malformed body is a 400 envelope. Real
 * requests with FormData and fetch against the real server, and against the router alone
 * with a probe route that echoes the files it was handed.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../shared/client';
import type { EndpointSpec } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { type AnyRoute, createHttpApp, registerEndpoints } from '../http';
import { call, query, serviceWithAuth } from './support/service';

const { svc, alice } = await serviceWithAuth(['alice']);

async function send(method: string, path: string, form: FormData, auth = alice) {
  const response = await fetch(`${svc.url}/api/v1${path}`, {
    method,
    headers: { Authorization: basicAuthHeader(auth[0], auth[1]) },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

const ENVELOPE_400 = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

describe('multipart/form-data on the real server', () => {
  it('takes a POST whose parameters are text parts', async () => {
    const r = await send(
      'POST',
      '/messages',
      formOf({ type: 'stream', to: 'general', topic: 'multipart', content: 'sent as multipart ✓' }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: 'success', msg: '' });
    const [row] = query<{ content: string }>(svc, 'SELECT content FROM messages WHERE id = ?', r.body.id);
    expect(row?.content).toBe('sent as multipart ✓');
  });

  it('takes a PATCH whose parameters are text parts, JSON values included', async () => {
    const r = await send(
      'PATCH',
      '/settings',
      formOf({ dense_mode: 'false', twenty_four_hour_time: 'true' }),
    );
    expect(r.status).toBe(200);
    const me = await call(svc.url, 'POST', '/register', {
      auth: alice,
      params: { fetch_event_types: ['user_settings'] },
    });
    expect(me.body.user_settings).toMatchObject({ dense_mode: false, twenty_four_hour_time: true });
  });

  it('reports a bad text part as it reports a bad form field', async () => {
    const r = await send('PATCH', '/settings', formOf({ dense_mode: '1' }));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ result: 'error', msg: 'dense_mode is not a boolean' });
  });

  it('takes a request carrying a file part (a route without uploads ignores it)', async () => {
    const form = formOf({ type: 'stream', to: 'general', topic: 'multipart', content: 'with a file' });
    form.append('file', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'hello.txt');
    const r = await send('POST', '/messages', form);
    expect(r.status).toBe(200);
    expect(r.body.result).toBe('success');
  });

  it('answers a malformed multipart body with a 400 envelope and changes nothing', async () => {
    const bodies = [
      // The closing boundary never comes.
      '--x\r\nContent-Disposition: form-data; name="dense_mode"\r\n\r\ntrue',
      // Headers that never end.
      `--x\r\nContent-Disposition: form-data; name="a"\r\n${'X-Pad: y\r\n'.repeat(3000)}`,
    ];
    for (const body of bodies) {
      const r = await call(svc.url, 'PATCH', '/settings', {
        auth: alice,
        body,
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
      });
      expect(r.status, body).toBe(400);
      expect(r.body).toEqual(ENVELOPE_400('Malformed multipart body'));
    }
    const noBoundary = await call(svc.url, 'PATCH', '/settings', {
      auth: alice,
      body: 'dense_mode=true',
      headers: { 'Content-Type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body).toEqual(ENVELOPE_400('Malformed multipart body'));
  });

  it('refuses a text part that is not UTF-8', async () => {
    const body = Buffer.concat([
      Buffer.from('--x\r\nContent-Disposition: form-data; name="full_name"\r\n\r\nA'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('b\r\n--x--\r\n'),
    ]);
    const response = await fetch(`${svc.url}/api/v1/settings`, {
      method: 'PATCH',
      headers: {
        Authorization: basicAuthHeader(alice[0], alice[1]),
        'Content-Type': 'multipart/form-data; boundary=x',
      },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(ENVELOPE_400('Invalid characters in parameter'));
  });
});

describe('file parts as the router hands them to a route', () => {
  const probe: EndpointSpec = {
    method: 'POST',
    path: '/probe',
    permission: 'none',
    params: [{ name: 'note', kind: 'string', in: 'body', required: false, example: 'x' }],
    source: 'family',
  };
  const handle = ({ files, params }: { files: { data: Buffer }[]; params: Record<string, unknown> }) => ({
    note: params.note,
    files: files.map((f) => ({ ...f, data: f.data.toString('base64') })),
  });
  const routes = [
    { endpoint: 'POST /probe', handle },
    { endpoint: 'POST /small', maxFileBytes: 1024 * 1024, handle },
  ] as unknown as AnyRoute[];
  const app = createHttpApp({ logger: false });
  registerEndpoints(app, {} as ServiceContext, {
    catalogue: [probe, { ...probe, path: '/small' }],
    prefix: '',
    routes,
  });
  let base = '';
  beforeAll(async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  it('hands over each file whole with its field name, file name and type', async () => {
    const form = new FormData();
    form.append('note', 'two files');
    form.append('file', new Blob([Buffer.from([0, 1, 2, 255])], { type: 'image/png' }), 'a.png');
    form.append('other', new Blob(['text body'], { type: 'text/plain' }), 'b.txt');
    const response = await fetch(`${base}/probe`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      note: 'two files',
      files: [
        { fieldname: 'file', filename: 'a.png', mimetype: 'image/png', data: 'AAEC/w==' },
        { fieldname: 'other', filename: 'b.txt', mimetype: 'text/plain', data: 'dGV4dCBib2R5' },
      ],
    });
  });

  it("refuses a file over the route's limit with a 400 envelope", async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(1024 * 1024 + 1)]), 'big.bin');
    const response = await fetch(`${base}/small`, { method: 'POST', body: form });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      ENVELOPE_400('Uploaded file is larger than the allowed limit of 1 MiB'),
    );
    const exact = new FormData();
    exact.append('file', new Blob([Buffer.alloc(1024 * 1024)]), 'exact.bin');
    expect((await fetch(`${base}/small`, { method: 'POST', body: exact })).status).toBe(200);
  });

  it('takes files up to 25 MiB by default, and refuses larger ones', async () => {
    const big = new FormData();
    big.append('file', new Blob([Buffer.alloc(25 * 1024 * 1024 + 1)]), 'big.bin');
    const response = await fetch(`${base}/probe`, { method: 'POST', body: big });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(
      ENVELOPE_400('Uploaded file is larger than the allowed limit of 25 MiB'),
    );
  });
});
