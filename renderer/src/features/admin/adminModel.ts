/**
 * The administration sections' pure logic: roles and their labels, the custom profile field
 * editor's rules (choices, the profile-summary limit, presets), and the checks a form runs
 * before it asks the server (emoji names, playground URLs, people search).
 */
import type { CustomProfileField, User } from '../../../../shared/protocol';

/** The reason every administration section gives a member who is not an administrator. */
export const ADMIN_ONLY = 'Only organization administrators can manage this.';

// ---- roles -------------------------------------------------------------------------------------

export const ROLE_LABELS: Readonly<Record<number, string>> = {
  100: 'Owner',
  200: 'Administrator',
  300: 'Moderator',
  400: 'Member',
  600: 'Guest',
};

export const ROLE_OPTIONS = [100, 200, 300, 400, 600].map((id) => ({ id, label: ROLE_LABELS[id] ?? '' }));

export const roleLabel = (role: number): string => ROLE_LABELS[role] ?? 'Member';

/** Why the viewer cannot change this person's role (null when they can). */
export function roleChangeReason(
  viewerRole: number | undefined,
  target: User,
  viewerId: number | null,
): string | null {
  if (viewerRole === undefined || viewerRole > 200) return ADMIN_ONLY;
  if (target.is_bot) return 'Bots have no role to change here.';
  if (!target.is_active) return 'Reactivate this user to change their role.';
  if (target.role === 100 && viewerRole !== 100) return 'Only owners can change an owner’s role.';
  if (target.user_id === viewerId && viewerRole === 100) return null;
  return null;
}

/** Roles the viewer may give: only owners make owners. */
export const assignableRoles = (viewerRole: number | undefined) =>
  ROLE_OPTIONS.filter((o) => o.id !== 100 || viewerRole === 100);

// ---- people search ----------------------------------------------------------------------------

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Whether a person matches a search by name or email (accents and case ignored). */
export function matchesPerson(
  user: Pick<User, 'full_name' | 'email'> & { delivery_email?: string | null },
  query: string,
): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  return [user.full_name, user.email, user.delivery_email ?? ''].some((t) => fold(t).includes(q));
}

// ---- custom profile fields --------------------------------------------------------------------

export const FIELD_TYPES = [
  { id: 1, label: 'Short text' },
  { id: 2, label: 'Long text' },
  { id: 3, label: 'List of options' },
  { id: 4, label: 'Date' },
  { id: 5, label: 'Link' },
  { id: 6, label: 'Person' },
  { id: 7, label: 'External account' },
  { id: 8, label: 'Pronouns' },
] as const;

export const fieldTypeLabel = (type: number): string =>
  FIELD_TYPES.find((t) => t.id === type)?.label ?? 'Field';

export const CHOICE_TYPE = 3;
export const EXTERNAL_ACCOUNT_TYPE = 7;
export const PRONOUNS_TYPE = 8;
export const MAX_NAME = 40;
export const MAX_HINT = 80;
export const MAX_SUMMARY_FIELDS = 2;
/** Types the profile summary cannot show (long text, person). */
const NO_SUMMARY_TYPES: ReadonlySet<number> = new Set([2, 6]);

/**
 * Why the "Display in profile summary" switch is off limits for a field of `type` (null when
 * it may be turned on): the types it excludes, then the limit (the edited field not counted).
 */
export function summaryDisabledReason(
  type: number,
  fields: readonly Pick<CustomProfileField, 'id' | 'display_in_profile_summary'>[],
  editingId: number | null,
  currentlyOn: boolean,
): string | null {
  if (NO_SUMMARY_TYPES.has(type))
    return `${fieldTypeLabel(type)} fields cannot be shown in the profile summary.`;
  if (currentlyOn) return null;
  const others = fields.filter((f) => f.id !== editingId && f.display_in_profile_summary).length;
  if (others >= MAX_SUMMARY_FIELDS)
    return `At most ${MAX_SUMMARY_FIELDS} fields can be shown in the profile summary; turn one off first.`;
  return null;
}

/** One row of the choice editor: `key` is the server's key ('' for a new choice). */
export interface ChoiceRow {
  key: string;
  text: string;
  /** A stable id for React and drag-and-drop. */
  rowId: string;
}

