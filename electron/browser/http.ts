/**
 * Browser mode's HTTP side: the built renderer as static files (static.ts maps paths and sets
 * the security headers), the page only with the secret or the page cookie set with it
 * (access.ts), plain-text errors.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contentTypeFor, findStaticFile, SECURITY_HEADERS } from '../core/static-files';
import type { HostAccess } from './access';

export interface StaticSite {
  /** The built renderer (index.html + assets). */
  rendererDir: string;
  access: HostAccess;
  log: (message: string) => void;
}

/** The `request` listener: serves the site, and turns a failure into a 500 (or a dropped connection). */
export function staticRequestListener(site: StaticSite) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    serveStatic(site, req, res).catch((error: unknown) => {
      site.log(`confab host: ${String(error)}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    });
  };
}

async function serveStatic(site: StaticSite, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!site.access.hostAllowed(req)) return sendText(res, 403, 'Forbidden: unknown host.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendText(res, 405, 'Method not allowed.');
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const isPage = url.pathname === '/' || url.pathname === '/index.html';
  const withSecret = isPage && site.access.hasSecret(url);
  if (isPage && !withSecret && !site.access.hasPageCookie(req)) {
    return sendText(
      res,
      403,
      'Forbidden: open the address that `npm start` printed (it carries the secret).',
    );
  }
  const file = await findStaticFile(site.rendererDir, url.pathname);
  if (file === null) return sendText(res, 404, 'Not found.');
  const body = await readFile(file);
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': contentTypeFor(file),
    'Content-Length': body.length,
    // The page carries the secret in its URL: keep it out of caches. Assets are cheap locally.
    'Cache-Control': isPage ? 'no-store' : 'no-cache',
    // So that a reload of this tab (its address no longer carries the secret) gets the page.
    ...(withSecret ? { 'Set-Cookie': site.access.pageCookieHeader() } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
