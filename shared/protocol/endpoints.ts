/**
 * The endpoint catalogue: every endpoint of the spec (and the few of the interface family the
 * issue adds), with its method, path, who may call it, and its parameters with their kinds.
 * It is the one contract of the REST API: the server routes from it (server/http.ts finds the
 * entry of every route, authenticates and checks the role per `permission`, decodes every
 * parameter per its spec before the handler runs; a route without an entry, or an entry
 * without a route, stops the server from starting), the table-driven tests (malformed input,
 * the auth matrix) read it, and params.ts derives the decoded parameters' types from it.
 *
 * Parameter values are written as they travel (Conventions): `example` is a valid raw text.
 * Path parameters are written `{name}` in `path`; their examples are placeholders the caller
 * resolves (`{stream_id}` means "an existing stream id").
 */
import { z } from 'zod';
import type { ParamFormat } from './params';
import { CLIENT_CAPABILITIES } from './register';
import { PERSONAL_SETTINGS, type SettingSpec, SHARED_SETTINGS } from './settings';

/**
 * Who may call an endpoint. `user`: any signed-in user (guests included); `member`: not
 * guests; `admin`: administrators and owners; `admin+can_create_users`: administrators with
 * that permission; `webhook`: an incoming-webhook bot's api_key; `none`: no credentials.
 */
export type Permission = 'none' | 'user' | 'member' | 'admin' | 'admin+can_create_users' | 'webhook';

export type ParamKind =
  /** a bare text */
  | 'string'
  | 'bool'
  | 'int'
  | 'int-enum'
  | 'str-enum'
  | 'int-list'
  | 'string-list'
  /** JSON array of objects (or pairs) with a shape of its own */
  | 'json-array'
  | 'json-object'
  /** message_retention_days: a number of days, `realm_default` or `unlimited` */
  | 'retention';

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  in: 'path' | 'query' | 'body';
  required: boolean;
  /** A valid raw value; path examples are `{name}` placeholders. */
  example: string;
  /** For int-enum / str-enum: the allowed values. */
  values?: readonly (number | string)[];
  /**
   * Longest accepted text, where the spec or the family sets one. The action checks it, with
   * the family's wording for each (some trim first, some count code points).
   */
  maxLength?: number;
  /** For int: the smallest accepted value (`<name> is too small` below it). */
  min?: number;
  /**
   * The error text for a value outside `values`, or for a path segment that is not an id,
   * where the family words it its own way (default: `Invalid <name>`, `<name> is not an integer`).
   */
  invalid?: string;
  /** Older names still accepted when the parameter itself is absent. */
  aliases?: readonly string[];
  /** A decoder richer than the kind's rule (params.ts FormatValues says what each gives). */
  format?: ParamFormat;
  /** JSON checked by this schema; a mismatch is `invalid`, else `Invalid <name>`. */
  schema?: z.ZodType;
  deprecated?: boolean;
}

export interface EndpointSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1 (PAGES: to the server's root), path parameters as `{name}`. */
  path: string;
  permission: Permission;
  /**
   * Where the role of `permission` is checked: by the router before any parameter is read
   * (the default, as the family's decorators do), or by the action, where the answer depends
   * on the object (a non-administrator learns nothing about a private stream).
   */
  roleCheck?: 'action';
  /** Also callable without credentials, as a spectator, where the organization allows it. */
  spectators?: boolean;
  params: readonly ParamSpec[];
  /** A section of service-api.md, or `family` for endpoints the issue adds from the family. */
  source: 'spec' | 'family';
  deprecated?: boolean;
  /** Changes nothing: every GET unless its entry says otherwise (GET /events acknowledges). */
  readOnly?: boolean;
}

/** A parameter as declared below: `in` and `required` take their defaults. */
type Declared = Omit<ParamSpec, 'in' | 'required'> & { required?: boolean };

/** A declared parameter in its place, its literal types kept for params.ts. */
type Placed<W extends ParamSpec['in'], T extends Declared> = Omit<T, 'required'> & {
  in: W;
  required: T extends { required: true } ? true : false;
};

function placedIn<W extends 'query' | 'body'>(where: W) {
  return <const T extends Declared>(p: T) =>
    ({ ...p, in: where, required: p.required === true }) as unknown as Placed<W, T>;
}
const body = placedIn('body');
const query = placedIn('query');

/** A path segment that names an object by id; `invalid` is the error for one that is no id. */
function pathId<const N extends string>(name: N, invalid?: string) {
  const p = { name, kind: 'int', in: 'path', required: true, example: `{${name}}` } as const;
  return invalid === undefined ? p : { ...p, invalid };
}