let rowCounter = 0;
export const newRowId = () => `row-${++rowCounter}`;

/** The rows of field_data, in order, with an empty row at the end to type a new one. */
export function choicesFromFieldData(fieldData: string): ChoiceRow[] {
  let data: Record<string, { text?: string; order?: string }> = {};
  try {
    const parsed = JSON.parse(fieldData || '{}') as unknown;
    if (parsed && typeof parsed === 'object') data = parsed as typeof data;
  } catch {
    data = {};
  }
  const rows = Object.entries(data)
    .sort(([, a], [, b]) => Number(a.order ?? 0) - Number(b.order ?? 0))
    .map(([key, c]) => ({ key, text: c.text ?? '', rowId: newRowId() }));
  return withTrailingEmpty(rows);
}

const isBlankNew = (row: ChoiceRow | undefined) => row !== undefined && row.key === '' && row.text === '';

/** Keeps exactly one empty row at the end (a new one appears as the last one is typed in). */
export function withTrailingEmpty(rows: ChoiceRow[]): ChoiceRow[] {
  const out = [...rows];
  while (out.length >= 2 && isBlankNew(out[out.length - 1]) && isBlankNew(out[out.length - 2])) out.pop();
  if (!isBlankNew(out[out.length - 1])) out.push({ key: '', text: '', rowId: newRowId() });
  return out;
}

/** Sorted by text, the empty row kept last. */
export function alphabetize(rows: ChoiceRow[]): ChoiceRow[] {
  const filled = rows.filter((r) => r.text.trim() !== '');
  filled.sort((a, b) => a.text.localeCompare(b.text, undefined, { sensitivity: 'base' }));
  return withTrailingEmpty(filled);
}

const isKeyNumber = (k: number) => Number.isInteger(k) && k >= 0;

/** field_data for the server: the non-blank rows in order, new ones under fresh keys. */
export function choicesToFieldData(rows: ChoiceRow[]): Record<string, { text: string; order: string }> {
  const filled = rows.filter((r) => r.text.trim() !== '');
  // New choices get the largest numeric key + 1: keys stay stable and are never reused by order.
  const numeric = filled
    .filter((r) => r.key !== '')
    .map((r) => Number(r.key))
    .filter(isKeyNumber);
  let next = numeric.length > 0 ? Math.max(...numeric) + 1 : 0;
  const data: Record<string, { text: string; order: string }> = {};
  filled.forEach((row, index) => {
    let key = row.key;
    if (key === '') {
      key = String(next);
      next++;
    }
    data[key] = { text: row.text.trim(), order: String(index + 1) };
  });
  return data;
}

/** A problem with the choices to show before saving (null when fine). */
export function choicesProblem(rows: ChoiceRow[]): string | null {
  const texts = rows.map((r) => r.text.trim()).filter((t) => t !== '');
  if (texts.length === 0) return 'Add at least one choice.';
  if (new Set(texts).size !== texts.length) return 'Two choices have the same text.';
  return null;
}

/** How many users have `value` as their value of field `fieldId` (any value when undefined). */
export function countUsersWithValue(
  users: readonly Pick<User, 'profile_data'>[],
  fieldId: number,
  value?: string,
): number {
  return users.filter((u) => {
    const v = u.profile_data?.[String(fieldId)]?.value;
    return v !== undefined && v !== '' && (value === undefined || v === value);
  }).length;
}

export const people = (n: number) => (n === 1 ? '1 person' : `${n} people`);

/** Presets: fill name, hint and type (and data for external accounts), in the family's words. */
export interface FieldPreset {
  id: string;
  label: string;
  type: number;
  name: string;
  hint: string;
  fieldData?: Record<string, string>;
}

export const FIELD_PRESETS: readonly FieldPreset[] = [
  {
    id: 'pronouns',
    label: 'Pronouns',
    type: PRONOUNS_TYPE,
    name: 'Pronouns',
    hint: 'What pronouns should people use to refer to you?',
  },
  {
    id: 'github',
    label: 'GitHub account',
    type: EXTERNAL_ACCOUNT_TYPE,
    name: 'GitHub',
    hint: 'Enter your GitHub username',
    fieldData: { subtype: 'github' },
  },
  {
    id: 'twitter',
    label: 'Twitter account',
    type: EXTERNAL_ACCOUNT_TYPE,
    name: 'Twitter',
    hint: 'Enter your Twitter username',
    fieldData: { subtype: 'twitter' },
  },
];

