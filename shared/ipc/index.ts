/**
 * The main <-> renderer contract: invoke calls (renderer asks, main answers) and pushed
 * events (main tells). One definition serves Electron IPC (preload + ipcMain) and browser
 * mode (a WebSocket carrying the same frames), so the renderer cannot tell them apart.
 *
 * Every invoke payload has a zod schema; the main side validates before any handler runs.
 * The channel names live in ./channels.ts (zod-free, for the preload) and are re-exported here.
 * No API key ever appears in a type here: the renderer never holds one.
 */
import { z } from 'zod';
import type { Narrow } from '../domain/narrow';
import {
  ALL_SETTINGS,
  type Message,
  type RegisterState,
  type ServerEvent,
  type SettingChanges,
  type SettingKind,
  SUBSCRIPTION_PROPERTIES,
  type SubscriptionPropertyChange,
  type SubscriptionPropertyKind,
} from '../protocol';
import type { InvokeChannel, PushChannel } from './channels';

export * from './channels';

// ---- shared value types -------------------------------------------------------------------

export const accountIdSchema = z.string().min(1).max(200);

export interface AccountSummary {
  /** Stable local id: one per (server URL, email). */
  id: string;
  serverUrl: string;
  email: string;
  userId: number | null;
  fullName: string | null;
  serviceVersion: string | null;
  featureLevel: number | null;
}

export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Epoch ms of the next attempt while reconnecting or offline. */
  nextRetryAt: number | null;
  /** Why the last attempt failed, for the UI. */
  lastError: string | null;
}

/**
 * What the renderer builds an account's store from: the register response without the
 * queue (the queue belongs to the main process), plus who the account is.
 */
export interface AccountSnapshot {
  accountId: string;
  /** Increases with every (re-)register; events carry it so stale batches are dropped. */
  generation: number;
  state: RegisterState;
  /**
   * True for the last known state, read from the main process's offline cache while the server
   * cannot be reached: shown (marked as possibly out of date) until a fresh register replaces it.
   * Its generation is -1, so no event batch applies to it.
   */
  cached?: boolean;
}

export interface DemoLogin {
  role: string;
  email: string;
  password: string;
}

export interface AppInfo {
  mode: 'electron' | 'browser';
  appVersion: string;
  /** The server the sign-in screen is prefilled with. */
  defaultServerUrl: string | null;
  /** Offered on the sign-in screen when the app runs the embedded demo server. */
  demoLogins: DemoLogin[];
  /** False where credentials are stored without OS encryption (say so in the UI). */
  secretStorageEncrypted: boolean;
}

export interface AppState {
  accounts: AccountSummary[];
  activeAccountId: string | null;
}

/** Errors cross the boundary as data, so both transports carry them the same way. */
export interface IpcError {
  message: string;
  /** The service's error code when the failure came from the service. */
  code: string | null;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/** synced: the server has this text; pending: not yet; local-only: sync is off or the server refused it. */
export type DraftSyncStatus = 'synced' | 'pending' | 'local-only';

/** A draft as the main process keeps it (written locally first, then synced). */
export interface LocalDraft {
  /** Stable local id (the server's id may come later, or never). */
  localId: string;
  serverId: number | null;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds of the last edit. */
  timestamp: number;
  status: DraftSyncStatus;
  /** Why the server refused this draft (it stays local until edited). */
  syncError: string | null;
}

/**
 * Do not disturb, kept by the main process for the whole app (every window, every account):
 * `until` is the epoch ms it ends (DND_FOREVER: when turned off), null while off.
 */
export interface DndState {
  until: number | null;
}

/** "On" with no end: far enough away never to pass (the year 2286); the latest `until` taken. */
export const DND_FOREVER = 10_000_000_000_000;

/**
 * An end of do not disturb: whole epoch ms, from 0 to DND_FOREVER (an end already past turns
 * it off); null turns it off.
 */
export const dndUntilSchema = z.number().int().min(0).max(DND_FOREVER).nullable();

/** Code of accounts.signOut's refusal while drafts have not reached the server. */
export const UNSYNCED_DRAFTS = 'UNSYNCED_DRAFTS';

// ---- invoke calls -------------------------------------------------------------------------

/**
 * A setting's value type, from the settings table (shared/protocol/settings.ts). Only the type:
 * ranges and lengths stay the server's to refuse, in its own words ("Invalid color_scheme").
 */
function settingValueSchema(type: SettingKind): z.ZodType {
  switch (type.kind) {
    case 'bool':
      return z.boolean();
    case 'int-enum':
    case 'int':
      return z.number();
    case 'str-enum':
      return z.enum(type.values as readonly [string, ...string[]]);
    case 'string':
      return z.string();
  }
}

/**
 * PATCH /settings through the app: known setting names only, each with a value of its type.
 * Built by walking the table, so zod cannot infer its type: the cast states the type the table
 * describes (SettingChanges), and shared/ipc/payloads.test.ts checks that the two agree.
 */
const settingChangesSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(ALL_SETTINGS).map(([name, spec]) => [name, settingValueSchema(spec.type).optional()]),
  ),
) as unknown as z.ZodType<SettingChanges>;

