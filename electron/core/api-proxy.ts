/**
 * The renderer's way to the service's REST API (`api.call`, `api.upload`): a request names a
 * method and a path of the endpoint catalogue (shared/protocol/endpoints.ts), and the main
 * process sends it with the account's key, which the renderer never holds. The router has
 * already bounded the payload's sizes (shared/ipc); this module decides what may be sent at
 * all, before anything goes to the server:
 *
 * - only endpoints of the catalogue, with every path parameter one plain segment (no `..`,
 *   no encoded slash: a path must not resolve to another endpoint than the one it matched);
 * - never what the main process must keep to itself: anything that returns or rotates an API
 *   key, the event queue (register, events: the core's UpdateMachine owns it), the drafts (the
 *   core's drafts store syncs them), incoming webhooks, and the settings of PATCH /settings
 *   (settings.update, so that the core sees them: drafts synchronization, notifications).
 *
 * One page outside /api/v1 can be read too: a custom emoji's image (GET
 * /user_uploads/emoji/{emoji_id}/{filename}, public in the organization, the address register's
 * realm_emoji gives), which the renderer's CSP would not load from the server. Its bytes come
 * back as `{content_type, data_base64}`, for PNG, GIF, JPEG and WebP of at most 5 MiB; it is
 * fetched without the account's key (the page needs none).
 *
 * And an uploaded image a message links (`uploads.image`, /user_uploads/{realm_id}/{dir}/{key}/
 * {filename}, which needs the account's credentials): the main process asks the service for
 * the file's temporary URL (GET of that path under /api/v1 answers `{url}`, valid a minute,
 * needing none), fetches it without the key and without following redirects, from the
 * account's server only, and hands over its bytes for PNG, GIF, JPEG and WebP of at most
 * 10 MiB; anything else is a CoreError saying why.
 *
 * Refusals are CoreErrors with code BAD_REQUEST and say why; the service's own errors come
 * back with its message and code (router.ts).
 */
import { type ApiClient, NetworkError, type Params } from '../../shared/client';
import {
  type ApiBody,
  type ApiMethod,
  type InvokeRequest,
  isUploadFilePath,
  type UploadImage,
} from '../../shared/ipc';
import { ALL_SETTINGS, ENDPOINTS } from '../../shared/protocol';
import type { AccountService } from './account-service';
import { CoreError } from './errors';
import type { Sessions } from './sessions';

/** A request that hangs must not hold the renderer's promise forever. */
export const API_CALL_TIMEOUT_MS = 30_000;
/** An upload of up to 25 MiB needs longer on a slow line. */
export const API_UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** One path segment: what a `{name}` of a path template matches. */
const SEGMENT = /^[A-Za-z0-9_.%-]+$/;

/** The endpoints api.upload sends files to. */
export const UPLOAD_PATHS = ['/user_uploads', '/realm/emoji/{emoji_name}'] as const;

/** The page api.call reads besides the REST API: a custom emoji's image. */
export const EMOJI_IMAGE_PATH = '/user_uploads/emoji/{emoji_id}/{filename}';
/** The service's limit for a custom emoji's file. */
export const MAX_EMOJI_IMAGE_BYTES = 5 * 1024 * 1024;
/** The image types an emoji is shown in (the ones the service takes for an emoji). */
export const EMOJI_IMAGE_TYPES: readonly string[] = ['image/png', 'image/gif', 'image/jpeg', 'image/webp'];

/** The largest uploaded image uploads.image hands over. */
export const MAX_UPLOAD_IMAGE_BYTES = 10 * 1024 * 1024;

export const notUploadPathMessage = (path: string): string =>
  `Refused: ${JSON.stringify(path)} is not an uploaded file (/user_uploads/{realm_id}/{dir}/{key}/{filename})`;
export const notAnImageMessage = (path: string, contentType: string): string =>
  `${path} is not an image the app shows (${contentType || 'no type'}); PNG, GIF, JPEG and WebP are`;
export const imageTooLargeMessage = (path: string): string =>
  `${path} is larger than ${MAX_UPLOAD_IMAGE_BYTES / 1024 / 1024} MiB: too large to show`;

/** Parameters of PATCH /settings that are not settings: the account's name, address, password. */
export const ACCOUNT_FIELDS: readonly string[] = ['full_name', 'email', 'old_password', 'new_password'];
const SETTINGS_PATHS: readonly string[] = ['/settings', '/settings/display', '/settings/notifications'];

