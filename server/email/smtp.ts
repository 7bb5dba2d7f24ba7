/**
 * A minimal SMTP client (RFC 5321) for handing outbox messages to a relay: `smtp://host:port`
 * (plain, for a relay on the same machine or network) or `smtps://` (implicit TLS), with
 * AUTH PLAIN when the URL carries a user name. No STARTTLS, no pipelining, no retries: the
 * outbox file stays as the record of every message whether the relay took it or not.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect } from 'node:tls';

interface Reply {
  code: number;
  text: string;
}

/** Collects complete replies (the last line of a multi-line reply has a space after the code). */
function replyReader(socket: Socket) {
  let buffer = '';
  const replies: Reply[] = [];
  const waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  let failure: Error | null = null;
  let lines: string[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\r\n');
    while (end >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      lines.push(line.slice(4));
      if (line.charAt(3) !== '-') {
        const reply = { code: Number(line.slice(0, 3)), text: lines.join('\n') };
        lines = [];
        const waiter = waiting.shift();
        if (waiter) waiter.resolve(reply);
        else replies.push(reply);
      }
      end = buffer.indexOf('\r\n');
    }
  });
  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(failure);
  };
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('SMTP connection closed')));
  return (): Promise<Reply> => {
    const ready = replies.shift();
    if (ready) return Promise.resolve(ready);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

/** Lines starting with a dot get another (RFC 5321 4.5.2); the message ends with CRLF.CRLF. */
function dataBlock(message: string): string {
  const text = message.endsWith('\r\n') ? message : `${message}\r\n`;
  return `${text.replace(/^\./gm, '..')}.\r\n`;
}

export async function sendSmtp(url: string, from: string, to: string, message: string, timeoutMs = 30_000) {
  const target = new URL(url);
  const secure = target.protocol === 'smtps:';
  if (!secure && target.protocol !== 'smtp:')
    throw new Error(`Unsupported SMTP URL scheme ${target.protocol}`);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (secure ? 465 : 25));
  const socket = secure ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
  socket.setTimeout(timeoutMs, () => socket.destroy(new Error('SMTP timeout')));
  const next = replyReader(socket);
  const step = async (command: string | null, ok: number[]) => {
    if (command !== null) socket.write(`${command}\r\n`);
    const reply = await next();
    if (!ok.includes(reply.code)) {
      throw new Error(`SMTP ${command?.split(' ')[0] ?? 'greeting'} refused: ${reply.code} ${reply.text}`);
    }
  };
  try {
    await step(null, [220]);
    await step(`EHLO ${hostname() || 'localhost'}`, [250]);
    if (target.username) {
      const user = decodeURIComponent(target.username);
      const password = decodeURIComponent(target.password);
      await step(`AUTH PLAIN ${Buffer.from(`\0${user}\0${password}`).toString('base64')}`, [235]);
    }
    await step(`MAIL FROM:<${from}>`, [250]);
    await step(`RCPT TO:<${to}>`, [250, 251]);
    await step('DATA', [354]);
    await step(dataBlock(message).slice(0, -2), [250]);
    socket.write('QUIT\r\n');
  } finally {
    socket.end();
  }
}
