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

/** A stream named by id in the body, as most stream actions take it. */
const streamIdBody = body({ name: 'stream_id', kind: 'int', required: true, example: '{stream_id}' });

/** The words POST and DELETE /users/me/alert_words add or remove. */
const alertWordList = body({
  name: 'alert_words',
  kind: 'string-list',
  required: true,
  example: '["lunch"]',
});

/** The user muted or unmuted by /users/me/muted_users/{muted_user_id}. */
const mutedUserId = { ...pathId('muted_user_id'), example: '{user_id}' };

/** A linkifier as POST and PATCH /realm/filters take it. */
const linkifierParams = [
  body({ name: 'pattern', kind: 'string', required: true, example: '#(?P<id>[0-9]+)' }),
  // url_format_string: the name before the family's feature level 176.
  body({
    name: 'url_template',
    kind: 'string',
    required: true,
    aliases: ['url_format_string'],
    example: 'https://tracker.example/{id}',
  }),
];

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
  spec('POST /mark_stream_as_read', 'user', [streamIdBody]),
  spec('POST /mark_topic_as_read', 'user', [
    streamIdBody,
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
  family('PATCH /messages/{message_id}', 'user', [
    pathId('message_id', 'Invalid message(s)'),
    // Longer topics are cut to 60 characters, as in POST /messages.
    body({ name: 'topic', kind: 'string', aliases: ['subject'], example: 'greetings' }),
    body({
      name: 'propagate_mode',
      kind: 'str-enum',
      values: ['change_one', 'change_later', 'change_all'],
      example: 'change_one',
    }),
    ...flags('body', { send_notification_to_old_thread: 'true', send_notification_to_new_thread: 'true' }),
    body({ name: 'content', kind: 'string', example: 'edited' }),
    body({ name: 'stream_id', kind: 'int', example: '{stream_id}' }),
  ]),
  // A message of its own in the table-driven tests, so the shared fixture message stays.
  family('DELETE /messages/{message_id}', 'user', [
    { ...pathId('message_id', 'Invalid message(s)'), example: '{deletable_message_id}' },
  ]),
  family('GET /messages/{message_id}/history', 'user', [pathId('message_id', 'Invalid message(s)')]),
  family('GET /messages/{message_id}/read_receipts', 'user', [pathId('message_id', 'Invalid message(s)')]),
  // Changes nothing: a preview of the content as a message would show it.
  family(
    'POST /messages/render',
    'user',
    [body({ name: 'content', kind: 'string', required: true, example: '**bold**' })],
    { readOnly: true },
  ),
  family('GET /messages/matches_narrow', 'user', [
    // Ids the user cannot read, or that do not exist, just do not match (as in the family).
    query({
      name: 'msg_ids',
      kind: 'json-array',
      required: true,
      example: '[{message_id}]',
      schema: z.array(z.number().int().safe()),
      invalid: 'msg_ids is not a list of integers',
    }),
    query({ name: 'narrow', kind: 'json-array', format: 'message-narrow', required: true, example: '[]' }),
  ]),
  // ---- end messages ----
  // ---- beyond the spec (issue 8): flags-reactions-scheduled ----
  family('POST /messages/flags', 'user', [
    body({ name: 'messages', kind: 'int-list', required: true, example: '[{message_id}]' }),
    // The action checks both, in the family's words ("Invalid flag: 'x'").
    body({ name: 'op', kind: 'string', required: true, example: 'add' }),
    body({ name: 'flag', kind: 'string', required: true, example: 'starred' }),
  ]),
  family('POST /messages/flags/narrow', 'user', [
    body({ name: 'anchor', kind: 'string', required: true, example: 'newest' }),
    body({ name: 'include_anchor', kind: 'bool', example: 'true' }),
    body({ name: 'num_before', kind: 'int', min: 0, required: true, example: '1' }),
    body({ name: 'num_after', kind: 'int', min: 0, required: true, example: '0' }),
    body({ name: 'narrow', kind: 'json-array', format: 'message-narrow', required: true, example: '[]' }),
    body({ name: 'op', kind: 'string', required: true, example: 'add' }),
    body({ name: 'flag', kind: 'string', required: true, example: 'starred' }),
  ]),
  family('POST /messages/{message_id}/reactions', 'user', [
    pathId('message_id', 'Invalid message(s)'),
    // The action checks name, code and type together, in the family's words.
    body({ name: 'emoji_name', kind: 'string', format: 'text', required: true, example: 'octopus' }),
    body({ name: 'emoji_code', kind: 'string', format: 'text', example: '1f419' }),
    body({ name: 'reaction_type', kind: 'string', format: 'text', example: 'unicode_emoji' }),
  ]),
  family('DELETE /messages/{message_id}/reactions', 'user', [
    pathId('message_id', 'Invalid message(s)'),
    body({ name: 'emoji_name', kind: 'string', format: 'text', example: 'octopus' }),
    body({ name: 'emoji_code', kind: 'string', format: 'text', example: '1f419' }),
    body({ name: 'reaction_type', kind: 'string', format: 'text', example: 'unicode_emoji' }),
  ]),
  family('GET /scheduled_messages', 'user', []),
  family('POST /scheduled_messages', 'user', [
    body({
      name: 'type',
      kind: 'str-enum',
      values: ['direct', 'channel', 'stream', 'private'],
      required: true,
      example: 'stream',
    }),
    // A stream id, or a JSON list of user ids: the action reads it by the type.
    body({ name: 'to', kind: 'string', required: true, example: '{stream_id}' }),
    body({ name: 'content', kind: 'string', required: true, example: 'later' }),
    body({ name: 'topic', kind: 'string', example: 'plans' }),
    body({ name: 'scheduled_delivery_timestamp', kind: 'int', required: true, example: '3165826990' }),
    body({ name: 'read_by_sender', kind: 'bool', example: 'true' }),
  ]),
  family('PATCH /scheduled_messages/{scheduled_message_id}', 'user', [
    pathId('scheduled_message_id'),
    body({
      name: 'type',
      kind: 'str-enum',
      values: ['direct', 'channel', 'stream', 'private'],
      example: 'stream',
    }),
    body({ name: 'to', kind: 'string', example: '{stream_id}' }),
    body({ name: 'content', kind: 'string', example: 'later, edited' }),
    body({ name: 'topic', kind: 'string', example: 'plans' }),
    body({ name: 'scheduled_delivery_timestamp', kind: 'int', example: '3165826990' }),
  ]),
  family('DELETE /scheduled_messages/{scheduled_message_id}', 'user', [pathId('scheduled_message_id')]),
  // ---- end flags-reactions-scheduled ----
  // ---- beyond the spec (issue 8): presence-typing-topics ----
  family('POST /typing', 'user', [
    body({
      name: 'type',
      kind: 'str-enum',
      // private and stream: the names at our feature level; direct and channel: the newer ones.
      values: ['direct', 'private', 'stream', 'channel'],
      example: 'private',
    }),
    body({ name: 'op', kind: 'str-enum', values: ['start', 'stop'], required: true, example: 'start' }),
    // Direct messages: the recipients; for a stream, its id as a one-element list (before stream_id).
    body({ name: 'to', kind: 'int-list', example: '[{user_id}]' }),
    body({ name: 'stream_id', kind: 'int', example: '{stream_id}' }),
    body({ name: 'topic', kind: 'string', example: 'greetings' }),
  ]),
  family('POST /users/me/presence', 'user', [
    // Checked by the action, in the family's words: "Invalid status: <status>".
    body({ name: 'status', kind: 'string', required: true, example: 'active' }),
    ...flags('body', { ping_only: 'false', new_user_input: 'false', slim_presence: 'false' }),
    body({ name: 'last_update_id', kind: 'int', example: '-1' }),
    body({ name: 'history_limit_days', kind: 'int', min: 0, example: '14' }),
  ]),
  family('GET /realm/presence', 'user', []),
  // A user id or display email; the example names a user by id.
  family('GET /users/{user_id_or_email}/presence', 'user', [
    { name: 'user_id_or_email', kind: 'string', in: 'path', required: true, example: '{user_id}' },
  ]),
  family('GET /users/me/{stream_id}/topics', 'user', [pathId('stream_id', 'Invalid stream ID')]),
  family('POST /user_topics', 'user', [
    streamIdBody,
    body({ name: 'topic', kind: 'string', required: true, example: 'greetings' }),
    // 0 inherit, 1 muted, 2 unmuted, 3 followed.
    body({ name: 'visibility_policy', kind: 'int-enum', values: [0, 1, 2, 3], required: true, example: '1' }),
  ]),
  family('GET /users/me/alert_words', 'user', []),
  family('POST /users/me/alert_words', 'user', [alertWordList]),
  family('DELETE /users/me/alert_words', 'user', [alertWordList]),
  family('POST /users/me/muted_users/{muted_user_id}', 'user', [mutedUserId]),
  family('DELETE /users/me/muted_users/{muted_user_id}', 'user', [mutedUserId]),
  // ---- end presence-typing-topics ----
  // ---- beyond the spec (issue 8): streams ----
  // Archives the stream; its own fixture, so the table-driven tests keep general.
  family(
    'DELETE /streams/{stream_id}',
    'admin',
    [{ ...pathId('stream_id', 'Invalid stream ID'), example: '{archive_stream_id}' }],
    { roleCheck: 'action' },
  ),
  family('GET /streams/{stream_id}/members', 'user', [pathId('stream_id', 'Invalid stream ID')]),
  family('GET /get_stream_id', 'user', [
    query({ name: 'stream', kind: 'string', required: true, example: 'general' }),
  ]),
  family('GET /users/{user_id}/subscriptions/{stream_id}', 'user', [
    pathId('user_id'),
    pathId('stream_id', 'Invalid stream ID'),
  ]),
  // Register gives non-guests the same list (realm_default_streams).
  family('GET /default_streams', 'member', []),
  // Removed before added, so the table-driven tests leave general a default stream.
  family('DELETE /default_streams', 'admin', [streamIdBody]),
  family('POST /default_streams', 'admin', [streamIdBody]),
  // ---- end streams ----
  // ---- beyond the spec (issue 8): users-groups-fields ----
  family('PATCH /users/{user_id}', 'admin', [
    pathId('user_id'),
    body({ name: 'full_name', kind: 'string', maxLength: 100, example: 'A Name' }),
    body({
      name: 'role',
      kind: 'int-enum',
      values: [100, 200, 300, 400, 600],
      invalid: 'Invalid role',
      example: '400',
    }),
    body({ name: 'profile_data', kind: 'json-array', format: 'profile-data', example: '[]' }),
  ]),
  // The example names nobody: the tables must not deactivate their own users.
  family('DELETE /users/{user_id}', 'admin', [
    { ...pathId('user_id'), example: '987654321' },
    body({
      name: 'deactivation_notification_comment',
      kind: 'string',
      format: 'text',
      maxLength: 2000,
      example: 'Farewell!',
    }),
  ]),
  family('POST /users/{user_id}/reactivate', 'admin', [pathId('user_id')]),
  family('GET /bots', 'user', []),
  family('GET /users/{user_id}/status', 'user', [pathId('user_id')]),
  family('PATCH /user_groups/{user_group_id}', 'member', [
    pathId('user_group_id'),
    body({ name: 'name', kind: 'string', maxLength: 100, example: 'a new name' }),
    body({ name: 'description', kind: 'string', maxLength: 1024, example: 'about it' }),
  ]),
  family('POST /user_groups/{user_group_id}/members', 'member', [
    pathId('user_group_id'),
    body({ name: 'add', kind: 'int-list', example: '[]' }),
    body({ name: 'delete', kind: 'int-list', example: '[]' }),
  ]),
  // Groups have no subgroups here: direct_member_only gives the same members.
  family('GET /user_groups/{user_group_id}/members', 'user', [
    pathId('user_group_id'),
    ...flags('query', { direct_member_only: 'false' }),
  ]),
  family('POST /user_groups/{user_group_id}/deactivate', 'member', [pathId('user_group_id')]),
  family('PATCH /realm/profile_fields/{field_id}', 'admin', [
    pathId('field_id'),
    body({ name: 'name', kind: 'string', format: 'text', maxLength: 40, example: 'Team' }),
    body({ name: 'hint', kind: 'string', format: 'text', maxLength: 80, example: 'Which team' }),
    body({ name: 'field_data', kind: 'json-object', format: 'json', example: '{}' }),
    body({ name: 'display_in_profile_summary', kind: 'bool', example: 'false' }),
  ]),
  // The example names no field: the tables must not delete the organization's fields.
  family('DELETE /realm/profile_fields/{field_id}', 'admin', [
    { ...pathId('field_id'), example: '987654321' },
  ]),
  family('PATCH /realm/profile_fields', 'admin', [
    body({ name: 'order', kind: 'int-list', required: true, example: '[]' }),
  ]),
  family('DELETE /users/me/profile_data', 'user', [
    body({ name: 'data', kind: 'int-list', required: true, example: '[]' }),
  ]),
  // ---- end users-groups-fields ----
  // ---- beyond the spec (issue 8): realm-uploads ----
  // The login page's questions, asked before any sign-in.
  family('GET /server_settings', 'none', []),
  // Organization settings; owners only: message_retention_days, waiting_period_threshold.
  family('PATCH /realm', 'admin', [
    body({ name: 'name', kind: 'string', format: 'text', maxLength: 40, example: 'Confab' }),
    body({ name: 'description', kind: 'string', format: 'text', maxLength: 1000, example: 'About us' }),
    body({ name: 'default_language', kind: 'string', example: 'en' }),
    ...flags('body', {
      enable_spectator_access: 'false',
      name_changes_disabled: 'false',
      email_changes_disabled: 'false',
      allow_message_editing: 'true',
      allow_edit_history: 'true',
      mandatory_topics: 'false',
      enable_read_receipts: 'true',
    }),
    body({ name: 'email_address_visibility', kind: 'int-enum', values: [1, 2, 3, 4, 5], example: '1' }),
    body({ name: 'message_retention_days', kind: 'retention', example: 'unlimited' }),
    // A number of seconds or the JSON string "unlimited": the action checks which.
    body({ name: 'message_content_edit_limit_seconds', kind: 'int', format: 'json', example: '600' }),
    body({ name: 'message_content_delete_limit_seconds', kind: 'int', format: 'json', example: '600' }),
    body({ name: 'waiting_period_threshold', kind: 'int', min: 0, example: '0' }),
    body({ name: 'edit_topic_policy', kind: 'int-enum', values: [1, 2, 3, 4, 5], example: '5' }),
    body({ name: 'delete_own_message_policy', kind: 'int-enum', values: [1, 2, 3, 4, 5], example: '2' }),
    body({ name: 'create_public_stream_policy', kind: 'int-enum', values: [1, 2, 3, 4], example: '1' }),
    body({ name: 'create_private_stream_policy', kind: 'int-enum', values: [1, 2, 3, 4], example: '1' }),
    body({ name: 'create_web_public_stream_policy', kind: 'int-enum', values: [2, 4, 6, 7], example: '2' }),
    body({ name: 'invite_to_stream_policy', kind: 'int-enum', values: [1, 2, 3, 4], example: '1' }),
    body({
      name: 'move_messages_between_streams_policy',
      kind: 'int-enum',
      values: [1, 2, 3, 4],
      example: '2',
    }),
    body({ name: 'user_group_edit_policy', kind: 'int-enum', values: [1, 2, 3, 4], example: '1' }),
    body({ name: 'private_message_policy', kind: 'int-enum', values: [1, 2], example: '1' }),
    body({ name: 'add_custom_emoji_policy', kind: 'int-enum', values: [1, 2, 3, 4], example: '1' }),
    body({ name: 'bot_creation_policy', kind: 'int-enum', values: [1, 2, 3], example: '1' }),
  ]),
  family('GET /realm/linkifiers', 'user', []),
  // The older list: [pattern, url_template, id] triples.
  family('GET /realm/filters', 'user', [], { deprecated: true }),
  family('POST /realm/filters', 'admin', linkifierParams),
  family('PATCH /realm/filters/{filter_id}', 'admin', [pathId('filter_id'), ...linkifierParams]),
  family('DELETE /realm/filters/{filter_id}', 'admin', [pathId('filter_id')]),
  // One file part (multipart/form-data); its type is sniffed from the content.
  family('POST /user_uploads', 'user', []),
  family('GET /attachments', 'user', []),
  family('DELETE /attachments/{attachment_id}', 'user', [pathId('attachment_id')]),
  family('GET /realm/emoji', 'user', []),
  // One image file part (multipart/form-data); who may add one: add_custom_emoji_policy.
  family('POST /realm/emoji/{emoji_name}', 'member', [pathText('emoji_name')]),
  // Administrators, or the emoji's author.
  family('DELETE /realm/emoji/{emoji_name}', 'member', [pathText('emoji_name')]),
  // A temporary URL (a minute, no credentials needed) for a file the user may read.
  family('GET /user_uploads/{realm_id}/{dir}/{key}/{filename}', 'user', [
    pathText('realm_id'),
    pathText('dir'),
    pathText('key'),
    pathText('filename'),
  ]),
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
  // realm-uploads (issue 8): a custom emoji's image, for anyone (emoji are the organization's).
  family('GET /user_uploads/emoji/{emoji_id}/{filename}', 'none', [
    pathText('emoji_id'),
    pathText('filename'),
  ]),
  // realm-uploads (issue 8): an uploaded file by a temporary URL, for a minute, for anyone.
  family('GET /user_uploads/temporary/{token}/{filename}', 'none', [pathText('token'), pathText('filename')]),
  // realm-uploads (issue 8): an uploaded file, for its uploader and readers of messages linking it.
  family('GET /user_uploads/{realm_id}/{dir}/{key}/{filename}', 'user', [
    pathText('realm_id'),
    pathText('dir'),
    pathText('key'),
    pathText('filename'),
  ]),
] as const;

export const PAGES: readonly EndpointSpec[] = PAGE_ENTRIES;
export type PageEntry = (typeof PAGE_ENTRIES)[number];

/** `METHOD /path` of an endpoint, as tests and reports name it. */
export function endpointName(endpoint: Pick<EndpointSpec, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}
