/**
 * Typed client for the service's HTTP interface, on the platform's fetch.
 *
 * Encoding follows the spec's Conventions: GET parameters go in the query; POST/PATCH/DELETE
 * parameters are form-encoded; strings travel bare and every other value as one JSON text.
 * Works unchanged in Node (the main process, tests) and in browsers.
 */
import { z } from 'zod';
import {
  API_PREFIX,
  type Draft,
  draftSchema,
  envelopeSchema,
  type FetchApiKeyResponse,
  fetchApiKeyResponseSchema,
  type GetEventsResponse,
  getEventsResponseSchema,
  type RegisterParams,
  type RegisterResponse,
  registerResponseSchema,
  type SettingValue,
  type User,
  userSchema,
} from '../protocol';

/** The parts of AbortSignal the client uses (both Node's and the DOM's fit). */
export interface SignalLike {
  readonly aborted: boolean;
}

export interface ResponseLike {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface RequestInitLike {
  method: string;
  headers: Record<string, string>;
  /** Form-encoded text, or the bytes of a multipart/form-data body (uploads). */
  body?: string | Uint8Array;
  signal?: SignalLike;
}

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
export type ParamValue = SettingValue | null | readonly unknown[] | { readonly [k: string]: unknown };
export type Params = Record<string, ParamValue | undefined>;

export interface Credentials {
  email: string;
  apiKey: string;
}

/** The service answered with an error envelope (or a non-JSON error status). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
    /** Seconds to wait, from Retry-After or the body's `retry-after` (429 only). */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The request never got an HTTP answer: refused, reset, DNS, aborted by a timeout. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** Encodes parameters per the spec: bare strings, JSON text for everything else. */
export function encodeParams(params: Params): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join('&');
}

/**
 * The platform globals this module needs. All exist in Node 20 and every browser, but
 * shared/ compiles without DOM or Node typings, so they are typed here, as narrowly as used.
 */
interface TextGlobals {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  btoa(binary: string): string;
  crypto: { getRandomValues<T extends Uint8Array>(array: T): T };
}

/** Base64 of the UTF-8 bytes of `text` (btoa alone takes only Latin-1 text). */
export function base64Utf8(text: string): string {
  const { TextEncoder, btoa } = globalThis as unknown as TextGlobals;
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function basicAuthHeader(username: string, password: string): string {
  return `Basic ${base64Utf8(`${username}:${password}`)}`;
}

/** A file to upload: its name as the user sees it, its media type and its bytes. */
export interface UploadFile {
  fileName: string;
  /** '' when unknown: sent as application/octet-stream (the server sniffs the content anyway). */
  mimeType: string;
  data: Uint8Array;
}

/**
 * A quoted parameter of a part header as browsers write it (WHATWG HTML, "multipart/form-data
 * encoding algorithm"): UTF-8, with the three characters that would end the value or the
 * header line percent-encoded.
 */
function quoteParam(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

/** A media type fit for a header line, else the generic one. */
function partType(mimeType: string): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(mimeType) ? mimeType : 'application/octet-stream';
}

/**
 * A multipart/form-data body (RFC 7578) with one file part, as bytes, and the Content-Type
 * that names its boundary (random: 128 bits make a clash with the file's bytes negligible).
 */
export function multipartBody(
  file: UploadFile,
  fieldName = 'file',
  boundary?: string,
): { body: Uint8Array; contentType: string } {
  const { TextEncoder, crypto } = globalThis as unknown as TextGlobals;
  const random = crypto.getRandomValues(new Uint8Array(16));
  const mark =
    boundary ?? `ConfabFormBoundary${[...random].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${mark}\r\n` +
      `Content-Disposition: form-data; name=${quoteParam(fieldName)}; filename=${quoteParam(file.fileName)}\r\n` +
      `Content-Type: ${partType(file.mimeType)}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${mark}--\r\n`);
  const body = new Uint8Array(head.length + file.data.length + tail.length);
  body.set(head, 0);
  body.set(file.data, head.length);
  body.set(tail, head.length + file.data.length);
  return { body, contentType: `multipart/form-data; boundary=${mark}` };
}

/** The API root for a server address the user typed ("https://chat.example.com/"). */
export function apiBase(serverUrl: string): string {
  return serverUrl.replace(/\/+$/, '') + API_PREFIX;
}

