/**
 * The people list's and the profile card's pure logic: who matches a search, in which order
 * and group people show, role names, a person's local time, when they were last active, and
 * what a custom profile field's value shows as.
 */

export type Presence = 'active' | 'idle' | 'offline';

export interface PersonEntry {
  userId: number;
  name: string;
  email: string;
  presence: Presence;
}

/** Lowercase without accents: "José" is found by "jose". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Whether a person matches the search: every word of the query starts a word of the name, or
 * the query is part of the email address. An empty query matches everyone.
 */
export function matchesQuery(person: Pick<PersonEntry, 'name' | 'email'>, query: string): boolean {
  const q = fold(query.trim());
  if (!q) return true;
  if (fold(person.email).includes(q)) return true;
  const words = fold(person.name)
    .split(/[\s\-_.]+/u)
    .filter(Boolean);
  return q
    .split(/\s+/u)
    .every((part) => words.some((word) => word.startsWith(part)) || fold(person.name).startsWith(part));
}

const PRESENCE_ORDER: Record<Presence, number> = { active: 0, idle: 1, offline: 2 };

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Active first, then idle, then offline; by name within each (user id breaks ties). */
export function sortPeople<T extends PersonEntry>(people: readonly T[]): T[] {
  return [...people].sort(
    (a, b) =>
      PRESENCE_ORDER[a.presence] - PRESENCE_ORDER[b.presence] ||
      collator.compare(a.name, b.name) ||
      a.userId - b.userId,
  );
}

export interface PeopleGroup<T> {
  key: Presence;
  title: string;
  people: T[];
}

const GROUP_TITLES: Record<Presence, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

/** The sorted people in their presence groups, empty groups left out. */
export function groupPeople<T extends PersonEntry>(people: readonly T[]): PeopleGroup<T>[] {
  const sorted = sortPeople(people);
  return (['active', 'idle', 'offline'] as const)
    .map((key) => ({ key, title: GROUP_TITLES[key], people: sorted.filter((p) => p.presence === key) }))
    .filter((g) => g.people.length > 0);
}

/** The count the list's heading shows: "7", or "2 of 7" while searching. */
export function countText(shown: number, total: number, searching: boolean): string {
  return searching ? `${shown} of ${total}` : String(total);
}

// ---- roles --------------------------------------------------------------------------------------

const ROLE_NAMES: Record<number, string> = {
  100: 'Owner',
  200: 'Administrator',
  300: 'Moderator',
  400: 'Member',
  600: 'Guest',
};

export function roleName(role: number | undefined, isBot = false): string {
  if (isBot) return 'Bot';
  return (role !== undefined && ROLE_NAMES[role]) || 'Member';
}

// ---- time ---------------------------------------------------------------------------------------

/** A valid IANA time zone, or null (empty or unknown to this computer). */
export function validTimeZone(timezone: string | undefined): string | null {
  if (!timezone) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return null;
  }
}

/** "14:05" or "2:05 PM" in the person's time zone; null when they have none. */
export function localTime(now: Date, timezone: string | undefined, twentyFourHour: boolean): string | null {
  const zone = validTimeZone(timezone);
  if (!zone) return null;
  return new Intl.DateTimeFormat(twentyFourHour ? 'en-GB' : 'en-US', {
    timeZone: zone,
    hour: twentyFourHour ? '2-digit' : 'numeric',
    minute: '2-digit',
    hourCycle: twentyFourHour ? 'h23' : 'h12',
  }).format(now);
}

/** The difference with our own time, "3 hours ahead", "30 minutes behind", "same time". */
export function timeDifference(now: Date, timezone: string | undefined, ownZone?: string): string | null {
  const zone = validTimeZone(timezone);
  if (!zone) return null;
  const offset = (z: string | undefined): number => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: z,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(now);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'));
    return Math.round((asUtc - Math.floor(now.getTime() / 60_000) * 60_000) / 60_000);
  };
  const minutes = offset(zone) - offset(ownZone);
  if (minutes === 0) return 'same time as you';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  const amount = [h ? `${h} ${h === 1 ? 'hour' : 'hours'}` : '', m ? `${m} minutes` : '']
    .filter(Boolean)
    .join(' ');
  return `${amount} ${minutes > 0 ? 'ahead' : 'behind'}`;
}