const PROPERTY_VALUE_SCHEMAS: Record<SubscriptionPropertyKind, z.ZodType> = {
  color: z.string(),
  bool: z.boolean(),
  'bool-or-inherit': z.boolean().nullable(),
};

/** One subscription property change: a known property with a value of its type (cast as above). */
const subscriptionPropertyChangeSchema = z.discriminatedUnion(
  'property',
  Object.entries(SUBSCRIPTION_PROPERTIES).map(([property, kind]) =>
    z.object({
      stream_id: z.number().int().positive(),
      property: z.literal(property),
      value: PROPERTY_VALUE_SCHEMAS[kind],
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<SubscriptionPropertyChange>;

/** The service refuses null bytes in a draft's text (spec: Draft); refuse them here already. */
const draftText = (what: string, max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'), `${what} must not contain null bytes`);

export const draftLocalIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const draftInputSchema = z.object({
  localId: draftLocalIdSchema.optional(),
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int().nonnegative()).max(1000),
  topic: draftText('Topic', 60),
  // The service's own limit: a longer text would be cut on the server.
  content: draftText('Message', 10_000),
});
export type DraftInput = z.infer<typeof draftInputSchema>;

// ---- messages: the offline cache and the outbox (electron/core/messages) --------------------

/** Where a message list starts: a message id, or the newest / oldest / first unread. */
export type MessageAnchor = number | 'newest' | 'oldest' | 'first_unread';

/** One page of a narrow, from the server or (offline) from the main process's cache. */
export interface MessagePage {
  messages: Message[];
  /** The anchor the server resolved (first_unread, newest …), as a message id. */
  anchor: number | null;
  foundOldest: boolean;
  foundNewest: boolean;
  foundAnchor: boolean;
  /** Read from the cache: the server could not be reached, and this may be out of date. */
  fromCache: boolean;
}

/**
 * queued: waits for the server; sending: on its way (or was, when the app stopped: checked
 * against the server before it is ever sent again); failed: the server refused it (Retry, or
 * Restore to compose); sent: the server has it (kept until its `message` event arrives).
 */
export type OutboxStatus = 'queued' | 'sending' | 'failed' | 'sent';

/** A message written by the user, kept on disk by the main process until the server has it. */
export interface OutboxItem {
  /** The client's id of the message (the `local_id` sent with it). */
  localId: string;
  type: 'stream' | 'private';
  /** A stream's id, or the people of a private conversation (without the sender). */
  to: number[];
  topic: string;
  content: string;
  /** Epoch ms when written. */
  createdAt: number;
  status: OutboxStatus;
  /** Why the server refused it, in its words. */
  error: string | null;
  /** The message's id once the server has it. */
  messageId: number | null;
}

/** A message as the user sends it: to a stream's topic, or to people. */
export const outgoingMessageSchema = z.object({
  localId: draftLocalIdSchema.optional(),
  type: z.enum(['stream', 'private']),
  to: z.array(z.number().int().positive()).min(1).max(1000),
  topic: draftText('Topic', 60),
  content: z
    .string()
    .min(1)
    .max(10_000)
    .refine((s) => !s.includes('\0'), 'Message must not contain null bytes'),
});
export type OutgoingMessage = z.infer<typeof outgoingMessageSchema>;

const narrowSchema: z.ZodType<Narrow> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('stream'), streamId: z.number().int().positive() }),
  z.object({ kind: z.literal('topic'), streamId: z.number().int().positive(), topic: z.string().max(60) }),
  z.object({ kind: z.literal('dm'), userIds: z.array(z.number().int().positive()).max(1000) }),
  z.object({ kind: z.literal('dms') }),
  z.object({ kind: z.literal('starred') }),
  z.object({ kind: z.literal('mentions') }),
  z.object({ kind: z.literal('search'), query: z.string().max(1000) }),
]);

