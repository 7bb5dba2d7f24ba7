/**
 * The SMTP relay client (server/email/smtp.ts, nodemailer underneath) against a scripted relay
 * on 127.0.0.1: what crosses the wire, and that credentials never do in clear.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sendSmtp, smtpRelay } from '../email/smtp';
import { type FakeRelay, fakeRelay, type RelayScript } from './support/smtp-relay';

const relays: FakeRelay[] = [];
afterEach(() => {
  for (const relay of relays.splice(0)) relay.server.close();
});

async function relayWith(script: RelayScript = {}): Promise<FakeRelay> {
  const relay = await fakeRelay(script);
  relays.push(relay);
  return relay;
}

const MESSAGE = 'Subject: hi\r\n\r\nfirst line\r\n.starts with a dot\r\nlast line\r\n';

describe('sendSmtp', () => {
  it('relays the text as written, dot-stuffed on the wire, and says QUIT', async () => {
    const relay = await relayWith();
    await sendSmtp(`smtp://127.0.0.1:${relay.port}`, 'noreply@example.com', 'bob@example.com', MESSAGE);
    const log = relay.sessions[0] ?? [];
    expect(log[0]).toMatch(/^EHLO \S+$/);
    expect(log.slice(1, 4)).toEqual(['MAIL FROM:<noreply@example.com>', 'RCPT TO:<bob@example.com>', 'DATA']);
    const data = log.filter((l) => l.startsWith('DATA ')).map((l) => l.slice(5));
    expect(data).toContain('..starts with a dot');
    expect(`${data.map((l) => l.replace(/^\.\./, '.')).join('\r\n')}\r\n`).toBe(MESSAGE);
    expect(log.at(-1)).toBe('QUIT');
  });

  it('declares BODY=8BITMIME for 8-bit text only', async () => {
    const relay = await relayWith();
    const url = `smtp://127.0.0.1:${relay.port}`;
    await sendSmtp(url, 'a@example.com', 'b@example.com', 'Subject: plain\r\n\r\nascii\r\n');
    await sendSmtp(url, 'a@example.com', 'b@example.com', 'Subject: accents\r\n\r\nZoë\r\n');
    expect(relay.sessions.map((log) => log[1])).toEqual([
      'MAIL FROM:<a@example.com>',
      'MAIL FROM:<a@example.com> BODY=8BITMIME',
    ]);
  });

  it('starts TLS when the relay offers it, and sends nothing when that fails', async () => {
    const relay = await relayWith({
      extensions: ['8BITMIME', 'STARTTLS'],
      replies: { STARTTLS: '454 4.7.0 TLS not available' },
    });
    await expect(
      sendSmtp(`smtp://127.0.0.1:${relay.port}`, 'a@example.com', 'b@example.com', MESSAGE),
    ).rejects.toThrow();
    const log = relay.sessions[0] ?? [];
    expect(log).toContain('STARTTLS');
    expect(log.some((l) => l.startsWith('MAIL'))).toBe(false);
  });

  it('never sends credentials in clear: no STARTTLS, no AUTH', async () => {
    const relay = await relayWith({
      extensions: ['8BITMIME', 'AUTH PLAIN LOGIN'],
      replies: { STARTTLS: '502 5.5.1 not implemented' },
    });
    await expect(
      sendSmtp(`smtp://user:secret@127.0.0.1:${relay.port}`, 'a@example.com', 'b@example.com', MESSAGE),
    ).rejects.toThrow();
    const log = relay.sessions[0] ?? [];
    expect(log.some((l) => l.startsWith('AUTH') || l.startsWith('MAIL'))).toBe(false);
  });
});

describe('smtpRelay', () => {
  it('reads smtp:// with the standard port, STARTTLS required only with credentials', () => {
    expect(smtpRelay('smtp://mail.example.com')).toMatchObject({
      options: { host: 'mail.example.com', port: 25, secure: false, requireTLS: false },
      auth: undefined,
    });
    expect(smtpRelay('smtp://me:p%40ss@[::1]:2525')).toMatchObject({
      options: { host: '::1', port: 2525, secure: false, requireTLS: true },
      auth: { user: 'me', pass: 'p@ss' },
    });
  });

  it('reads smtps:// as TLS from the start on port 465', () => {
    expect(smtpRelay('smtps://me:pw@mail.example.com')).toMatchObject({
      options: { host: 'mail.example.com', port: 465, secure: true, requireTLS: false },
      auth: { user: 'me', pass: 'pw' },
    });
  });

  it('refuses other schemes', () => {
    expect(() => smtpRelay('http://mail.example.com')).toThrow('Unsupported SMTP URL scheme http:');
  });
});