/** "Active now", "Idle", "Last active 5 minutes ago", "Not active recently". */
export function lastActiveText(presence: Presence, lastSeconds: number | undefined, nowMs: number): string {
  if (presence === 'active') return 'Active now';
  if (presence === 'idle') return 'Idle';
  if (lastSeconds === undefined) return 'Not active recently';
  const ago = Math.max(0, Math.floor(nowMs / 1000 - lastSeconds));
  if (ago < 60) return 'Last active less than a minute ago';
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} ago`;
  if (ago < 3600) return `Last active ${unit(Math.floor(ago / 60), 'minute')}`;
  if (ago < 86400) return `Last active ${unit(Math.floor(ago / 3600), 'hour')}`;
  if (ago < 86400 * 90) return `Last active ${unit(Math.floor(ago / 86400), 'day')}`;
  return 'Not active recently';
}

// ---- custom profile fields -------------------------------------------------------------------

export const FIELD_TYPES = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  CHOICE: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

export type FieldDisplay =
  | { kind: 'text'; text: string }
  | { kind: 'html'; html: string }
  | { kind: 'link'; href: string; text: string }
  | { kind: 'users'; userIds: number[] };

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Only web links: a value is never a javascript: or file: URL on screen. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const EXTERNAL_PATTERNS: Record<string, string> = {
  github: 'https://github.com/%(username)s',
  twitter: 'https://twitter.com/%(username)s',
};

/**
 * What a field's value shows as: the rendered Markdown where the type has it, a link for URL
 * and external account fields, people for the person picker, the choice's text for a choice,
 * a date in words for a date. Null when there is nothing to show.
 */
export function fieldDisplay(
  field: { type: number; field_data: string },
  value: { value: string; rendered_value?: string | undefined } | undefined,
): FieldDisplay | null {
  const raw = value?.value ?? '';
  if (!raw.trim()) return null;
  switch (field.type) {
    case FIELD_TYPES.SHORT_TEXT:
    case FIELD_TYPES.LONG_TEXT:
      return value?.rendered_value
        ? { kind: 'html', html: value.rendered_value }
        : { kind: 'text', text: raw };
    case FIELD_TYPES.CHOICE: {
      const choices = parseJson(field.field_data) as Record<string, { text?: string }> | undefined;
      const text = choices?.[raw]?.text;
      return { kind: 'text', text: text ?? raw };
    }
    case FIELD_TYPES.DATE: {
      const date = /^\d{4}-\d{2}-\d{2}$/u.test(raw) ? new Date(`${raw}T00:00:00Z`) : null;
      return {
        kind: 'text',
        text:
          date && !Number.isNaN(date.getTime())
            ? new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(date)
            : raw,
      };
    }
    case FIELD_TYPES.URL: {
      const href = safeHref(raw);
      return href ? { kind: 'link', href, text: raw } : { kind: 'text', text: raw };
    }
    case FIELD_TYPES.USER: {
      const ids = parseJson(raw);
      const userIds = Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
      return userIds.length > 0 ? { kind: 'users', userIds } : null;
    }
    case FIELD_TYPES.EXTERNAL_ACCOUNT: {
      const data = parseJson(field.field_data) as { subtype?: string; url_pattern?: string } | undefined;
      const pattern =
        data?.subtype === 'custom'
          ? data.url_pattern
          : data?.subtype
            ? EXTERNAL_PATTERNS[data.subtype]
            : undefined;
      const href = pattern ? safeHref(pattern.replace('%(username)s', encodeURIComponent(raw))) : null;
      return href ? { kind: 'link', href, text: raw } : { kind: 'text', text: raw };
    }
    default:
      return { kind: 'text', text: raw };
  }
}