/** Most messages one messages.fetch asks for (each side of the anchor). */
export const MAX_FETCH_MESSAGES = 1000;

// ---- the service's REST API, through the main process (electron/core/api-proxy.ts) -----------

export const API_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** Longest path of an api.call (relative to /api/v1, e.g. `/streams/12`). */
export const MAX_API_PATH_LENGTH = 500;
/** Largest params of an api.call, as JSON text in UTF-8 bytes. */
export const MAX_API_PARAMS_BYTES = 1_000_000;
/** Largest file of an api.upload (the service's own limit for uploads). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** The longest base64 text of a file of MAX_UPLOAD_BYTES. */
const MAX_UPLOAD_BASE64_LENGTH = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4;

/** UTF-8 length of a JSON text, without TextEncoder (shared/ has no DOM or Node typings). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** JSON text of a value, or null when it has none (a cycle, a BigInt). */
function jsonOf(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? null;
  } catch {
    return null;
  }
}

const apiParamsSchema = z
  .record(z.string(), z.unknown())
  .refine((params) => jsonOf(params) !== null, 'params must be JSON values')
  .refine(
    (params) => utf8Length(jsonOf(params) ?? '') <= MAX_API_PARAMS_BYTES,
    `params must be at most ${MAX_API_PARAMS_BYTES} bytes of JSON`,
  );

const apiPathSchema = z
  .string()
  .min(1)
  .max(MAX_API_PATH_LENGTH)
  .refine((path) => path.startsWith('/'), 'path must start with /');

/** Bytes of the file base64 text encodes (its length is checked first). */
function base64Bytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** The answer of an api.call or api.upload: the service's success body without result and msg. */
export type ApiBody = Record<string, unknown>;

/** One segment of an uploaded file's path: what the service's router takes as `{name}`. */
const UPLOAD_SEGMENT = /^[A-Za-z0-9_.%-]{1,100}$/;

/**
 * Whether `path` is an uploaded file's page, `/user_uploads/{realm_id}/{dir}/{key}/{filename}`
 * (the address a message links a file by): a numeric realm id and plain segments only, none
 * `.` or `..` (percent-encoded too) and no encoded slash, so it can resolve to no other page.
 */
export function isUploadFilePath(path: string): boolean {
  if (path.length > MAX_API_PATH_LENGTH) return false;
  const segments = path.split('/');
  if (segments.length !== 6 || segments[0] !== '' || segments[1] !== 'user_uploads') return false;
  if (!/^\d{1,15}$/.test(segments[2] ?? '')) return false;
  return segments.slice(3).every((segment) => {
    if (!UPLOAD_SEGMENT.test(segment)) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    return decoded !== '.' && decoded !== '..' && !/[/\\]/.test(decoded);
  });
}

/** An uploaded image's bytes (uploads.image): PNG, GIF, JPEG or WebP. */
export interface UploadImage {
  contentType: string;
  dataBase64: string;
}

