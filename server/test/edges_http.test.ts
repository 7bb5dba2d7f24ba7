/**
 * The HTTP edges answer in the envelope: request headers over 16 KiB get a 431 envelope, and
 * a body over the size limit gets its 413 envelope before the connection closes in stages,
 * so that a client still sending (fetch, or a raw socket) reads the answer instead of a reset.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../shared/client';
import { call, serviceWithAuth } from './support/service';

const { svc, alice } = await serviceWithAuth(['alice']);
const auth = () => basicAuthHeader(alice[0], alice[1]);

const envelope = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

/** What a raw connection received until the server closed it, and whether it was reset. */
function collect(socket: Socket, endOnFin = true): Promise<{ text: string; reset: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server's FIN: nothing more to send either.
    if (endOnFin) socket.on('end', () => socket.end());
    socket.on('error', () => {
      reset = true;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), reset }));
  });
}

/** A raw connection that, like an HTTP client, may go on sending after the server's FIN. */
function rawConnection(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port: svc.port, host: '127.0.0.1', allowHalfOpen: true }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Resolves once the socket can take more, or is gone. */
function writable(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/** The status and JSON body of a raw HTTP/1.1 response text. */
function parseResponse(text: string): { status: number; body: unknown; headers: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('request headers over 16 KiB', () => {
  it('get a 431 envelope on a raw connection', async () => {
    const socket = await rawConnection();
    const done = collect(socket);
    socket.write(`GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
    const { text } = await done;
    const r = parseResponse(text);
    expect(r.status).toBe(431);
    expect(r.headers).toContain('content-type: application/json');
    expect(r.body).toEqual(envelope('Request header fields are too large'));
  });

  it('get a 431 envelope through fetch, and the server goes on serving', async () => {
    const response = await fetch(`${svc.url}/api/v1/users/me`, {
      headers: { Authorization: auth(), 'X-Pad': 'a'.repeat(20_000) },
    });
    expect(response.status).toBe(431);
    expect(await response.json()).toEqual(envelope('Request header fields are too large'));
    const me = await call(svc.url, 'GET', '/users/me', { auth: alice });
    expect(me.status).toBe(200);
  });

  it('answer any other unparsable request with a 400 envelope', async () => {
    const socket = await rawConnection();
    const done = collect(socket);
    socket.write('GARBAGE\x01 / HTTP/1.1\r\n\r\n');
    const r = parseResponse((await done).text);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(envelope('Malformed HTTP request'));
  });
});

describe('a 10 MB body sent without Expect: 100-continue', () => {
  const tenMegabytes = `twenty_four_hour_time=true&pad=${'x'.repeat(10_000_000)}`;

  it('reaches fetch as the 413 envelope, not a reset, and changes nothing', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await fetch(`${svc.url}/api/v1/settings`, {
        method: 'PATCH',
        headers: { Authorization: auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: tenMegabytes,
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('connection')).toBe('close');
      expect(await response.json()).toEqual(envelope('Request body is too large'));
    }
    const me = await call(svc.url, 'POST', '/register', {
      auth: alice,
      params: { fetch_event_types: ['user_settings'] },
    });
    expect((me.body.user_settings as Record<string, unknown>).twenty_four_hour_time).toBe(false);
  });

  it('reaches a raw client that keeps sending, then the connection ends without a reset', async () => {
    const socket = await rawConnection();
    const done = collect(socket, false);
    socket.write(
      'PATCH /api/v1/settings HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: ${auth()}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        'Content-Length: 10000000\r\n\r\n',
    );
    // Keep sending while the answer comes back, as a simple client does.
    const chunk = Buffer.alloc(50_000, 'x');
    for (let sent = 0; sent < 10_000_000 && !socket.destroyed; sent += chunk.length) {
      if (!socket.write(chunk)) await writable(socket);
    }
    socket.end();
    const { text, reset } = await done;
    expect(reset).toBe(false);
    const r = parseResponse(text);
    expect(r.status).toBe(413);
    expect(r.body).toEqual(envelope('Request body is too large'));
  });

  it('answers a chunked body over the limit alike', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(120));
        controller.close();
      },
    });
    const response = await fetch(`${svc.url}/api/v1/settings`, {
      method: 'PATCH',
      headers: { Authorization: auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(envelope('Request body is too large'));
  });
});

describe('a refusal before a multipart body is read', () => {
  it('reaches fetch as the envelope even with megabytes still to come', async () => {
    const form = new FormData();
    form.append('content', 'x');
    form.append('file', new Blob([Buffer.alloc(8 * 1024 * 1024)]), 'big.bin');
    const response = await fetch(`${svc.url}/api/v1/messages`, {
      method: 'POST',
      headers: { Authorization: basicAuthHeader(alice[0], 'wrong key') },
      body: form,
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="Confab"');
    expect(await response.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });

  it('reaches fetch as the envelope when a part is refused midway', async () => {
    const form = new FormData();
    form.append('content', 'x'.repeat(1024 * 1024 + 1));
    form.append('file', new Blob([Buffer.alloc(8 * 1024 * 1024)]), 'big.bin');
    const response = await fetch(`${svc.url}/api/v1/messages`, {
      method: 'POST',
      headers: { Authorization: auth() },
      body: form,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(envelope('Request body is too large'));
  });
});