/** Endpoints the renderer may never call itself, whatever the method, and why. */
const REFUSED: readonly { templates: readonly string[]; why: string }[] = [
  {
    templates: ['/fetch_api_key', '/dev_fetch_api_key', '/jwt/fetch_api_key', '/users/me/api_key/regenerate'],
    why: 'API keys never leave the main process',
  },
  { templates: ['/register', '/events'], why: "the main process owns the account's event queue" },
  {
    templates: ['/drafts', '/drafts/{draft_id}'],
    why: 'drafts go through drafts.save and drafts.delete, which keep them on this computer first',
  },
  {
    // Incoming webhooks authenticate with a bot's key: never the app's business.
    templates: ENDPOINTS.filter((e) => e.permission === 'webhook').map((e) => e.path),
    why: 'incoming webhooks are for integrations',
  },
];

export const refusedMessage = (method: string, path: string, why: string): string =>
  `Refused: ${method} ${path}: ${why}`;
export const unknownEndpointMessage = (method: string, path: string): string =>
  `Unknown endpoint: ${method} ${path}`;
export const invalidPathMessage = (path: string): string =>
  `Invalid path: ${JSON.stringify(path)} (segments of letters, digits and _.%- only)`;
export const settingsRefusedMessage = (names: readonly string[]): string =>
  `Refused: PATCH /settings with ${names.join(', ')}: settings go through settings.update`;

const refuse = (message: string): CoreError => new CoreError('BAD_REQUEST', message);

/**
 * The path's segments when every one is a plain segment, else null: `.` and `..` (also
 * percent-encoded) would make the URL resolve to another endpoint than the one matched, and
 * an encoded slash would split a parameter in two on the server.
 */
function segmentsOf(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const segments = path.slice(1).split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded)) return null;
  }
  return segments;
}

/** Whether the segments fit a path template (`{name}` takes any one segment). */
function fits(segments: readonly string[], template: string): boolean {
  const parts = template.slice(1).split('/');
  return (
    parts.length === segments.length &&
    parts.every((part, i) => (part.startsWith('{') && part.endsWith('}')) || part === segments[i])
  );
}

/** Whether an api.call reads a custom emoji's image: GET of EMOJI_IMAGE_PATH, a numeric id. */
export function isEmojiImageCall(method: ApiMethod, path: string): boolean {
  if (method !== 'GET') return false;
  const segments = segmentsOf(path);
  return segments !== null && fits(segments, EMOJI_IMAGE_PATH) && /^\d{1,15}$/.test(segments[2] ?? '');
}

/** Checks one api.call; throws a BAD_REQUEST CoreError saying why it may not be sent. */
export function checkApiCall(
  method: ApiMethod,
  path: string,
  params: Readonly<Record<string, unknown>>,
): void {
  const segments = segmentsOf(path);
  if (segments === null) throw refuse(invalidPathMessage(path));
  // Percent-encoded letters must not smuggle a refused endpoint past the comparison.
  const decoded = segments.map((s) => decodeURIComponent(s));
  for (const { templates, why } of REFUSED) {
    if (templates.some((t) => fits(segments, t) || fits(decoded, t))) {
      throw refuse(refusedMessage(method, path, why));
    }
  }
  if (!ENDPOINTS.some((e) => e.method === method && fits(segments, e.path))) {
    throw refuse(unknownEndpointMessage(method, path));
  }
  if (method === 'PATCH' && SETTINGS_PATHS.includes(path)) {
    const settings = Object.keys(params).filter((name) => Object.hasOwn(ALL_SETTINGS, name));
    if (settings.length > 0) throw refuse(settingsRefusedMessage(settings));
  }
}

/** Checks one api.upload's path: /user_uploads or /realm/emoji/{emoji_name}. */
export function checkUploadPath(path: string): void {
  const segments = segmentsOf(path);
  if (segments === null) throw refuse(invalidPathMessage(path));
  if (!UPLOAD_PATHS.some((t) => fits(segments, t))) {
    throw refuse(`Refused: api.upload sends files to ${UPLOAD_PATHS.join(' or ')}, not to ${path}`);
  }
}

/** The success body as the renderer gets it: without the envelope's result and msg. */
function withoutEnvelope(body: Record<string, unknown>): ApiBody {
  const { result: _result, msg: _msg, ...rest } = body;
  return rest;
}

