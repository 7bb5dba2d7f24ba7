/**
 * Who may use browser mode. Every request must name our host (against DNS rebinding); the page
 * needs the random secret from the printed URL, or, for a reload of a tab that had it (the
 * page takes the secret out of its address bar), the page cookie served with it; the WebSocket
 * needs the secret and our own Origin, which a foreign web page cannot forge. Static assets
 * need no secret: they are the public renderer bundle, and a page cannot pass the secret to its
 * <script>s.
 *
 * The page cookie is an HMAC of the secret, not the secret: cookies are not kept apart by port,
 * so another server on 127.0.0.1 the browser visits may see it, and all it opens is the page
 * itself (the bundle's HTML, public anyway), never the WebSocket.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { BROWSER_SECRET_PARAM, BROWSER_WS_PATH } from '../../shared/ipc';

export function secretsEqual(given: string | null, secret: string): boolean {
  if (given === null) return false;
  // Hashing first gives equal lengths, so neither the length nor the content leaks by timing.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

/** The page cookie's name. */
export const PAGE_COOKIE = 'confab_page';

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The checks, for a host whose port is known once it listens (`port()`). */
export class HostAccess {
  private readonly pageToken: string;

  constructor(
    private readonly secret: string,
    private readonly port: () => number,
  ) {
    this.pageToken = createHmac('sha256', secret).update('confab page reload').digest('base64url');
  }

  /** The Set-Cookie header served with the page: lets this tab reload it, and nothing more. */
  pageCookieHeader(): string {
    return `${PAGE_COOKIE}=${this.pageToken}; Path=/; HttpOnly; SameSite=Strict`;
  }

  /** The request carries the page cookie (a reload of a tab that had the secret). */
  hasPageCookie(req: IncomingMessage): boolean {
    return secretsEqual(cookieValue(req.headers.cookie, PAGE_COOKIE), this.pageToken);
  }

  private allowedHosts(): string[] {
    return [`127.0.0.1:${this.port()}`, `localhost:${this.port()}`];
  }

  /** The Host header names us (127.0.0.1 or localhost, our port). */
  hostAllowed(req: IncomingMessage): boolean {
    return this.allowedHosts().includes(req.headers.host ?? '');
  }

  /** The URL carries the secret. */
  hasSecret(url: URL): boolean {
    return secretsEqual(url.searchParams.get(BROWSER_SECRET_PARAM), this.secret);
  }

  /** A WebSocket upgrade: our host, our page's Origin, and the secret. */
  upgradeAllowed(req: IncomingMessage, url: URL): boolean {
    const origins = this.allowedHosts().map((h) => `http://${h}`);
    return this.hostAllowed(req) && origins.includes(req.headers.origin ?? '') && this.hasSecret(url);
  }

  /**
   * The `upgrade` event: hands an authorised WebSocket on the bridge path to `accept`, and
   * answers anything else with a plain HTTP refusal.
   */
  gateUpgrade(accept: (req: IncomingMessage, socket: Duplex, head: Buffer) => void) {
    return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
      socket.on('error', () => socket.destroy());
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== BROWSER_WS_PATH) refuseUpgrade(socket, 404, 'Not Found');
      else if (!this.upgradeAllowed(req, url)) refuseUpgrade(socket, 403, 'Forbidden');
      else accept(req, socket, head);
    };
  }
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${reason.length}\r\n\r\n${reason}`,
  );
}
