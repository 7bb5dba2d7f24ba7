/** app://confab/...: the built renderer, with the same headers as browser mode. */
import { readFile } from 'node:fs/promises';
import { APP_HOST } from '../core/desktop/electron-policy';
import { contentTypeFor, findStaticFile, SECURITY_HEADERS } from '../core/static-files';

function textResponse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

export async function handleAppRequest(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, 'Method not allowed.');
  const url = new URL(request.url);
  if (url.hostname !== APP_HOST) return textResponse(404, 'Not found.');
  const file = await findStaticFile(rendererDir, url.pathname);
  if (file === null) return textResponse(404, 'Not found.');
  const body = new Uint8Array(await readFile(file));
  return new Response(body, {
    status: 200,
    headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeFor(file), 'Cache-Control': 'no-cache' },
  });
}