/** Moves the items with `keys` before or after `target` (GridList drop), keeping their order. */
export function moveKeys<T>(
  items: readonly T[],
  keyOf: (item: T) => string | number,
  keys: ReadonlySet<string | number>,
  target: string | number,
  position: 'before' | 'after',
): T[] {
  const moving = items.filter((i) => keys.has(keyOf(i)));
  const rest = items.filter((i) => !keys.has(keyOf(i)));
  let at = rest.findIndex((i) => keyOf(i) === target);
  if (at < 0) return [...items];
  if (position === 'after') at++;
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}

/** Moves one item by `delta` places (keyboard reorder), clamped to the list. */
export function moveBy<T>(items: readonly T[], index: number, delta: number): T[] {
  const to = Math.max(0, Math.min(items.length - 1, index + delta));
  if (to === index) return [...items];
  const out = [...items];
  const [item] = out.splice(index, 1);
  if (item !== undefined) out.splice(to, 0, item);
  return out;
}

// ---- playgrounds -------------------------------------------------------------------------------

/** Why a playground URL prefix is not accepted (null when fine). */
export function playgroundUrlProblem(url: string): string | null {
  const text = url.trim();
  if (!text) return 'Enter the URL the code is appended to.';
  if (/\s/.test(text)) return 'The URL cannot contain spaces.';
  try {
    const parsed = new URL(text);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      return 'The URL must start with http:// or https://.';
    if (!parsed.hostname) return 'The URL needs a host name.';
  } catch {
    return 'Enter a full URL starting with https://.';
  }
  return null;
}

/** Common Pygments languages (name, aliases) for the playground's language suggestions. */
export const PYGMENTS_LANGUAGES: readonly { name: string; aliases: string }[] = [
  { name: 'Bash', aliases: 'bash, sh, shell' },
  { name: 'C', aliases: 'c' },
  { name: 'C#', aliases: 'csharp, c#, cs' },
  { name: 'C++', aliases: 'cpp, c++' },
  { name: 'Clojure', aliases: 'clojure, clj' },
  { name: 'CSS', aliases: 'css' },
  { name: 'Dart', aliases: 'dart' },
  { name: 'Elixir', aliases: 'elixir, ex, exs' },
  { name: 'Erlang', aliases: 'erlang' },
  { name: 'Go', aliases: 'go, golang' },
  { name: 'Haskell', aliases: 'haskell, hs' },
  { name: 'HTML', aliases: 'html' },
  { name: 'Java', aliases: 'java' },
  { name: 'JavaScript', aliases: 'javascript, js' },
  { name: 'JSON', aliases: 'json' },
  { name: 'Julia', aliases: 'julia, jl' },
  { name: 'Kotlin', aliases: 'kotlin' },
  { name: 'Lua', aliases: 'lua' },
  { name: 'OCaml', aliases: 'ocaml' },
  { name: 'Perl', aliases: 'perl, pl' },
  { name: 'PHP', aliases: 'php' },
  { name: 'Python', aliases: 'python, py, python3' },
  { name: 'R', aliases: 'r, splus, s' },
  { name: 'Ruby', aliases: 'ruby, rb' },
  { name: 'Rust', aliases: 'rust, rs' },
  { name: 'Scala', aliases: 'scala' },
  { name: 'SQL', aliases: 'sql' },
  { name: 'Swift', aliases: 'swift' },
  { name: 'TypeScript', aliases: 'typescript, ts' },
  { name: 'YAML', aliases: 'yaml' },
];

/** Languages matching what is typed (name or alias). */
export function suggestLanguages(query: string) {
  const q = query.trim().toLowerCase();
  if (!q) return [...PYGMENTS_LANGUAGES];
  return PYGMENTS_LANGUAGES.filter(
    (l) => l.name.toLowerCase().includes(q) || l.aliases.split(', ').some((a) => a.startsWith(q)),
  );
}