export class ApiProxy {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessions: Sessions,
  ) {}

  async call({ accountId, method, path, params = {} }: InvokeRequest<'api.call'>): Promise<ApiBody> {
    if (isEmojiImageCall(method, path)) return this.emojiImage(accountId, path);
    checkApiCall(method, path, params);
    const client = await this.clientOf(accountId);
    // Values of any JSON type: the client sends strings bare and the rest as JSON text.
    const body = await client.request(method, path, params as Params, {
      signal: AbortSignal.timeout(API_CALL_TIMEOUT_MS),
    });
    return withoutEnvelope(body);
  }

  async upload({
    accountId,
    path,
    fileName,
    mimeType,
    dataBase64,
  }: InvokeRequest<'api.upload'>): Promise<ApiBody> {
    checkUploadPath(path);
    const client = await this.clientOf(accountId);
    const data = new Uint8Array(Buffer.from(dataBase64, 'base64'));
    const body = await client.upload(
      path,
      { fileName, mimeType, data },
      { signal: AbortSignal.timeout(API_UPLOAD_TIMEOUT_MS) },
    );
    return withoutEnvelope(body);
  }

  /**
   * An uploaded image a message links: its temporary URL asked with the key, then read without
   * it from the account's server, checked to be an image of at most MAX_UPLOAD_IMAGE_BYTES.
   */
  async uploadImage({ accountId, path }: InvokeRequest<'uploads.image'>): Promise<UploadImage> {
    if (!isUploadFilePath(path)) throw refuse(notUploadPathMessage(path));
    const client = await this.clientOf(accountId);
    const signal = AbortSignal.timeout(API_CALL_TIMEOUT_MS);
    const { url } = await client.request('GET', path, {}, { signal });
    if (typeof url !== 'string' || url === '') {
      throw new CoreError('BAD_RESPONSE', `GET ${path}: the server gave no address for the file`);
    }
    const origin = new URL(client.serverUrl).origin;
    let target: URL;
    try {
      target = new URL(url, client.serverUrl);
    } catch {
      throw new CoreError('BAD_RESPONSE', `GET ${path}: the server gave an invalid address for the file`);
    }
    if (target.origin !== origin) {
      throw new CoreError('BAD_RESPONSE', `GET ${path}: the file's address is not on the account's server`);
    }
    let response: Response;
    try {
      // No key (the temporary URL needs none), no cookie, no redirect: the account's server answers.
      response = await fetch(target.href, {
        headers: { Accept: 'image/*' },
        credentials: 'omit',
        redirect: 'error',
        signal,
      });
    } catch (error) {
      throw new NetworkError(`GET ${path}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (response.url !== '' && new URL(response.url).origin !== origin) {
      await response.body?.cancel();
      throw new CoreError('BAD_RESPONSE', `GET ${path}: the answer did not come from the account's server`);
    }
    if (!response.ok) throw await failureOf(response, path);
    const contentType = mediaTypeOf(response);
    if (!EMOJI_IMAGE_TYPES.includes(contentType)) {
      await response.body?.cancel();
      throw new CoreError('BAD_RESPONSE', notAnImageMessage(path, contentType));
    }
    const data = await readAtMost(response, MAX_UPLOAD_IMAGE_BYTES);
    if (data === null) throw new CoreError('BAD_RESPONSE', imageTooLargeMessage(path));
    return { contentType, dataBase64: Buffer.from(data).toString('base64') };
  }

  /** A custom emoji's image from the account's server, as `{content_type, data_base64}`. */
  private async emojiImage(accountId: string, path: string): Promise<ApiBody> {
    const { serverUrl } = await this.clientOf(accountId);
    const signal = AbortSignal.timeout(API_CALL_TIMEOUT_MS);
    let response: Response;
    try {
      // No key: the page is public; no redirect: it must be the account's server that answers.
      response = await fetch(serverUrl + path, { headers: { Accept: 'image/*' }, redirect: 'error', signal });
    } catch (error) {
      throw new NetworkError(`GET ${path}: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (!response.ok) throw await failureOf(response, path);
    const contentType = mediaTypeOf(response);
    if (!EMOJI_IMAGE_TYPES.includes(contentType)) {
      await response.body?.cancel();
      throw new CoreError('BAD_RESPONSE', `GET ${path}: not an emoji image (${contentType || 'no type'})`);
    }
    const data = await readAtMost(response, MAX_EMOJI_IMAGE_BYTES);
    if (data === null) {
      throw new CoreError(
        'BAD_RESPONSE',
        `GET ${path}: the image is larger than ${MAX_EMOJI_IMAGE_BYTES} bytes`,
      );
    }
    return { content_type: contentType, data_base64: Buffer.from(data).toString('base64') };
  }

  /** The client of the account's running session (it carries the key). */
  private async clientOf(accountId: string): Promise<ApiClient> {
    await this.accounts.require(accountId);
    return this.sessions.client(accountId);
  }
}

/** A page's failure as a CoreError: the service's message and code when it sent them. */
async function failureOf(response: Response, path: string): Promise<CoreError> {
  const body = (await response.json().catch(() => ({}))) as { msg?: unknown; code?: unknown };
  return new CoreError(
    typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
    typeof body.msg === 'string' && body.msg !== ''
      ? body.msg
      : `GET ${path} failed with HTTP ${response.status}`,
  );
}

/** A response's media type, lower case, without parameters ('' when it has none). */
function mediaTypeOf(response: Response): string {
  return (response.headers.get('Content-Type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A response's body when it is at most `limit` bytes, else null (and the rest is not read). */
export async function readAtMost(response: Response, limit: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('Content-Length') ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return null;
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
