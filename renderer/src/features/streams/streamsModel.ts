/**
 * The streams screens' pure rules: which streams a filter shows and in what order, the privacy
 * states and which changes the server would accept (so a refused change is never offered), who
 * a posting or creation policy lets in, and how traffic and retention read.
 */
import { STREAM_COLORS } from '../../../../shared/protocol';

/** A stream as the browse list shows it (subscribed or not). */
export interface StreamListItem {
  stream_id: number;
  name: string;
  description: string;
  /** The server's rendering of the description (HTML, sanitized where shown). */
  rendered_description?: string;
  invite_only: boolean;
  is_web_public: boolean;
  color?: string;
  subscribed: boolean;
  /** null: the snapshot carried no subscriber lists. */
  subscriberCount: number | null;
  weeklyTraffic: number | null;
}

/** Streams whose name or description holds the filter (any case), by name. */
export function filterStreams(streams: readonly StreamListItem[], filter: string): StreamListItem[] {
  const needle = filter.trim().toLocaleLowerCase();
  return streams
    .filter(
      (s) =>
        needle === '' ||
        s.name.toLocaleLowerCase().includes(needle) ||
        s.description.toLocaleLowerCase().includes(needle),
    )
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

// ---- roles and policies ----------------------------------------------------------------------

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** The organization's "who can" policy values. */
export const POLICY = { members: 1, admins: 2, fullMembers: 3, moderators: 4, nobody: 6, owners: 7 } as const;

const POLICY_WHO: Record<number, string> = {
  [POLICY.members]: 'members',
  [POLICY.admins]: 'administrators',
  [POLICY.fullMembers]: 'full members',
  [POLICY.moderators]: 'moderators',
  [POLICY.nobody]: 'nobody',
  [POLICY.owners]: 'owners',
};

/** Whether a role satisfies a policy value (guests never do). */
export function policyAllows(role: number | undefined, policy: number): boolean {
  if (role === undefined || role >= ROLE.guest) return false;
  switch (policy) {
    case POLICY.members:
    case POLICY.fullMembers:
      return true;
    case POLICY.admins:
      return role <= ROLE.admin;
    case POLICY.moderators:
      return role <= ROLE.moderator;
    case POLICY.owners:
      return role === ROLE.owner;
    default:
      return false;
  }
}

export function policyReason(policy: number, what: string): string {
  const who = POLICY_WHO[policy] ?? 'some people';
  return who === 'nobody'
    ? `No one may ${what} in this organization.`
    : `Only ${who} may ${what} in this organization.`;
}

// ---- privacy ---------------------------------------------------------------------------------

export type Privacy = 'web-public' | 'public' | 'private-shared' | 'private-protected';

export interface PrivacyFlags {
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
}

export const PRIVACY_LABELS: Record<Privacy, { label: string; description: string }> = {
  'web-public': { label: 'Web-public', description: 'Anyone on the internet can read it; members can join.' },
  public: { label: 'Public', description: 'Members can join and read its whole history.' },
  'private-shared': {
    label: 'Private, shared history',
    description: 'Joining by invitation; new subscribers see the whole history.',
  },
  'private-protected': {
    label: 'Private, protected history',
    description: 'Joining by invitation; new subscribers see only what was sent after they joined.',
  },
};

export const PRIVACY_ORDER: readonly Privacy[] = [
  'web-public',
  'public',
  'private-shared',
  'private-protected',
];

export function privacyOf(s: PrivacyFlags): Privacy {
  if (s.is_web_public) return 'web-public';
  if (!s.invite_only) return 'public';
  return s.history_public_to_subscribers ? 'private-shared' : 'private-protected';
}

export function flagsOf(p: Privacy): PrivacyFlags {
  return {
    invite_only: p === 'private-shared' || p === 'private-protected',
    is_web_public: p === 'web-public',
    history_public_to_subscribers: p !== 'private-protected',
  };
}

/** The organization facts the privacy rules read. */
export interface PrivacyContext {
  role: number | undefined;
  spectatorAccess: boolean;
  webPublicPolicy: number;
  publicPolicy: number;
  privatePolicy: number;
}

/** Why a new stream cannot have this privacy; null: it can. */
export function createPrivacyReason(p: Privacy, ctx: PrivacyContext): string | null {
  if (p === 'web-public') {
    if (!ctx.spectatorAccess)
      return 'Web-public streams are not enabled in this organization (it does not allow spectator access).';
    if (!policyAllows(ctx.role, ctx.webPublicPolicy))
      return policyReason(ctx.webPublicPolicy, 'create web-public streams');
    return null;
  }
  if (p === 'public')
    return policyAllows(ctx.role, ctx.publicPolicy)
      ? null
      : policyReason(ctx.publicPolicy, 'create public streams');
  return policyAllows(ctx.role, ctx.privatePolicy)
    ? null
    : policyReason(ctx.privatePolicy, 'create private streams');
}

/** Why an existing stream cannot move to this privacy (the server's rules); null: it can. */
export function changePrivacyReason(
  current: PrivacyFlags,
  target: Privacy,
  ctx: PrivacyContext & { isDefaultStream: boolean },
): string | null {
  const from = privacyOf(current);
  if (from === target) return null;
  const next = flagsOf(target);
  if (next.invite_only && !current.invite_only && ctx.isDefaultStream)
    return 'Default streams cannot be made private. Remove it from the default streams first.';
  if (target === 'web-public' && !current.is_web_public) {
    if (!ctx.spectatorAccess)
      return 'Web-public streams are not enabled in this organization (it does not allow spectator access).';
    if (!policyAllows(ctx.role, ctx.webPublicPolicy))
      return policyReason(ctx.webPublicPolicy, 'make streams web-public');
  }
  return null;
}

// ---- posting, retention, traffic --------------------------------------------------------------

export const POST_POLICIES = [
  { id: 1, label: 'Everyone' },
  { id: 2, label: 'Administrators only' },
  { id: 4, label: 'Administrators and moderators' },
  { id: 3, label: 'Everyone except new members' },
] as const;

/** Why the user cannot set a stream's message retention (owners only); null: they can. */
export function retentionReason(role: number | undefined): string | null {
  return role === ROLE.owner ? null : 'Only organization owners can change how long messages are kept.';
}

/** The realm's message_retention_days (-1 or null: forever) as words. */
export function realmRetentionText(days: number | null | undefined): string {
  return days === undefined || days === null || days < 0 ? 'forever' : `${days} day${days === 1 ? '' : 's'}`;
}

/** The retention choice for a stream: inherit, forever, or a number of days. */
export type RetentionChoice = 'realm_default' | 'unlimited' | 'days';

export function retentionChoiceOf(value: number | null | undefined): RetentionChoice {
  if (value === null || value === undefined) return 'realm_default';
  return value < 0 ? 'unlimited' : 'days';
}

/** Days typed by a person: a whole positive number, else the reason it is not. */
export function parseRetentionDays(text: string): { days: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { error: 'Enter a whole number of days.' };
  const days = Number(trimmed);
  if (days < 1) return { error: 'Keep messages for at least 1 day.' };
  return { days };
}

/**
 * stream_weekly_traffic as the browse list says it: the server's estimate of messages a week
 * over the last four weeks (already rounded), or null for a stream less than a week old.
 */
export function trafficText(weekly: number | null): string {
  if (weekly === null) return 'New stream';
  if (weekly === 0) return 'No recent messages';
  return `About ${weekly.toLocaleString('en-US')} message${weekly === 1 ? '' : 's'} a week`;
}

/** What the traffic figure means, for a tooltip or a screen reader. */
export function trafficDescription(weekly: number | null): string {
  if (weekly === null) return 'Created less than a week ago: too new to tell its traffic.';
  if (weekly === 0) return 'No messages in the last four weeks.';
  return 'Average number of messages a week over the last four weeks.';
}

export function subscriberText(count: number | null): string | null {
  if (count === null) return null;
  return `${count} subscriber${count === 1 ? '' : 's'}`;
}

// ---- colors ----------------------------------------------------------------------------------

/** The personal color palette: the family's stream colors, the ones the server assigns. */
export const STREAM_PALETTE = STREAM_COLORS;

/** A typed hex color normalized to #rrggbb, or null when it is not one. */
export function normalizeHex(text: string): string | null {
  const t = text.trim().replace(/^#?/, '#').toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(t)) return t;
  if (/^#[0-9a-f]{3}$/.test(t)) return `#${[...t.slice(1)].map((c) => c + c).join('')}`;
  return null;
}

// ---- notifications ---------------------------------------------------------------------------

/** The per-stream notification overrides and the personal settings they fall back to. */
export const NOTIFICATION_OVERRIDES = [
  {
    property: 'desktop_notifications',
    setting: 'enable_stream_desktop_notifications',
    label: 'Desktop notifications',
  },
  { property: 'audible_notifications', setting: 'enable_stream_audible_notifications', label: 'Sounds' },
  {
    property: 'push_notifications',
    setting: 'enable_stream_push_notifications',
    label: 'Mobile notifications',
  },
  {
    property: 'email_notifications',
    setting: 'enable_stream_email_notifications',
    label: 'Email notifications',
  },
  {
    property: 'wildcard_mentions_notify',
    setting: 'wildcard_mentions_notify',
    label: 'Notify on @all mentions',
  },
] as const;

export type OverrideChoice = 'default' | 'on' | 'off';

export function overrideChoiceOf(value: unknown): OverrideChoice {
  return value === true ? 'on' : value === false ? 'off' : 'default';
}

export function overrideOptions(defaultValue: boolean): { id: OverrideChoice; label: string }[] {
  return [
    { id: 'default', label: `Default (${defaultValue ? 'on' : 'off'})` },
    { id: 'on', label: 'On' },
    { id: 'off', label: 'Off' },
  ];
}

// ---- topics ----------------------------------------------------------------------------------

export interface TopicItem {
  name: string;
  max_id: number;
}

/** Newest first (by the newest message id). */
export function sortTopics(topics: readonly TopicItem[]): TopicItem[] {
  return [...topics].sort((a, b) => b.max_id - a.max_id);
}

/** Progress of marking as read: how much of what was unread at the start is read now. */
export function readProgress(startUnread: number, nowUnread: number): number | undefined {
  if (startUnread <= 0) return undefined;
  return Math.max(0, Math.min(100, Math.round(((startUnread - nowUnread) / startUnread) * 100)));
}

// ---- subscribers: who may add and remove them (the server's rules) ------------------------------

/** What the subscriber rules read about the stream. */
export interface SubscriberStream {
  invite_only: boolean;
  is_web_public: boolean;
  /** Whether the user is subscribed. */
  subscribed: boolean;
}

/**
 * Why the user may not add other people to the stream; null: they may. The server's order:
 * the organization's invite_to_stream_policy first (guests never), then access to the stream
 * (web-public, public for members, else only its subscribers; administrators are no exception).
 */
export function addSubscribersReason(
  role: number | undefined,
  invitePolicy: number,
  stream: SubscriberStream,
): string | null {
  if (!policyAllows(role, invitePolicy)) return policyReason(invitePolicy, 'add other people to streams');
  const access = stream.is_web_public || (!stream.invite_only && role !== undefined && role < ROLE.guest);
  if (!access && !stream.subscribed) return 'Subscribe to this private stream to add other people to it.';
  return null;
}

/** A user group as the removal rule reads it. */
export interface RemoverGroup {
  name: string;
  is_system_group?: boolean;
  members: readonly number[];
}

/** Role groups in words ("role:moderators" is "moderators"). */
const ROLE_GROUP_WORDS: Record<string, string> = {
  'role:owners': 'owners',
  'role:administrators': 'administrators',
  'role:moderators': 'moderators',
  'role:fullmembers': 'full members',
  'role:members': 'members',
  'role:everyone': 'everyone',
  'role:nobody': 'nobody',
};

/**
 * Why the user may not take this person off the stream; null: they may. The server's rule:
 * themselves and the bots they own always; anyone else only as an administrator or as a
 * member of the stream's can_remove_subscribers_group (`group`, undefined when unknown).
 */
export function removeSubscriberReason(
  viewer: { role: number | undefined; userId: number | null },
  target: { user_id: number; bot_owner_id?: number | null },
  group: RemoverGroup | undefined,
): string | null {
  if (viewer.userId !== null && (target.user_id === viewer.userId || target.bot_owner_id === viewer.userId))
    return null;
  if (viewer.role !== undefined && viewer.role <= ROLE.admin) return null;
  if (group && viewer.userId !== null && group.members.includes(viewer.userId)) return null;
  const words = group ? ROLE_GROUP_WORDS[group.name] : undefined;
  const others =
    !group || words === 'owners' || words === 'administrators' || words === 'nobody'
      ? ''
      : words
        ? ` and ${words}`
        : ` and members of the group “${group.name}”`;
  return `Only administrators${others} can remove other subscribers from this stream.`;
}