/** A path segment used as text. */
function pathText<const N extends string>(name: N) {
  return { name, kind: 'string', in: 'path', required: true, example: `{${name}}` } as const;
}

/** Optional booleans, by name with their examples, in order. */
function flags<W extends 'query' | 'body', const T extends Record<string, 'true' | 'false'>>(
  where: W,
  examples: T,
) {
  type Flag = { [K in keyof T & string]: { name: K; kind: 'bool'; in: W; required: false; example: string } };
  return Object.entries(examples).map(([name, example]) => ({
    name,
    kind: 'bool',
    in: where,
    required: false,
    example,
  })) as Flag[keyof T & string][];
}

type SettingParam<N extends string, S extends SettingSpec> = {
  name: N;
  kind: S['type']['kind'];
  in: 'body';
  required: false;
  format: 'setting';
  example: string;
  values?: readonly (number | string)[];
  maxLength?: number;
};

/** A table of settings as parameters, each decoded and checked by the table (checkSettingValue). */
function settingParams<T extends Record<string, SettingSpec>>(table: T) {
  return Object.entries(table).map(([name, spec]) => {
    const t = spec.type;
    const p = { name, kind: t.kind, in: 'body', required: false, format: 'setting' } as const;
    switch (t.kind) {
      case 'bool':
        return { ...p, example: 'true' };
      case 'int-enum':
      case 'str-enum':
        return { ...p, values: t.values, example: String(t.values[0]) };
      case 'int':
        return { ...p, example: String(t.min) };
      default:
        return { ...p, maxLength: t.maxLength, example: name === 'timezone' ? 'UTC' : 'en' };
    }
  }) as { [K in keyof T & string]: SettingParam<K, T[K]> }[keyof T & string][];
}

const sharedSettingParams = settingParams(SHARED_SETTINGS);
const settingsParams = [
  body({ name: 'full_name', kind: 'string', maxLength: 100, example: 'A Name' }),
  body({ name: 'email', kind: 'string', maxLength: 254, example: 'new@example.com' }),
  body({ name: 'old_password', kind: 'string', example: 'old' }),
  body({ name: 'new_password', kind: 'string', example: 'new' }),
  ...settingParams(PERSONAL_SETTINGS),
  ...sharedSettingParams,
];

const STREAM_POST_POLICIES = [1, 2, 3, 4] as const;
const PROFILE_FIELD_TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;

const streamPostPolicy = body({
  name: 'stream_post_policy',
  kind: 'int-enum',
  values: STREAM_POST_POLICIES,
  example: '1',
});
const messageRetentionDays = body({
  name: 'message_retention_days',
  kind: 'retention',
  example: 'realm_default',
});

const subscribeOptions = [
  ...flags('body', { invite_only: 'false', is_web_public: 'false', history_public_to_subscribers: 'true' }),
  streamPostPolicy,
  messageRetentionDays,
];

/** Users named by id, or all by email. */
const principals = body({
  name: 'principals',
  kind: 'json-array',
  example: '[{user_id}]',
  schema: z.union([z.array(z.number().int().safe()), z.array(z.string())]),
  invalid: 'principals is not a list of user ids or emails',
});

const userListQuery = flags('query', { client_extavatar: 'false', include_custom_profile_fields: 'true' });

/** A status text or emoji field: no NUL characters. */
const statusText = <const N extends string>(name: N, example: string, maxLength?: number) =>
  body({ name, kind: 'string', format: 'text', example, ...(maxLength ? { maxLength } : {}) });

/** The parameters that shape an event queue: POST /register, and GET /events without queue_id. */
function queueParams<W extends 'query' | 'body'>(where: W) {
  const at = placedIn(where);
  return [
    ...flags(where, {
      apply_markdown: 'true',
      client_extavatar: 'true',
      include_subscribers: 'false',
      slim_presence: 'false',
    }),
    at({ name: 'event_types', kind: 'string-list', example: '["message"]' }),
    ...flags(where, { all_public_streams: 'false' }),
    at({
      name: 'client_capabilities',
      kind: 'json-object',
      example: '{"user_settings_object": true}',
      schema: z.record(z.string(), z.boolean()),
    }),
    at({ name: 'fetch_event_types', kind: 'string-list', example: '["realm_user"]' }),
    // The operators are the queue filter's to check (Operator X not supported).
    at({
      name: 'narrow',
      kind: 'json-array',
      example: '[["is", "private"]]',
      schema: z.array(z.tuple([z.string(), z.string()])),
    }),
    // The family's internal form: each capability as a top-level boolean, winning over
    // client_capabilities.
    ...flags(where, Object.fromEntries(CLIENT_CAPABILITIES.map((c) => [c, 'true'])) as CapabilityFlags),
  ];
}
type CapabilityFlags = Record<(typeof CLIENT_CAPABILITIES)[number], 'true'>;