export const invokeSchemas = {
  'app.getInfo': z.object({}),
  'app.getState': z.object({}),
  /** The renderer saw the network go up or down (browser mode's `online`/`offline` events). */
  'app.networkChanged': z.object({ online: z.boolean() }),
  'accounts.signIn': z.object({
    serverUrl: z.url({ protocol: /^https?$/ }).max(2000),
    email: z.string().min(1).max(320),
    password: z.string().min(1).max(1000),
  }),
  'accounts.signOut': z.object({
    accountId: accountIdSchema,
    /** Sign out even with drafts not yet on the server (they stay on disk). */
    force: z.boolean().optional(),
  }),
  'accounts.setActive': z.object({ accountId: accountIdSchema }),
  'account.getSnapshot': z.object({ accountId: accountIdSchema }),
  'account.getConnection': z.object({ accountId: accountIdSchema }),
  'settings.update': z.object({ accountId: accountIdSchema, changes: settingChangesSchema }),
  /** POST /users/me/subscriptions/properties: one or more subscription property changes. */
  'subscriptions.updateProperties': z.object({
    accountId: accountIdSchema,
    updates: z.array(subscriptionPropertyChangeSchema).min(1).max(100),
  }),
  'drafts.list': z.object({ accountId: accountIdSchema }),
  'drafts.save': z.object({ accountId: accountIdSchema, draft: draftInputSchema }),
  'drafts.delete': z.object({ accountId: accountIdSchema, localId: draftLocalIdSchema }),
  /**
   * One request to the account's server, sent by the main process with the account's key:
   * only endpoints of the catalogue, and none the app must keep to itself (see
   * electron/core/api-proxy.ts). Params are encoded as every request is (bare strings, JSON
   * for the rest); a partially completed request answers its body with code REQUEST_TIMEOUT.
   */
  'api.call': z.object({
    accountId: accountIdSchema,
    method: z.enum(API_METHODS),
    path: apiPathSchema,
    params: apiParamsSchema.optional(),
  }),
  /** One file as multipart/form-data: a file to link in messages, or a custom emoji's image. */
  'api.upload': z.object({
    accountId: accountIdSchema,
    path: apiPathSchema,
    fileName: z
      .string()
      .min(1)
      .max(255)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
      .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'fileName must not contain control characters'),
    mimeType: z.string().max(255),
    dataBase64: z
      .string()
      .max(MAX_UPLOAD_BASE64_LENGTH)
      // One flat character class: a quantified group overflows the regexp stack on 25 MiB.
      .refine(
        (text) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text),
        'dataBase64 must be base64',
      )
      .refine(
        (text) => base64Bytes(text) <= MAX_UPLOAD_BYTES,
        `the file must be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MiB`,
      ),
  }),
  /**
   * An uploaded image a message links, to show inline (the renderer's CSP loads no image from
   * the server, and the file needs the account's credentials): fetched by the main process
   * through a temporary URL, answered as bytes of a checked image type (electron/core/api-proxy.ts).
   */
  'uploads.image': z.object({
    accountId: accountIdSchema,
    path: z
      .string()
      .max(MAX_API_PATH_LENGTH)
      .refine(
        isUploadFilePath,
        'path must be an uploaded file: /user_uploads/{realm_id}/{dir}/{key}/{filename}',
      ),
  }),
  /**
   * A page of a narrow: from the server (and kept in the offline cache), or from the cache when
   * the server cannot be reached. `terms` are the service's narrow terms for a search (the
   * renderer resolves operands against the account's streams and users).
   */
  'messages.fetch': z.object({
    accountId: accountIdSchema,
    narrow: narrowSchema,
    terms: z
      .array(
        z.object({
          operator: z.string().min(1).max(50),
          operand: z.union([z.string().max(1000), z.number().int(), z.array(z.number().int()).max(1000)]),
          negated: z.boolean().optional(),
        }),
      )
      .max(20)
      .optional(),
    anchor: z.union([z.number().int().nonnegative(), z.enum(['newest', 'oldest', 'first_unread'])]),
    numBefore: z.number().int().min(0).max(MAX_FETCH_MESSAGES),
    numAfter: z.number().int().min(0).max(MAX_FETCH_MESSAGES),
  }),
  /** Puts a message in the outbox (on disk first); it is sent in order once the server is reachable. */
  'outbox.send': z.object({ accountId: accountIdSchema, message: outgoingMessageSchema }),
  'outbox.list': z.object({ accountId: accountIdSchema }),
  /** Sends a failed message again. */
  'outbox.retry': z.object({ accountId: accountIdSchema, localId: draftLocalIdSchema }),
  /** Removes a queued or failed message (Restore to compose takes its text first). */
  'outbox.discard': z.object({ accountId: accountIdSchema, localId: draftLocalIdSchema }),
  /**
   * The conversation a clicked notification asked to open in the last minute, if no window has
   * taken it yet (a window just created for the click missed the push); null otherwise.
   */
  'app.takeOpenNarrow': z.object({}),
  'dnd.get': z.object({}),
  /** Turns do not disturb on until `until`, or off (null). */
  'dnd.set': z.object({ until: dndUntilSchema }),
} as const satisfies Record<InvokeChannel, z.ZodType>;