function defaultFetch(): FetchLike {
  const f = (globalThis as unknown as { fetch?: FetchLike }).fetch;
  if (!f) throw new Error('No fetch in this runtime');
  return f.bind(globalThis);
}

export interface ClientOptions {
  serverUrl: string;
  credentials?: Credentials;
  fetch?: FetchLike;
  userAgent?: string;
}

export interface CallOptions {
  signal?: SignalLike;
}

/** One entry of `subscription_data` (POST /users/me/subscriptions/properties). */
export interface SubscriptionPropertyUpdate {
  stream_id: number;
  property: string;
  /** null: a notification property follows the user's own setting. */
  value: SettingValue | null;
}

function parseRetryAfter(header: string | null, body: Record<string, unknown>): number | null {
  const fromBody = body['retry-after'];
  if (typeof fromBody === 'number' && Number.isFinite(fromBody)) return fromBody;
  if (header !== null && header.trim() !== '') {
    const n = Number(header);
    if (Number.isFinite(n)) return n;
  }
  return null;
}

export class ApiClient {
  readonly serverUrl: string;
  readonly credentials: Credentials | undefined;
  private readonly fetchImpl: FetchLike;
  private readonly userAgent: string | undefined;

  constructor(options: ClientOptions) {
    this.serverUrl = options.serverUrl.replace(/\/+$/, '');
    this.credentials = options.credentials;
    this.fetchImpl = options.fetch ?? defaultFetch();
    this.userAgent = options.userAgent;
  }

  withCredentials(credentials: Credentials): ApiClient {
    return new ApiClient({
      serverUrl: this.serverUrl,
      credentials,
      fetch: this.fetchImpl,
      ...(this.userAgent === undefined ? {} : { userAgent: this.userAgent }),
    });
  }

  /** Sends one request; resolves with the parsed JSON body of a success, else throws. */
  async request(
    method: Method,
    path: string,
    params: Params = {},
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    const encoded = encodeParams(params);
    let url = apiBase(this.serverUrl) + path;
    const init = this.init(method, options);
    if (method === 'GET') {
      if (encoded) url += `?${encoded}`;
    } else {
      init.headers['Content-Type'] = 'application/x-www-form-urlencoded';
      init.body = encoded;
    }
    return this.send(url, path, init);
  }

  /**
   * POSTs one file as multipart/form-data (POST /user_uploads, POST /realm/emoji/{name});
   * resolves with the parsed JSON body of a success, else throws.
   */
  async upload(path: string, file: UploadFile, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const { body, contentType } = multipartBody(file);
    const init = this.init('POST', options);
    init.headers['Content-Type'] = contentType;
    init.body = body;
    return this.send(apiBase(this.serverUrl) + path, path, init);
  }