type Method = EndpointSpec['method'];
type Options = Pick<EndpointSpec, 'deprecated' | 'readOnly' | 'spectators' | 'roleCheck'>;
type MethodOf<N> = N extends `${infer M extends Method} ${string}` ? M : never;
type PathOf<N> = N extends `${string} ${infer P}` ? P : never;

/**
 * An entry from its `METHOD /path` name (as routes and tests name it), keeping the literal
 * types params.ts derives the decoded parameters from.
 */
function entryOf<S extends EndpointSpec['source']>(source: S) {
  return <
    const N extends `${Method} /${string}`,
    const A extends Permission,
    const Ps extends readonly ParamSpec[],
    const O extends Options = Options,
  >(
    name: N,
    permission: A,
    params: Ps,
    options?: O,
  ) => {
    const [method, path] = name.split(' ');
    const readOnly = method === 'GET' ? { readOnly: true } : {};
    return { method, path, permission, source, params, ...readOnly, ...options } as {
      method: MethodOf<N>;
      path: PathOf<N>;
      permission: A;
      source: S;
      params: Ps;
    } & O;
  };
}
/** An endpoint of a section of service-api.md. */
const spec = entryOf('spec');
/** An endpoint the issue adds from the interface family. */
const family = entryOf('family');

/** The REST API's endpoints, their literal types kept for params.ts. */
const API = [
  spec('PATCH /settings', 'user', settingsParams),
  spec('PATCH /settings/display', 'user', settingsParams, { deprecated: true }),
  spec('PATCH /settings/notifications', 'user', settingsParams, { deprecated: true }),
  spec('PATCH /realm/user_settings_defaults', 'admin', sharedSettingParams),
  spec('POST /users/me/subscriptions/properties', 'user', [
    body({
      name: 'subscription_data',
      kind: 'json-array',
      format: 'property-changes',
      required: true,
      example: '[{"stream_id": {stream_id}, "property": "pin_to_top", "value": false}]',
    }),
  ]),
  spec('POST /mark_all_as_read', 'user', []),
  spec('POST /mark_stream_as_read', 'user', [
    body({ name: 'stream_id', kind: 'int', required: true, example: '{stream_id}' }),
  ]),
  spec('POST /mark_topic_as_read', 'user', [
    body({ name: 'stream_id', kind: 'int', required: true, example: '{stream_id}' }),
    body({ name: 'topic_name', kind: 'string', required: true, example: 'greetings' }),
  ]),
  spec('POST /users/me/subscriptions', 'user', [
    body({
      name: 'subscriptions',
      kind: 'json-array',
      format: 'stream-specs',
      required: true,
      example: '[{"name": "general"}]',
    }),
    principals,
    ...flags('body', { authorization_errors_fatal: 'true', announce: 'false' }),
    ...subscribeOptions,
  ]),
  family('GET /users/me/subscriptions', 'user', flags('query', { include_subscribers: 'true' })),
  family('DELETE /users/me/subscriptions', 'user', [
    body({ name: 'subscriptions', kind: 'string-list', required: true, example: '["no such stream"]' }),
    principals,
  ]),
  spec('POST /fetch_api_key', 'none', [
    body({ name: 'username', kind: 'string', required: true, example: '{email}' }),
    body({ name: 'password', kind: 'string', required: true, example: '{password}' }),
  ]),
  spec('POST /users/me/status', 'user', [
    statusText('status_text', 'on holiday', 60),
    body({ name: 'away', kind: 'bool', example: 'false', deprecated: true }),
    statusText('emoji_name', 'smile'),
    statusText('emoji_code', '1f604'),
    body({
      name: 'reaction_type',
      kind: 'str-enum',
      // The action checks the type together with the emoji it names.
      format: 'text',
      values: ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'],
      example: 'unicode_emoji',
    }),
  ]),
  spec('POST /realm/profile_fields', 'admin', [
    body({ name: 'name', kind: 'string', format: 'text', maxLength: 40, example: 'Team' }),
    body({ name: 'hint', kind: 'string', format: 'text', maxLength: 80, example: 'Which team' }),
    body({
      name: 'field_type',
      kind: 'int-enum',
      values: PROFILE_FIELD_TYPES,
      invalid: 'Invalid field type.',
      required: true,
      example: '1',
    }),
    // Its shape depends on the field type: the action checks it.
    body({ name: 'field_data', kind: 'json-object', format: 'json', example: '{}' }),
    body({ name: 'display_in_profile_summary', kind: 'bool', example: 'false' }),
  ]),
  family('GET /realm/profile_fields', 'user', []),
  family('PATCH /users/me/profile_data', 'user', [
    body({ name: 'data', kind: 'json-array', format: 'profile-data', required: true, example: '[]' }),
  ]),
  spec('POST /drafts', 'user', [
    body({
      name: 'drafts',
      kind: 'json-array',
      format: 'drafts',
      example: '[{"type": "", "to": [], "topic": "", "content": "a draft"}]',
    }),
  ]),
  family('GET /drafts', 'user', []),
  family('PATCH /drafts/{draft_id}', 'user', [
    pathId('draft_id'),
    body({
      name: 'draft',
      kind: 'json-object',
      format: 'draft',
      required: true,
      example: '{"type": "", "to": [], "topic": "", "content": "edited"}',
    }),
  ]),
  family('DELETE /drafts/{draft_id}', 'user', [pathId('draft_id')]),
  spec(
    'PATCH /streams/{stream_id}',
    'admin',
    [
      pathId('stream_id', 'Invalid stream ID'),
      body({ name: 'description', kind: 'string', maxLength: 1024, example: 'About this stream' }),
      body({ name: 'new_name', kind: 'string', maxLength: 60, example: 'general' }),
      ...flags('body', {
        is_private: 'false',
        is_web_public: 'false',
        history_public_to_subscribers: 'true',
      }),
      body({ name: 'is_announcement_only', kind: 'bool', example: 'false', deprecated: true }),
      streamPostPolicy,
      messageRetentionDays,
    ],
    { roleCheck: 'action' },
  ),
  spec(
    'GET /streams',
    'user',
    flags('query', {
      include_public: 'true',
      include_web_public: 'false',
      include_subscribed: 'true',
      // Administrators only: its own permission row in the spec's error table.
      include_all_active: 'false',
      include_default: 'false',
      include_owner_subscribed: 'false',
    }),
  ),
  spec('GET /users', 'user', userListQuery),
  // A user id, the display email, or (for who may see it) the real address.
  spec('GET /users/{email}', 'user', [pathText('email'), ...userListQuery]),
  spec('POST /users', 'admin+can_create_users', [
    body({ name: 'email', kind: 'string', required: true, maxLength: 254, example: 'created@example.com' }),
    body({ name: 'password', kind: 'string', required: true, example: 'a long password' }),
    body({ name: 'full_name', kind: 'string', required: true, maxLength: 100, example: 'Created User' }),
  ]),
  spec('GET /users/me', 'user', []),
  spec('GET /messages/{message_id}', 'user', [
    pathId('message_id', 'Invalid message(s)'),
    query({ name: 'apply_markdown', kind: 'bool', example: 'true' }),
  ]),
  // Also read as they are, unchecked: queue_id and local_id, the sender's local-echo hints.
  family('POST /messages', 'user', [
    body({
      name: 'type',
      kind: 'str-enum',
      // channel and direct: the family's newer names.
      values: ['stream', 'private', 'channel', 'direct'],
      invalid: 'Invalid message type',
      required: true,
      example: 'stream',
    }),
    body({ name: 'to', kind: 'string', required: true, example: 'general' }),
    // Longer topics are cut to 60 characters, as in the family, not refused.
    body({ name: 'topic', kind: 'string', aliases: ['subject'], example: 'greetings' }),
    // Longer content is cut with a "[message truncated]" note, as in the family.
    body({ name: 'content', kind: 'string', required: true, example: 'hello' }),
  ]),
  family('GET /messages', 'user', [
    // Required unless use_first_unread_anchor: the handler says "Missing 'anchor' argument".
    query({ name: 'anchor', kind: 'string', example: 'newest' }),
    query({ name: 'use_first_unread_anchor', kind: 'bool', example: 'false', deprecated: true }),
    query({ name: 'num_before', kind: 'int', min: 0, required: true, example: '1' }),
    query({ name: 'num_after', kind: 'int', min: 0, required: true, example: '0' }),
    query({ name: 'include_anchor', kind: 'bool', example: 'true' }),
    query({ name: 'apply_markdown', kind: 'bool', example: 'true' }),
    query({ name: 'client_extavatar', kind: 'bool', aliases: ['client_gravatar'], example: 'false' }),
    query({ name: 'narrow', kind: 'json-array', format: 'message-narrow', example: '[]' }),
  ]),
  spec('POST /user_groups/create', 'member', [
    body({ name: 'name', kind: 'string', required: true, maxLength: 100, example: 'a group' }),
    body({ name: 'description', kind: 'string', required: true, maxLength: 1024, example: 'about it' }),
    body({ name: 'members', kind: 'int-list', required: true, example: '[{user_id}]' }),
  ]),
  family('GET /user_groups', 'user', []),
  spec('POST /streams/{stream_id}/delete_topic', 'admin', [
    pathId('stream_id', 'Invalid stream ID'),
    body({ name: 'topic_name', kind: 'string', required: true, example: 'no such topic' }),
  ]),
  spec('POST /realm/playgrounds', 'admin', [
    body({ name: 'name', kind: 'string', required: true, example: 'Python playground' }),
    body({
      name: 'highlighter_language',
      kind: 'string',
      aliases: ['pygments_language'],
      required: true,
      example: 'Python',
    }),
    body({ name: 'url_prefix', kind: 'string', required: true, example: 'https://python.example/?code=' }),
  ]),
  family('DELETE /realm/playgrounds/{playground_id}', 'admin', [pathId('playground_id')]),
  // ---- beyond the spec (issue 8): edges ----
  // ---- end edges ----
  // ---- beyond the spec (issue 8): messages ----
  // ---- end messages ----
  // ---- beyond the spec (issue 8): flags-reactions-scheduled ----
  // ---- end flags-reactions-scheduled ----
  // ---- beyond the spec (issue 8): presence-typing-topics ----
  // ---- end presence-typing-topics ----
  // ---- beyond the spec (issue 8): streams ----
  // ---- end streams ----
  // ---- beyond the spec (issue 8): users-groups-fields ----
  // ---- end users-groups-fields ----
  // ---- beyond the spec (issue 8): realm-uploads ----
  // ---- end realm-uploads ----
  // Spectators too, where the organization allows public access (see the spec).
  spec('POST /register', 'user', queueParams('body'), { spectators: true }),
  spec(
    'GET /events',
    'user',
    [
      query({ name: 'queue_id', kind: 'string', example: '{queue_id}' }),
      query({ name: 'last_event_id', kind: 'int', example: '-1' }),
      query({ name: 'dont_block', kind: 'bool', example: 'true' }),
      // Without queue_id (and with dont_block), register parameters register a queue.
      ...queueParams('query'),
    ],
    // It acknowledges events.
    { readOnly: false },
  ),
  family('DELETE /events', 'user', [
    body({ name: 'queue_id', kind: 'string', required: true, example: '{queue_id}' }),
  ]),
  spec('POST /external/{integration_name}', 'webhook', [
    pathText('integration_name'),
    // Required, unless the integration takes the key by HTTP Basic: the webhook's own
    // authentication says "Missing 'api_key' argument". Integrations' own options are
    // theirs to declare (server/webhooks).
    query({ name: 'api_key', kind: 'string', example: '{webhook_api_key}' }),
    query({ name: 'stream', kind: 'string', example: 'general' }),
    query({ name: 'topic', kind: 'string', example: 'greetings' }),
  ]),
] as const;

/** The catalogue of the REST API, as data for the router and the table-driven tests. */
export const ENDPOINTS: readonly EndpointSpec[] = API;
export type ApiEntry = (typeof API)[number];

/**
 * Pages outside /api/v1, routed the same way: avatars and the link an email-change email
 * carries. Not part of the REST API's tests (they answer images and HTML).
 */
const PAGE_ENTRIES = [
  // Any number the platform reads as one; anything else is "User not found" (404).
  family('GET /avatar/{user_id}', 'user', [pathText('user_id')]),
  family('GET /accounts/confirm_new_email/{key}', 'none', [pathText('key')]),
] as const;

export const PAGES: readonly EndpointSpec[] = PAGE_ENTRIES;
export type PageEntry = (typeof PAGE_ENTRIES)[number];

/** `METHOD /path` of an endpoint, as tests and reports name it. */
export function endpointName(endpoint: Pick<EndpointSpec, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}
