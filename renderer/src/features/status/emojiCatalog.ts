/**
 * The emoji a status can carry: the Unicode emoji of emojibase-data (loaded lazily, so the
 * data is its own chunk), named the way the server names them (GitHub shortcodes first, then
 * CLDR, the first emoji to claim a name keeping it: server/emoji.ts), and the organization's
 * custom emoji. Search, and the "frequently used" list kept on this computer.
 */

export interface EmojiChoice {
  /** The name the server knows it by (emoji_name). */
  name: string;
  /** emoji_code: dash-separated lowercase hex without U+FE0F, or the custom emoji's id. */
  code: string;
  type: 'unicode_emoji' | 'realm_emoji';
  /** The glyph (Unicode emoji only). */
  glyph?: string;
  /** Words to find it by: the label, the tags, every shortcode. */
  keywords: string[];
}

interface CompactEntry {
  hexcode: string;
  label: string;
  unicode: string;
  group?: number;
  tags?: string[];
}

type Shortcodes = Record<string, string | string[] | undefined>;

export function emojiCodeOfHexcode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

const listOf = (names: string | string[] | undefined): string[] =>
  typeof names === 'string' ? [names] : (names ?? []);

/**
 * The catalogue from emojibase's compact data and shortcode sets, in emojibase's order. An
 * emoji whose every name another emoji claimed first is left out (the server could not name
 * it); so are the components (skin tones, regional indicators: no group).
 */
export function buildUnicodeCatalog(
  entries: readonly CompactEntry[],
  sources: readonly Shortcodes[],
): EmojiChoice[] {
  const owner = new Map<string, string>();
  for (const entry of entries) {
    const code = emojiCodeOfHexcode(entry.hexcode);
    for (const source of sources) {
      for (const name of listOf(source[entry.hexcode])) if (!owner.has(name)) owner.set(name, code);
    }
  }
  const out: EmojiChoice[] = [];
  for (const entry of entries) {
    if (entry.group === undefined || entry.group === 2) continue; // components
    const code = emojiCodeOfHexcode(entry.hexcode);
    const names = sources.flatMap((source) => listOf(source[entry.hexcode]));
    const name = names.find((n) => owner.get(n) === code);
    if (!name) continue;
    out.push({
      name,
      code,
      type: 'unicode_emoji',
      glyph: entry.unicode,
      keywords: [...new Set([...names, entry.label, ...(entry.tags ?? [])].map((k) => k.toLowerCase()))],
    });
  }
  return out;
}

/** The organization's custom emoji as choices. */
export function customEmojiChoices(emoji: readonly { id: string; name: string }[]): EmojiChoice[] {
  return emoji.map((e) => ({
    name: e.name,
    code: e.id,
    type: 'realm_emoji',
    keywords: [e.name.toLowerCase()],
  }));
}

/**
 * Emoji matching a query, best first: a name that is the query, then names starting with it,
 * (shorter first), then a word of a keyword starting with it, then keywords containing it.
 * Empty query: all.
 */
export function searchEmoji(choices: readonly EmojiChoice[], query: string): EmojiChoice[] {
  const q = query.trim().toLowerCase().replaceAll(':', '').replaceAll(' ', '_');
  if (!q) return [...choices];
  const spaced = q.replaceAll('_', ' ');
  const rank = (c: EmojiChoice): number => {
    if (c.name === q) return 0;
    if (c.name.startsWith(q)) return 1;
    if (c.keywords.some((k) => k.split(/[\s_-]+/u).some((w) => w.startsWith(spaced)) || k.startsWith(spaced)))
      return 2;
    if (c.keywords.some((k) => k.includes(spaced) || k.includes(q))) return 3;
    return 4;
  };
  return choices
    .map((choice, index) => ({ choice, index, rank: rank(choice) }))
    .filter((r) => r.rank < 4)
    .sort(
      (a, b) =>
        a.rank - b.rank ||
        (a.rank <= 1 ? a.choice.name.length - b.choice.name.length : 0) ||
        a.index - b.index,
    )
    .map((r) => r.choice);
}

// ---- frequently used --------------------------------------------------------------------------

/** Counts of the emoji this person picked, keyed `type:code`. */
export type EmojiUsage = Record<string, number>;

export const usageKey = (choice: Pick<EmojiChoice, 'type' | 'code'>): string =>
  `${choice.type}:${choice.code}`;

export function recordUse(usage: EmojiUsage, choice: Pick<EmojiChoice, 'type' | 'code'>): EmojiUsage {
  const key = usageKey(choice);
  return { ...usage, [key]: (usage[key] ?? 0) + 1 };
}

/** The most used first (ties: catalogue order), at most `limit`; defaults fill an empty list. */
export function frequentlyUsed(
  choices: readonly EmojiChoice[],
  usage: EmojiUsage,
  limit = 16,
  defaults: readonly string[] = DEFAULT_FREQUENT,
): EmojiChoice[] {
  const byKey = new Map(choices.map((c) => [usageKey(c), c]));
  const used = Object.entries(usage)
    .filter(([key, count]) => count > 0 && byKey.has(key))
    .sort((a, b) => b[1] - a[1])
    .map(([key]) => byKey.get(key) as EmojiChoice);
  const seen = new Set(used.map(usageKey));
  const byName = new Map(choices.map((c) => [c.name, c]));
  for (const name of defaults) {
    const choice = byName.get(name);
    if (choice && !seen.has(usageKey(choice))) {
      used.push(choice);
      seen.add(usageKey(choice));
    }
  }
  return used.slice(0, limit);
}

/** What the web app offers before anything was picked: the usual status emoji. */
export const DEFAULT_FREQUENT = [
  'spiral_calendar',
  'palm_tree',
  'house',
  'bus',
  'face_with_thermometer',
  'coffee',
  'headphones',
  '+1',
  'tada',
  'smile',
  'heart',
  'eyes',
];

const USAGE_STORAGE_KEY = 'confab.emojiUsage';

export function loadUsage(): EmojiUsage {
  try {
    const raw = JSON.parse(localStorage.getItem(USAGE_STORAGE_KEY) ?? '{}') as unknown;
    if (typeof raw !== 'object' || raw === null) return {};
    return Object.fromEntries(
      Object.entries(raw).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  } catch {
    return {};
  }
}

export function saveUsage(usage: EmojiUsage): void {
  try {
    localStorage.setItem(USAGE_STORAGE_KEY, JSON.stringify(usage));
  } catch {
    // Storage full or unavailable: the list simply does not learn.
  }
}

/** Loads the Unicode catalogue once (its data is a chunk of its own). */
let loading: Promise<EmojiChoice[]> | null = null;
export function loadUnicodeCatalog(): Promise<EmojiChoice[]> {
  loading ??= Promise.all([
    import('emojibase-data/en/compact.json'),
    import('emojibase-data/en/shortcodes/github.json'),
    import('emojibase-data/en/shortcodes/cldr.json'),
  ])
    .then(([compact, github, cldr]) =>
      buildUnicodeCatalog(compact.default as CompactEntry[], [
        github.default as Shortcodes,
        cldr.default as Shortcodes,
      ]),
    )
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