  /** Method, credentials and the common headers of a request. */
  private init(method: Method, options: CallOptions): RequestInitLike & { headers: Record<string, string> } {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.credentials) {
      headers.Authorization = basicAuthHeader(this.credentials.email, this.credentials.apiKey);
    }
    if (this.userAgent) headers['User-Agent'] = this.userAgent;
    const init: RequestInitLike = { method, headers };
    if (options.signal) init.signal = options.signal;
    return init as RequestInitLike & { headers: Record<string, string> };
  }

  /** Sends a prepared request and reads the envelope of its answer. */
  private async send(url: string, path: string, init: RequestInitLike): Promise<Record<string, unknown>> {
    const method = init.method;
    let response: ResponseLike;
    let text: string;
    try {
      response = await this.fetchImpl(url, init);
      text = await response.text();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new NetworkError(`${method} ${path}: ${message}`, error);
    }

    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = text ? JSON.parse(text) : {};
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        body = parsed as Record<string, unknown>;
      }
    } catch {
      // Not JSON: a proxy's error page, say. Handled below by the status.
    }

    const ok = response.status >= 200 && response.status < 300;
    if (ok && (body.result === 'success' || body.result === 'partially_completed')) return body;
    const code = typeof body.code === 'string' ? body.code : ok ? 'BAD_RESPONSE' : `HTTP_${response.status}`;
    const msg =
      typeof body.msg === 'string' && body.msg !== ''
        ? body.msg
        : `${method} ${path} failed with HTTP ${response.status}`;
    const retryAfter =
      response.status === 429 ? parseRetryAfter(response.headers.get('Retry-After'), body) : null;
    throw new ApiError(response.status, code, msg, body, retryAfter);
  }

  async fetchApiKey(username: string, password: string, options?: CallOptions): Promise<FetchApiKeyResponse> {
    const body = await this.request('POST', '/fetch_api_key', { username, password }, options);
    return fetchApiKeyResponseSchema.parse(body);
  }

  async getOwnUser(options?: CallOptions): Promise<User> {
    return userSchema.parse(await this.request('GET', '/users/me', {}, options));
  }

  async registerQueue(params: RegisterParams = {}, options?: CallOptions): Promise<RegisterResponse> {
    const body = await this.request('POST', '/register', { ...params }, options);
    return registerResponseSchema.parse(body);
  }

  async getEvents(
    params: { queue_id: string; last_event_id?: number; dont_block?: boolean },
    options?: CallOptions,
  ): Promise<GetEventsResponse> {
    const body = await this.request('GET', '/events', { ...params }, options);
    return getEventsResponseSchema.parse(body);
  }

  async deleteQueue(queueId: string, options?: CallOptions): Promise<void> {
    await this.request('DELETE', '/events', { queue_id: queueId }, options);
  }

  async updateSettings(
    changes: Record<string, SettingValue>,
    options?: CallOptions,
  ): Promise<{ ignored_parameters_unsupported: string[] }> {
    const body = await this.request('PATCH', '/settings', changes, options);
    const ignored = body.ignored_parameters_unsupported;
    return { ignored_parameters_unsupported: Array.isArray(ignored) ? (ignored as string[]) : [] };
  }

  /**
   * POST /users/me/subscriptions/properties: all changes are checked before any is written;
   * the new values come back as `subscription` update events.
   */
  async updateSubscriptionProperties(
    updates: readonly SubscriptionPropertyUpdate[],
    options?: CallOptions,
  ): Promise<{ ignored_parameters_unsupported: string[] }> {
    const body = await this.request(
      'POST',
      '/users/me/subscriptions/properties',
      { subscription_data: updates },
      options,
    );
    const ignored = body.ignored_parameters_unsupported;
    return { ignored_parameters_unsupported: Array.isArray(ignored) ? (ignored as string[]) : [] };
  }

  /** GET /drafts: the user's drafts on the server, newest first. */
  async getDrafts(options?: CallOptions): Promise<Draft[]> {
    return getDraftsResponseSchema.parse(await this.request('GET', '/drafts', {}, options)).drafts;
  }

  /** POST /drafts: creates the drafts; resolves with their ids, in the same order. */
  async createDrafts(drafts: readonly DraftParams[], options?: CallOptions): Promise<number[]> {
    const body = await this.request('POST', '/drafts', { drafts }, options);
    const { ids } = createDraftsResponseSchema.parse(body);
    if (ids.length !== drafts.length) {
      throw new Error(`POST /drafts answered ${ids.length} ids for ${drafts.length} drafts`);
    }
    return ids;
  }

  /** PATCH /drafts/{id}: replaces the draft's fields (and timestamp, when given). */
  async editDraft(id: number, draft: DraftParams, options?: CallOptions): Promise<void> {
    envelopeSchema.parse(await this.request('PATCH', `/drafts/${draftPathId(id)}`, { draft }, options));
  }

  /** DELETE /drafts/{id}. */
  async deleteDraft(id: number, options?: CallOptions): Promise<void> {
    envelopeSchema.parse(await this.request('DELETE', `/drafts/${draftPathId(id)}`, {}, options));
  }
}

/** A draft as sent to the server: the Draft resource without its id; timestamp optional. */
export type DraftParams = Omit<Draft, 'id' | 'timestamp'> & { timestamp?: number };

const getDraftsResponseSchema = z.looseObject({ drafts: z.array(draftSchema) });
const createDraftsResponseSchema = z.looseObject({ ids: z.array(z.number().int()) });

/** Draft ids go into the path: only a non-negative integer may. */
function draftPathId(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new TypeError(`Not a draft id: ${id}`);
  return String(id);
}