export type InvokeRequest<C extends InvokeChannel> = z.infer<(typeof invokeSchemas)[C]>;

export interface InvokeResponses {
  'app.getInfo': AppInfo;
  'app.getState': AppState;
  'app.networkChanged': null;
  'accounts.signIn': AccountSummary;
  'accounts.signOut': AppState;
  'accounts.setActive': AppState;
  'account.getSnapshot': AccountSnapshot | null;
  'account.getConnection': ConnectionState;
  'settings.update': { ignored_parameters_unsupported: string[] };
  'subscriptions.updateProperties': null;
  'drafts.list': LocalDraft[];
  'drafts.save': LocalDraft;
  'drafts.delete': LocalDraft[];
  'api.call': ApiBody;
  'api.upload': ApiBody;
  'uploads.image': UploadImage;
  'messages.fetch': MessagePage;
  'outbox.send': OutboxItem;
  'outbox.list': OutboxItem[];
  'outbox.retry': OutboxItem;
  'outbox.discard': OutboxItem[];
  'app.takeOpenNarrow': OpenNarrowRequest | null;
  'dnd.get': DndState;
  'dnd.set': DndState;
}

/** Show this conversation of this account (a desktop notification was clicked). */
export interface OpenNarrowRequest {
  accountId: string;
  narrow: Narrow;
  messageId: number | null;
}

// ---- pushed events ------------------------------------------------------------------------

export interface PushPayloads {
  /** The account list or the active account changed. */
  'app.state': AppState;
  /** A fresh snapshot after (re-)register: replace the account's whole store. */
  'account.snapshot': AccountSnapshot;
  /** One poll's worth of events, in order; apply in one state update. */
  'account.events': { accountId: string; generation: number; events: ServerEvent[] };
  'account.connection': { accountId: string; state: ConnectionState };
  /** The account's drafts after any change (local edit, sync, another client). */
  'drafts.changed': { accountId: string; drafts: LocalDraft[] };
  /** Do not disturb changed: turned on or off in any window, or its time passed. */
  'dnd.changed': DndState;
  /** The account's outbox after any change (queued, sending, sent, failed, discarded). */
  'outbox.changed': { accountId: string; items: OutboxItem[] };
  /** Show this conversation (a desktop notification was clicked). */
  'app.openNarrow': OpenNarrowRequest;
}

/** What the renderer sees (window.confab in Electron, the WebSocket bridge in browser mode). */
export interface ConfabBridge {
  invoke<C extends InvokeChannel>(
    channel: C,
    request: InvokeRequest<C>,
  ): Promise<IpcResult<InvokeResponses[C]>>;
  on<P extends PushChannel>(channel: P, listener: (payload: PushPayloads[P]) => void): () => void;
}

// ---- browser mode: frames over the WebSocket ----------------------------------------------

export const clientFrameSchema = z.object({
  kind: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  payload: z.unknown(),
});
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export type HostFrame =
  | { kind: 'result'; id: number; result: IpcResult<unknown> }
  | { kind: 'push'; channel: PushChannel; payload: unknown };

/** Query parameter that carries the browser-mode secret in the page and WebSocket URLs. */
export const BROWSER_SECRET_PARAM = 'token';
/** Path of the WebSocket endpoint of browser mode. */
export const BROWSER_WS_PATH = '/bridge';
