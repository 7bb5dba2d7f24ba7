/**
 * Answers that end a connection while the client may still be sending (a body over the size
 * limit, request headers over 16 KiB), closed in stages as RFC 9112 section 9.6 asks: stop
 * reading the request, write the whole response, half-close (FIN), keep reading and dropping
 * what still arrives for a moment, then close. Closing at once would make the kernel answer
 * the unread bytes with a reset, and the client would see "connection reset" instead of our
 * error envelope.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** How long a half-closed connection keeps draining before it is closed regardless. */
export const LINGER_MS = 2000;

/** The raw HTTP/1.1 response of an error envelope that closes the connection. */
export function closingResponse(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): string {
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    text,
  ].join('\r\n');
}

/** A socket as Node's HTTP server holds it: its parser may be reading it natively. */
type ServerSocket = Duplex & {
  parser?: { unconsume?: () => void } | null;
  _handle?: { reading?: boolean; readStart?: () => number } | null;
};

/**
 * Takes the socket away from Node's HTTP parser, which would otherwise go on reading (or
 * stop reading) the rest of the request as it sees fit: from now on the bytes reach us alone.
 */
function detachFromParser(socket: ServerSocket): void {
  socket.parser?.unconsume?.();
  socket.removeAllListeners('data');
  socket.removeAllListeners('end');
  // The parser may have stopped the handle; reading resumes through the stream.
  const handle = socket._handle;
  if (handle && !handle.reading && handle.readStart) {
    handle.reading = true;
    handle.readStart();
  }
}

/**
 * Writes `response` and closes the socket in stages; no route writes to it any more, and
 * whatever the client still sends is read and dropped.
 */
export function lingeringClose(socket: Duplex, response: string, lingerMs = LINGER_MS): void {
  if (socket.destroyed) return;
  detachFromParser(socket);
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.on('close', () => clearTimeout(timer));
  // A client that resets or closes its side ends the linger early.
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  socket.on('data', () => {});
  socket.end(response);
  socket.resume();
}