// ---- custom emoji ------------------------------------------------------------------------------

/** Why an emoji name is not accepted (null when fine). */
export function emojiNameProblem(name: string): string | null {
  if (!name) return 'Enter a name.';
  if (name.length > 60) return 'The name is too long (at most 60 characters).';
  if (!/^[a-z0-9_\- ]+$/.test(name))
    return 'Use lowercase letters, digits, underscores, dashes and spaces only.';
  if (/[\s_-]$/.test(name)) return 'The name cannot end with a space, dash or underscore.';
  return null;
}

/** The name as the server takes it: spaces become underscores. */
export const emojiNameForServer = (name: string): string => name.replace(/ /g, '_');

/** A name suggested from a file name: "Party Parrot.gif" → "party_parrot". */
export function emojiNameFromFile(fileName: string): string {
  return fileName
    .replace(/\.[^.]+$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_\- ]+/g, '_')
    .replace(/\s+/g, '_')
    .replace(/^[_\s-]+|[_\s-]+$/g, '');
}

/**
 * Why the user may not add custom emoji under the organization's add_custom_emoji_policy
 * (1 members, 2 administrators, 3 full members, 4 moderators, 6 nobody, 7 owners); null when
 * they may, or when the policy is unknown (the server then decides and says why).
 */
export function emojiAddReason(policy: number | undefined, role: number | undefined): string | null {
  if (policy === undefined || role === undefined) return null;
  const no = 'You do not have permission to add custom emoji.';
  if (role === 600) return `${no} Guests cannot add them.`;
  switch (policy) {
    case 1:
    case 3:
      return null;
    case 2:
      return role <= 200 ? null : `${no} Only administrators can add them here.`;
    case 4:
      return role <= 300 ? null : `${no} Only moderators and administrators can add them here.`;
    case 7:
      return role === 100 ? null : `${no} Only owners can add them here.`;
    case 6:
      return `${no} No one can add them in this organization.`;
    default:
      return null;
  }
}

// ---- user groups -------------------------------------------------------------------------------

/** Who user_group_edit_policy lets create and edit groups (guests never). */
const GROUP_POLICY_WHO: Readonly<Record<number, string>> = {
  2: 'administrators',
  4: 'moderators and administrators',
};

/**
 * Why the user may not create user groups under the organization's user_group_edit_policy
 * (1 members, 2 administrators, 3 full members, 4 moderators; the server's default is 1); null
 * when they may, or when their role is not known yet (the server then decides and says why).
 */
export function groupCreateReason(policy: number | undefined, role: number | undefined): string | null {
  if (role === undefined) return null;
  if (role >= 600) return 'Guests cannot create or edit user groups.';
  switch (policy ?? 1) {
    case 1:
    case 3:
      return null;
    case 2:
      return role <= 200 ? null : `Only ${GROUP_POLICY_WHO[2]} can create and edit user groups here.`;
    case 4:
      return role <= 300 ? null : `Only ${GROUP_POLICY_WHO[4]} can create and edit user groups here.`;
    default:
      return 'No one can create or edit user groups in this organization.';
  }
}

/** The reason a member gets for a group they are not in (the server's rule). */
export const GROUP_MEMBERS_ONLY = 'Only a group’s own members, moderators and administrators can edit it.';

/**
 * Why the user may not edit this group (its name and description, its members, deactivating
 * it); null when they may. The policy above first, then the server's rule: role groups never
 * (they follow people's roles), other groups by moderators and administrators or by their own
 * direct members.
 */
export function groupEditReason(
  policy: number | undefined,
  role: number | undefined,
  userId: number | null,
  group: { name: string; members: readonly number[]; is_system_group?: boolean },
): string | null {
  if (group.is_system_group === true || group.name.startsWith('role:'))
    return 'Role groups follow people’s roles; they cannot be edited.';
  const policyReason = groupCreateReason(policy, role);
  if (policyReason) return policyReason;
  if (role !== undefined && role <= 300) return null;
  if (userId !== null && group.members.includes(userId)) return null;
  return GROUP_MEMBERS_ONLY;
}
