/**
 * The endpoint catalogue: every endpoint of the spec (and the few of the interface family the
 * issue adds), with its method, path, who may call it, and its parameters with their kinds.
 * Table-driven tests (malformed input, the auth matrix) and documentation read it; the server
 * does not route from it.
 *
 * Parameter values are written as they travel (Conventions): `example` is a valid raw text.
 * Path parameters are written `{name}` in `path`; their examples are placeholders the caller
 * resolves (`{stream_id}` means "an existing stream id").
 */
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
  /** Longest accepted text, where the spec or the family sets one. */
  maxLength?: number;
  deprecated?: boolean;
}

export interface EndpointSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, path parameters as `{name}`. */
  path: string;
  permission: Permission;
  params: readonly ParamSpec[];
  /** A section of service-api.md, or `family` for endpoints the issue adds from the family. */
  source: 'spec' | 'family';
  deprecated?: boolean;
  /** What the endpoint changes: GETs change nothing. */
  readOnly?: boolean;
}

type P = Omit<ParamSpec, 'in' | 'required'> & Partial<Pick<ParamSpec, 'in' | 'required'>>;
const body = (p: P): ParamSpec => ({ in: 'body', required: false, ...p });
const query = (p: P): ParamSpec => ({ in: 'query', required: false, ...p });
const path = (name: string, kind: 'int' | 'string' = 'int'): ParamSpec => ({
  name,
  kind,
  in: 'path',
  required: true,
  example: `{${name}}`,
});

function settingParam(name: string, spec: SettingSpec): ParamSpec {
  const t = spec.type;
  switch (t.kind) {
    case 'bool':
      return body({ name, kind: 'bool', example: 'true' });
    case 'int-enum':
      return body({ name, kind: 'int-enum', values: t.values, example: String(t.values[0]) });
    case 'str-enum':
      return body({ name, kind: 'str-enum', values: t.values, example: String(t.values[0]) });
    case 'int':
      return body({ name, kind: 'int', example: String(t.min) });
    case 'string':
      return body({
        name,
        kind: 'string',
        maxLength: t.maxLength,
        example: name === 'timezone' ? 'UTC' : 'en',
      });
  }
}

const sharedSettingParams = Object.entries(SHARED_SETTINGS).map(([n, s]) => settingParam(n, s));
const settingsParams: ParamSpec[] = [
  body({ name: 'full_name', kind: 'string', maxLength: 100, example: 'A Name' }),
  body({ name: 'email', kind: 'string', maxLength: 254, example: 'new@example.com' }),
  body({ name: 'old_password', kind: 'string', example: 'old' }),
  body({ name: 'new_password', kind: 'string', example: 'new' }),
  ...Object.entries(PERSONAL_SETTINGS).map(([n, s]) => settingParam(n, s)),
  ...sharedSettingParams,
];

const STREAM_POST_POLICIES = [1, 2, 3, 4] as const;
const PROFILE_FIELD_TYPES = [1, 2, 3, 4, 5, 6, 7, 8] as const;

const subscribeOptions: ParamSpec[] = [
  body({ name: 'invite_only', kind: 'bool', example: 'false' }),
  body({ name: 'is_web_public', kind: 'bool', example: 'false' }),
  body({ name: 'history_public_to_subscribers', kind: 'bool', example: 'true' }),
  body({ name: 'stream_post_policy', kind: 'int-enum', values: STREAM_POST_POLICIES, example: '1' }),
  body({ name: 'message_retention_days', kind: 'retention', example: 'realm_default' }),
];

const userListQuery: ParamSpec[] = [
  query({ name: 'client_extavatar', kind: 'bool', example: 'false' }),
  query({ name: 'include_custom_profile_fields', kind: 'bool', example: 'true' }),
];

