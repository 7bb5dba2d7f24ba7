/**
 * Just enough of an SMTP relay on 127.0.0.1 to see what the service hands over: it logs each
 * session's commands, and the message's lines as `DATA <line>` (as they arrive on the wire,
 * dot-stuffing included), and answers as scripted.
 */
import { createServer, type Server } from 'node:net';

export interface FakeRelay {
  server: Server;
  port: number;
  /** One log per connection, in arrival order. */
  sessions: string[][];
}

export interface RelayScript {
  /** The extensions announced after EHLO. Default: 8BITMIME. */
  extensions?: string[];
  /** Replies to other verbs (STARTTLS, AUTH, ...) by verb; default `250 ok`. */
  replies?: Record<string, string>;
}

function ehloReply(extensions: string[]): string {
  const lines = ['fake', ...extensions];
  return lines.map((line, i) => `250${i < lines.length - 1 ? '-' : ' '}${line}\r\n`).join('');
}

export function fakeRelay(script: RelayScript = {}): Promise<FakeRelay> {
  const sessions: string[][] = [];
  const server = createServer((socket) => {
    const log: string[] = [];
    sessions.push(log);
    let buffer = '';
    let inData = false;
    const answer = (line: string) => {
      log.push(line);
      const verb = line.split(' ')[0]?.toUpperCase() ?? '';
      if (verb === 'EHLO') socket.write(ehloReply(script.extensions ?? ['8BITMIME']));
      else if (verb === 'DATA') {
        inData = true;
        socket.write('354 go ahead\r\n');
      } else if (verb === 'QUIT') socket.end('221 bye\r\n');
      else socket.write(`${script.replies?.[verb] ?? '250 ok'}\r\n`);
    };
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end = buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!inData) answer(line);
        else if (line === '.') {
          inData = false;
          socket.write('250 queued\r\n');
        } else log.push(`DATA ${line}`);
        end = buffer.indexOf('\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, sessions });
    }),
  );
}
