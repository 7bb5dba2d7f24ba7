/**
 * The organization's settings (PATCH /realm) as the settings screen groups them: each
 * subsection has its own Save / Discard, as the family's web app does for organization
 * settings. Values are those of the `realm` substore (names without `realm_`).
 */

export interface OrgChoice {
  value: number | string;
  label: string;
}

export type OrgControl =
  | { kind: 'switch'; name: string; label: string; hint?: string }
  | { kind: 'select'; name: string; label: string; hint?: string; choices: OrgChoice[] }
  | { kind: 'text'; name: string; label: string; hint?: string; maxLength: number; multiline?: boolean }
  | { kind: 'language'; name: string; label: string; hint?: string };

export interface OrgSubsection {
  id: string;
  title: string;
  description?: string;
  /** Only owners may save it (the service refuses administrators). */
  ownersOnly?: boolean;
  controls: OrgControl[];
}

const COMMON_POLICY: OrgChoice[] = [
  { value: 1, label: 'Members' },
  { value: 3, label: 'Full members' },
  { value: 4, label: 'Moderators' },
  { value: 2, label: 'Administrators' },
];

const POLICY_WITH_EVERYONE: OrgChoice[] = [{ value: 5, label: 'Everyone, guests too' }, ...COMMON_POLICY];

const LIMITS: OrgChoice[] = [
  { value: 'unlimited', label: 'Any time' },
  { value: 120, label: 'Up to 2 minutes after posting' },
  { value: 600, label: 'Up to 10 minutes after posting' },
  { value: 3600, label: 'Up to 1 hour after posting' },
  { value: 86400, label: 'Up to 1 day after posting' },
  { value: 604800, label: 'Up to 1 week after posting' },
];

const RETENTION: OrgChoice[] = [
  { value: 'unlimited', label: 'Keep messages forever' },
  { value: 30, label: '30 days' },
  { value: 90, label: '90 days' },
  { value: 365, label: '1 year' },
  { value: 730, label: '2 years' },
];

const sw = (name: string, label: string, hint?: string): OrgControl => ({
  kind: 'switch',
  name,
  label,
  ...(hint ? { hint } : {}),
});
const sel = (name: string, label: string, choices: OrgChoice[], hint?: string): OrgControl => ({
  kind: 'select',
  name,
  label,
  choices,
  ...(hint ? { hint } : {}),
});

export const ORG_PROFILE: OrgSubsection[] = [
  {
    id: 'profile',
    title: 'Organization profile',
    controls: [
      { kind: 'text', name: 'name', label: 'Organization name', maxLength: 40 },
      {
        kind: 'text',
        name: 'description',
        label: 'Description',
        hint: 'Shown on the sign-in page. Markdown works.',
        maxLength: 1000,
        multiline: true,
      },
      {
        kind: 'language',
        name: 'default_language',
        label: 'Language for automated messages and invitations',
      },
    ],
  },
];

export const ORG_SETTINGS: OrgSubsection[] = [
  {
    id: 'messages',
    title: 'Message editing',
    controls: [
      sw('allow_message_editing', 'Allow people to edit their messages'),
      sel('message_content_edit_limit_seconds', 'Time limit for editing', LIMITS),
      sel('edit_topic_policy', 'Who can move messages to another topic', POLICY_WITH_EVERYONE),
      sel('delete_own_message_policy', 'Who can delete their own messages', POLICY_WITH_EVERYONE),
      sel('message_content_delete_limit_seconds', 'Time limit for deleting', LIMITS),
      sw('allow_edit_history', 'Show the edit history of messages'),
      sw('mandatory_topics', 'Require topics in stream messages'),
      sw('enable_read_receipts', 'Allow read receipts', 'Members can still turn their own off.'),
    ],
  },
  {
    id: 'permissions',
    title: 'Permissions',
    controls: [
      sel('create_public_stream_policy', 'Who can create public streams', COMMON_POLICY),
      sel('create_private_stream_policy', 'Who can create private streams', COMMON_POLICY),
      sel('create_web_public_stream_policy', 'Who can create web-public streams', [
        { value: 4, label: 'Moderators' },
        { value: 2, label: 'Administrators' },
        { value: 7, label: 'Owners' },
        { value: 6, label: 'Nobody' },
      ]),
      sel('invite_to_stream_policy', 'Who can add people to streams', COMMON_POLICY),
      sel('move_messages_between_streams_policy', 'Who can move messages between streams', COMMON_POLICY),
      sel('user_group_edit_policy', 'Who can create and edit user groups', COMMON_POLICY),
      sel('add_custom_emoji_policy', 'Who can add custom emoji', COMMON_POLICY),
      sel('private_message_policy', 'Private messages', [
        { value: 1, label: 'Allowed' },
        { value: 2, label: 'Only with bots' },
      ]),
      sel('bot_creation_policy', 'Who can add bots', [
        { value: 1, label: 'Everyone' },
        { value: 2, label: 'Everyone, but only administrators can add generic bots' },
        { value: 3, label: 'Administrators' },
      ]),
    ],
  },
  {
    id: 'members',
    title: 'Members',
    controls: [
      sel('email_address_visibility', 'Who can see email addresses', [
        { value: 1, label: 'Everyone' },
        { value: 2, label: 'Members' },
        { value: 5, label: 'Moderators' },
        { value: 3, label: 'Administrators' },
        { value: 4, label: 'Nobody' },
      ]),
      sw('name_changes_disabled', 'Prevent people from changing their name'),
      sw('email_changes_disabled', 'Prevent people from changing their email address'),
      sw('enable_spectator_access', 'Allow anyone on the web to read web-public streams'),
    ],
  },
  {
    id: 'retention',
    title: 'Retention and waiting period',
    description: 'Only organization owners can change these.',
    ownersOnly: true,
    controls: [
      sel('message_retention_days', 'Message retention', RETENTION),
      sel('waiting_period_threshold', 'Waiting period before new members are full members', [
        { value: 0, label: 'None' },
        { value: 3, label: '3 days' },
        { value: 7, label: '1 week' },
        { value: 30, label: '30 days' },
        { value: 90, label: '90 days' },
      ]),
    ],
  },
];

/** A realm value as the form holds it: "unlimited" for a limit the store has as null or -1. */
export function formValue(name: string, value: unknown): unknown {
  if (
    (name === 'message_content_edit_limit_seconds' || name === 'message_content_delete_limit_seconds') &&
    value === null
  ) {
    return 'unlimited';
  }
  if (name === 'message_retention_days' && (value === -1 || value === null)) return 'unlimited';
  return value;
}

/** The subsection's values from the organization's state, as the form holds them. */
export function initialValues(
  section: OrgSubsection,
  realm: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const control of section.controls) values[control.name] = formValue(control.name, realm[control.name]);
  return values;
}

/** What the form changed: the PATCH body (only values that differ from the initial ones). */
export function changedValues(
  initial: Readonly<Record<string, unknown>>,
  draft: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(draft)) {
    if (value !== undefined && value !== initial[name]) changes[name] = value;
  }
  return changes;
}

/** The choices of a select, plus the current value when it is not one of them. */
export function orgChoicesWith(choices: readonly OrgChoice[], value: unknown): OrgChoice[] {
  const all = [...choices];
  if ((typeof value === 'number' || typeof value === 'string') && !all.some((c) => c.value === value)) {
    all.push({ value, label: String(value) });
  }
  return all;
}