export const ENDPOINTS: readonly EndpointSpec[] = [
  { method: 'PATCH', path: '/settings', permission: 'user', source: 'spec', params: settingsParams },
  {
    method: 'PATCH',
    path: '/settings/display',
    permission: 'user',
    source: 'spec',
    deprecated: true,
    params: settingsParams,
  },
  {
    method: 'PATCH',
    path: '/settings/notifications',
    permission: 'user',
    source: 'spec',
    deprecated: true,
    params: settingsParams,
  },
  {
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    permission: 'admin',
    source: 'spec',
    params: sharedSettingParams,
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    permission: 'user',
    source: 'spec',
    params: [
      body({
        name: 'subscription_data',
        kind: 'json-array',
        required: true,
        example: '[{"stream_id": {stream_id}, "property": "pin_to_top", "value": false}]',
      }),
    ],
  },
  { method: 'POST', path: '/mark_all_as_read', permission: 'user', source: 'spec', params: [] },
  {
    method: 'POST',
    path: '/mark_stream_as_read',
    permission: 'user',
    source: 'spec',
    params: [body({ name: 'stream_id', kind: 'int', required: true, example: '{stream_id}' })],
  },
  {
    method: 'POST',
    path: '/mark_topic_as_read',
    permission: 'user',
    source: 'spec',
    params: [
      body({ name: 'stream_id', kind: 'int', required: true, example: '{stream_id}' }),
      body({ name: 'topic_name', kind: 'string', required: true, example: 'greetings' }),
    ],
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    permission: 'user',
    source: 'spec',
    params: [
      body({ name: 'subscriptions', kind: 'json-array', required: true, example: '[{"name": "general"}]' }),
      body({ name: 'principals', kind: 'json-array', example: '[{user_id}]' }),
      body({ name: 'authorization_errors_fatal', kind: 'bool', example: 'true' }),
      body({ name: 'announce', kind: 'bool', example: 'false' }),
      ...subscribeOptions,
    ],
  },
  {
    method: 'GET',
    path: '/users/me/subscriptions',
    permission: 'user',
    source: 'family',
    readOnly: true,
    params: [query({ name: 'include_subscribers', kind: 'bool', example: 'true' })],
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    permission: 'user',
    source: 'family',
    params: [
      body({ name: 'subscriptions', kind: 'string-list', required: true, example: '["no such stream"]' }),
      body({ name: 'principals', kind: 'json-array', example: '[{user_id}]' }),
    ],
  },
  {
    method: 'POST',
    path: '/fetch_api_key',
    permission: 'none',
    source: 'spec',
    params: [
      body({ name: 'username', kind: 'string', required: true, example: '{email}' }),
      body({ name: 'password', kind: 'string', required: true, example: '{password}' }),
    ],
  },
  {
    method: 'POST',
    path: '/users/me/status',
    permission: 'user',
    source: 'spec',
    params: [
      body({ name: 'status_text', kind: 'string', maxLength: 60, example: 'on holiday' }),
      body({ name: 'emoji_name', kind: 'string', example: 'smile' }),
      body({ name: 'emoji_code', kind: 'string', example: '1f604' }),
      body({
        name: 'reaction_type',
        kind: 'str-enum',
        values: ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'],
        example: 'unicode_emoji',
      }),
      body({ name: 'away', kind: 'bool', example: 'false', deprecated: true }),
    ],
  },
  {
    method: 'POST',
    path: '/realm/profile_fields',
    permission: 'admin',
    source: 'spec',
    params: [
      body({ name: 'name', kind: 'string', maxLength: 40, example: 'Team' }),
      body({ name: 'hint', kind: 'string', maxLength: 80, example: 'Which team' }),
      body({
        name: 'field_type',
        kind: 'int-enum',
        values: PROFILE_FIELD_TYPES,
        required: true,
        example: '1',
      }),
      body({ name: 'field_data', kind: 'json-object', example: '{}' }),
      body({ name: 'display_in_profile_summary', kind: 'bool', example: 'false' }),
    ],
  },
  {
    method: 'GET',
    path: '/realm/profile_fields',
    permission: 'user',
    source: 'family',
    readOnly: true,
    params: [],
  },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    permission: 'user',
    source: 'family',
    params: [body({ name: 'data', kind: 'json-array', required: true, example: '[]' })],
  },
  {
    method: 'POST',
    path: '/drafts',
    permission: 'user',
    source: 'spec',
    params: [
      body({
        name: 'drafts',
        kind: 'json-array',
        example: '[{"type": "", "to": [], "topic": "", "content": "a draft"}]',
      }),
    ],
  },
  { method: 'GET', path: '/drafts', permission: 'user', source: 'family', readOnly: true, params: [] },
  {
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    permission: 'user',
    source: 'family',
    params: [
      path('draft_id'),
      body({
        name: 'draft',
        kind: 'json-object',
        required: true,
        example: '{"type": "", "to": [], "topic": "", "content": "edited"}',
      }),
    ],
  },
  {
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    permission: 'user',
    source: 'family',
    params: [path('draft_id')],
  },
  {
    method: 'PATCH',
    path: '/streams/{stream_id}',
    permission: 'admin',
    source: 'spec',
    params: [
      path('stream_id'),
      body({ name: 'description', kind: 'string', maxLength: 1024, example: 'About this stream' }),
      body({ name: 'new_name', kind: 'string', maxLength: 60, example: 'general' }),
      body({ name: 'is_private', kind: 'bool', example: 'false' }),
      body({ name: 'is_web_public', kind: 'bool', example: 'false' }),
      body({ name: 'history_public_to_subscribers', kind: 'bool', example: 'true' }),
      body({ name: 'stream_post_policy', kind: 'int-enum', values: STREAM_POST_POLICIES, example: '1' }),
      body({ name: 'message_retention_days', kind: 'retention', example: 'realm_default' }),
      body({ name: 'is_announcement_only', kind: 'bool', example: 'false', deprecated: true }),
    ],
  },
  {
    method: 'GET',
    path: '/streams',
    permission: 'user',
    source: 'spec',
    readOnly: true,
    params: [
      query({ name: 'include_public', kind: 'bool', example: 'true' }),
      query({ name: 'include_web_public', kind: 'bool', example: 'false' }),
      query({ name: 'include_subscribed', kind: 'bool', example: 'true' }),
      // Administrators only: its own permission row in the spec's error table.
      query({ name: 'include_all_active', kind: 'bool', example: 'false' }),
      query({ name: 'include_default', kind: 'bool', example: 'false' }),
      query({ name: 'include_owner_subscribed', kind: 'bool', example: 'false' }),
    ],
  },
  {
    method: 'GET',
    path: '/users',
    permission: 'user',
    source: 'spec',
    readOnly: true,
    params: userListQuery,
  },
  {
    method: 'GET',
    path: '/users/{email}',
    permission: 'user',
    source: 'spec',
    readOnly: true,
    params: [path('email', 'string'), ...userListQuery],
  },
  {
    method: 'POST',
    path: '/users',
    permission: 'admin+can_create_users',
    source: 'spec',
    params: [
      body({ name: 'email', kind: 'string', required: true, maxLength: 254, example: 'created@example.com' }),
      body({ name: 'password', kind: 'string', required: true, example: 'a long password' }),
      body({ name: 'full_name', kind: 'string', required: true, maxLength: 100, example: 'Created User' }),
    ],
  },
  { method: 'GET', path: '/users/me', permission: 'user', source: 'spec', readOnly: true, params: [] },
  {
    method: 'GET',
    path: '/messages/{message_id}',
    permission: 'user',
    source: 'spec',
    readOnly: true,
    params: [path('message_id'), query({ name: 'apply_markdown', kind: 'bool', example: 'true' })],
  },
  {
    method: 'POST',
    path: '/messages',
    permission: 'user',
    source: 'family',
    params: [
      body({
        name: 'type',
        kind: 'str-enum',
        values: ['stream', 'private'],
        required: true,
        example: 'stream',
      }),
      body({ name: 'to', kind: 'string', required: true, example: 'general' }),
      // Longer topics are cut to 60 characters, as in the family, not refused.
      body({ name: 'topic', kind: 'string', example: 'greetings' }),
      // Longer content is cut with a "[message truncated]" note, as in the family.
      body({ name: 'content', kind: 'string', required: true, example: 'hello' }),
    ],
  },
  {
    method: 'GET',
    path: '/messages',
    permission: 'user',
    source: 'family',
    readOnly: true,
    params: [
      query({ name: 'anchor', kind: 'string', example: 'newest' }),
      query({ name: 'num_before', kind: 'int', required: true, example: '1' }),
      query({ name: 'num_after', kind: 'int', required: true, example: '0' }),
      query({ name: 'narrow', kind: 'json-array', example: '[]' }),
      query({ name: 'apply_markdown', kind: 'bool', example: 'true' }),
    ],
  },
  {
    method: 'POST',
    path: '/user_groups/create',
    permission: 'member',
    source: 'spec',
    params: [
      body({ name: 'name', kind: 'string', required: true, maxLength: 100, example: 'a group' }),
      body({ name: 'description', kind: 'string', required: true, maxLength: 1024, example: 'about it' }),
      body({ name: 'members', kind: 'int-list', required: true, example: '[{user_id}]' }),
    ],
  },
  { method: 'GET', path: '/user_groups', permission: 'user', source: 'family', readOnly: true, params: [] },
  {
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    permission: 'admin',
    source: 'spec',
    params: [
      path('stream_id'),
      body({ name: 'topic_name', kind: 'string', required: true, example: 'no such topic' }),
    ],
  },
  {
    method: 'POST',
    path: '/realm/playgrounds',
    permission: 'admin',
    source: 'spec',
    params: [
      body({ name: 'name', kind: 'string', required: true, example: 'Python playground' }),
      body({ name: 'highlighter_language', kind: 'string', required: true, example: 'Python' }),
      body({ name: 'url_prefix', kind: 'string', required: true, example: 'https://python.example/?code=' }),
    ],
  },
  {
    method: 'DELETE',
    path: '/realm/playgrounds/{playground_id}',
    permission: 'admin',
    source: 'family',
    params: [path('playground_id')],
  },
  {
    method: 'POST',
    path: '/register',
    // Spectators too, where the organization allows public access (see the spec).
    permission: 'user',
    source: 'spec',
    params: [
      body({ name: 'apply_markdown', kind: 'bool', example: 'true' }),
      body({ name: 'client_extavatar', kind: 'bool', example: 'true' }),
      body({ name: 'include_subscribers', kind: 'bool', example: 'false' }),
      body({ name: 'slim_presence', kind: 'bool', example: 'false' }),
      body({ name: 'event_types', kind: 'string-list', example: '["message"]' }),
      body({ name: 'all_public_streams', kind: 'bool', example: 'false' }),
      body({ name: 'client_capabilities', kind: 'json-object', example: '{"user_settings_object": true}' }),
      body({ name: 'fetch_event_types', kind: 'string-list', example: '["realm_user"]' }),
      body({ name: 'narrow', kind: 'json-array', example: '[["is", "private"]]' }),
    ],
  },
  {
    method: 'GET',
    path: '/events',
    permission: 'user',
    source: 'spec',
    params: [
      query({ name: 'queue_id', kind: 'string', example: '{queue_id}' }),
      query({ name: 'last_event_id', kind: 'int', example: '-1' }),
      query({ name: 'dont_block', kind: 'bool', example: 'true' }),
    ],
  },
  {
    method: 'DELETE',
    path: '/events',
    permission: 'user',
    source: 'family',
    params: [body({ name: 'queue_id', kind: 'string', required: true, example: '{queue_id}' })],
  },
  {
    method: 'POST',
    path: '/external/{integration_name}',
    permission: 'webhook',
    source: 'spec',
    params: [
      path('integration_name', 'string'),
      query({ name: 'api_key', kind: 'string', required: true, example: '{webhook_api_key}' }),
      query({ name: 'stream', kind: 'string', example: 'general' }),
    ],
  },
];

/** `METHOD /path` of an endpoint, as tests and reports name it. */
export function endpointName(endpoint: Pick<EndpointSpec, 'method' | 'path'>): string {
  return `${endpoint.method} ${endpoint.path}`;
}
