import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  apiBase,
  base64Utf8,
  basicAuthHeader,
  encodeParams,
  multipartBody,
  NetworkError,
} from './index';

describe('encodeParams', () => {
  it('sends strings bare and everything else as JSON text, skipping undefined', () => {
    expect(
      encodeParams({
        topic: 'a b&c',
        flag: true,
        n: 5,
        list: ['x'],
        obj: { a: 1 },
        none: null,
        skip: undefined,
      }),
    ).toBe('topic=a%20b%26c&flag=true&n=5&list=%5B%22x%22%5D&obj=%7B%22a%22%3A1%7D&none=null');
  });
});

describe('base64Utf8', () => {
  it('matches Node for ASCII, multi-byte and astral text', () => {
    for (const text of ['', 'a', 'ab', 'abc', 'alice@example.com:k3y', 'zoë:пароль', 'emoji 🎉 key']) {
      expect(base64Utf8(text)).toBe(Buffer.from(text, 'utf8').toString('base64'));
    }
  });
  it('builds the Basic header', () => {
    expect(basicAuthHeader('u@x', 'p')).toBe(`Basic ${Buffer.from('u@x:p').toString('base64')}`);
  });
});

describe('multipartBody', () => {
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

  it('is one file part between boundaries, its name quoted as browsers quote it', () => {
    const data = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    const { body, contentType } = multipartBody(
      { fileName: 'zoë "1"\r\n.png', mimeType: 'image/png', data },
      'file',
      'XyZ',
    );
    expect(contentType).toBe('multipart/form-data; boundary=XyZ');
    const head =
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="zoë %221%22%0D%0A.png"\r\n' +
      'Content-Type: image/png\r\n\r\n';
    const expected = Buffer.concat([
      Buffer.from(head, 'utf8'),
      Buffer.from(data),
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    expect(Buffer.from(body).equals(expected)).toBe(true);
  });

  it('sends an unknown or malformed media type as application/octet-stream', () => {
    for (const mimeType of ['', 'text/plain\r\nX-Evil: 1', 'nonsense']) {
      const { body } = multipartBody({ fileName: 'a', mimeType, data: new Uint8Array() }, 'file', 'b');
      expect(text(body)).toContain('\r\nContent-Type: application/octet-stream\r\n\r\n');
    }
  });

  it('draws a new random boundary for every body', () => {
    const file = { fileName: 'a', mimeType: 'text/plain', data: new Uint8Array() };
    const a = multipartBody(file).contentType;
    const b = multipartBody(file).contentType;
    expect(a).toMatch(/^multipart\/form-data; boundary=ConfabFormBoundary[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});

describe('apiBase', () => {
  it('appends the version prefix once, whatever trailing slashes the user typed', () => {
    expect(apiBase('https://chat.example.com//')).toBe('https://chat.example.com/api/v1');
  });
});

describe('ApiClient over HTTP', () => {
  let server: Server;
  let url: string;
  const seen: {
    method: string;
    url: string;
    auth: string | undefined;
    type: string | undefined;
    body: string;
  }[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => resolve(body));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await read(req);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/v1/ok') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ result: 'success', msg: '', value: 1 }));
      } else if (path === '/api/v1/limited') {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '7' });
        res.end(
          JSON.stringify({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT' }),
        );
      } else if (path === '/api/v1/html') {
        res.writeHead(502, { 'Content-Type': 'text/html' });
        res.end('<h1>Bad gateway</h1>');
      } else {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('puts GET parameters in the query and authenticates with Basic', async () => {
    const client = new ApiClient({ serverUrl: `${url}/`, credentials: { email: 'a@x', apiKey: 'KEY' } });
    expect(await client.request('GET', '/ok', { dont_block: true, queue_id: 'q1' })).toEqual({
      result: 'success',
      msg: '',
      value: 1,
    });
    const last = seen.at(-1);
    expect(last?.url).toBe('/api/v1/ok?dont_block=true&queue_id=q1');
    expect(last?.auth).toBe(basicAuthHeader('a@x', 'KEY'));
  });

  it('form-encodes PATCH bodies', async () => {
    const client = new ApiClient({ serverUrl: url });
    await client.request('PATCH', '/ok', { twenty_four_hour_time: true, timezone: 'Europe/Berlin' });
    const last = seen.at(-1);
    expect(last?.type).toBe('application/x-www-form-urlencoded');
    expect(last?.body).toBe('twenty_four_hour_time=true&timezone=Europe%2FBerlin');
    expect(last?.auth).toBeUndefined();
  });

  it('uploads a file as multipart/form-data, with Basic auth', async () => {
    const client = new ApiClient({ serverUrl: url, credentials: { email: 'a@x', apiKey: 'KEY' } });
    const data = new Uint8Array(Buffer.from('file body'));
    expect(await client.upload('/ok', { fileName: 'n.txt', mimeType: 'text/plain', data })).toMatchObject({
      value: 1,
    });
    const last = seen.at(-1);
    const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(last?.type ?? '')?.[1];
    expect(last?.method).toBe('POST');
    expect(last?.auth).toBe(basicAuthHeader('a@x', 'KEY'));
    expect(last?.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="n.txt"\r\n` +
        `Content-Type: text/plain\r\n\r\nfile body\r\n--${boundary}--\r\n`,
    );
  });

  it('throws ApiError with the envelope code and msg', async () => {
    const client = new ApiClient({ serverUrl: url });
    const error = await client.request('PATCH', '/streams/9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Invalid stream ID',
      retryAfter: null,
    });
  });

  it('reads Retry-After on 429', async () => {
    const error = await new ApiClient({ serverUrl: url }).request('GET', '/limited').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_HIT', retryAfter: 7 });
  });

  it('names a non-JSON error by its status', async () => {
    const error = await new ApiClient({ serverUrl: url }).request('GET', '/html').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message: 'GET /html failed with HTTP 502' });
  });

  it('wraps refused connections in NetworkError', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await new ApiClient({ serverUrl: `http://127.0.0.1:${port}` })
      .request('GET', '/ok')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
  });
});
