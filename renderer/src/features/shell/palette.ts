/**
 * The command palette's entries and their fuzzy ranking. An entry is something to jump to (a
 * stream, a topic, a person, a settings section or a single setting, a view) or an action;
 * typing filters them by a fuzzy match over the label (and a few extra words), best first.
 * A query that names a stream (`#design`, `design / standup`) lists that stream's topics,
 * matching the rest against the topic.
 */

export type PaletteKind = 'action' | 'view' | 'stream' | 'topic' | 'person' | 'setting' | 'search';

export interface PaletteEntry {
  id: string;
  kind: PaletteKind;
  label: string;
  /** Shown after the label, dimmed (a stream name for a topic, an email for a person). */
  detail?: string;
  /** Extra words that match too (not shown). */
  keywords?: string;
  /** Not offered when the query is empty (there would be too many). */
  searchOnly?: boolean;
  /** The stream a topic belongs to (its name): a query naming the stream finds the topic. */
  scope?: string;
}

/** The sections in display order, with their headings. */
export const PALETTE_SECTIONS: { kind: PaletteKind; title: string }[] = [
  { kind: 'action', title: 'Actions' },
  { kind: 'view', title: 'Views' },
  { kind: 'stream', title: 'Streams' },
  { kind: 'topic', title: 'Topics' },
  { kind: 'person', title: 'People' },
  { kind: 'setting', title: 'Settings' },
  { kind: 'search', title: 'Search' },
];

/**
 * How well `query` matches `text` (higher is better), or null when its characters do not all
 * appear in order. Word starts and runs of consecutive characters score more; a match at the
 * very start most.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const t = text.toLowerCase();
  const contiguous = t.indexOf(q);
  if (contiguous !== -1) {
    const wordStart = contiguous === 0 || /[\s#/·@_.-]/.test(t[contiguous - 1] ?? '');
    return 1000 + (contiguous === 0 ? 500 : 0) + (wordStart ? 200 : 0) - contiguous - t.length / 100;
  }
  let score = 0;
  let ti = 0;
  let run = 0;
  for (const ch of q) {
    if (ch === ' ') continue;
    const found = t.indexOf(ch, ti);
    if (found === -1) return null;
    const wordStart = found === 0 || /[\s#/·@_.-]/.test(t[found - 1] ?? '');
    run = found === ti && ti > 0 ? run + 1 : 0;
    score += 10 + (wordStart ? 15 : 0) + run * 5 - Math.min(found - ti, 10);
    ti = found + 1;
  }
  return score - t.length / 100;
}

const SECTION_ORDER: Record<PaletteKind, number> = {
  action: 0,
  view: 1,
  stream: 2,
  topic: 3,
  person: 4,
  setting: 5,
  search: 6,
};

/**
 * The entries matching `query`, best first (ties in section order, then as given); with an
 * empty query every entry that is not searchOnly, in section order. At most `limit`.
 */
export function filterPalette<T extends PaletteEntry>(entries: readonly T[], query: string, limit = 50): T[] {
  if (query.trim() === '') {
    return entries
      .filter((e) => !e.searchOnly)
      .map((e, i) => ({ e, i }))
      .sort((a, b) => SECTION_ORDER[a.e.kind] - SECTION_ORDER[b.e.kind] || a.i - b.i)
      .slice(0, limit)
      .map(({ e }) => e);
  }
  const scopes = [...new Set(entries.flatMap((e) => (e.scope === undefined ? [] : [e.scope])))];
  const named = streamQuery(query, scopes);
  const scored: { e: T; score: number; i: number }[] = [];
  entries.forEach((e, i) => {
    const onLabel = fuzzyScore(query, e.label);
    const onDetail = e.detail ? fuzzyScore(query, e.detail) : null;
    const onKeywords = e.keywords ? fuzzyScore(query, e.keywords) : null;
    const best = Math.max(
      onLabel ?? -Infinity,
      (onDetail ?? -Infinity) - 100,
      (onKeywords ?? -Infinity) - 50,
      scopedScore(e, named),
    );
    if (best !== -Infinity) scored.push({ e, score: best, i });
  });
  scored.sort((a, b) => b.score - a.score || SECTION_ORDER[a.e.kind] - SECTION_ORDER[b.e.kind] || a.i - b.i);
  return scored.slice(0, limit).map(({ e }) => e);
}

/**
 * The entry that searches the messages for the query, offered after the matches (so Enter
 * searches when nothing else matches); none for an empty query.
 */
export function searchEntry(query: string): PaletteEntry | null {
  const q = query.trim();
  if (q === '') return null;
  return { id: 'search:messages', kind: 'search', label: `Search for “${q}”`, detail: 'in messages' };
}

/** The streams a query names, and what it asks of their topics (the rest of the query). */
export interface StreamQuery {
  /** Names of the streams meant (as given), best first. */
  streams: string[];
  /** The rest of the query, for the topic ('' for every topic). */
  topic: string;
}

const SEPARATOR = /^[\s/>:]+/;

/**
 * Which of `streamNames` the query names: a whole name at its start (with or without `#`,
 * followed by the end or a separator: space, `/`, `>`, `:`), the longest first; or, after `#`,
 * the start of names (`#des`, `#des/stand`, `#des stand`). Null when it names none.
 */
export function streamQuery(query: string, streamNames: readonly string[], max = 5): StreamQuery | null {
  const q = query.trim();
  const hashed = q.startsWith('#');
  const body = hashed ? q.slice(1) : q;
  const lower = body.toLowerCase();
  if (lower === '') return null;
  const byLength = [...streamNames].sort((a, b) => b.length - a.length);
  for (const name of byLength) {
    const n = name.toLowerCase();
    if (n === '' || !lower.startsWith(n)) continue;
    const after = body.slice(n.length);
    if (after === '' || SEPARATOR.test(after))
      return { streams: [name], topic: after.replace(SEPARATOR, '') };
  }
  if (!hashed) return null;
  const starts = (prefix: string) =>
    streamNames.filter((name) => name.toLowerCase().startsWith(prefix.toLowerCase())).slice(0, max);
  const explicit = /[/>:]/.exec(body);
  const candidates: [string, string][] = explicit
    ? [[body.slice(0, explicit.index).trim(), body.slice(explicit.index).replace(SEPARATOR, '')]]
    : [[body, '']];
  const space = body.indexOf(' ');
  if (!explicit && space > 0) candidates.push([body.slice(0, space), body.slice(space).trim()]);
  for (const [prefix, topic] of candidates) {
    if (prefix === '') continue;
    const streams = starts(prefix);
    if (streams.length > 0) return { streams, topic };
  }
  return null;
}

/** A topic's score for a query naming its stream: every topic of it, or those matching the rest. */
function scopedScore(entry: PaletteEntry, named: StreamQuery | null): number {
  if (!named || entry.scope === undefined || !named.streams.includes(entry.scope)) return -Infinity;
  if (named.topic === '') return 900;
  const onTopic = fuzzyScore(named.topic, entry.label);
  return onTopic === null ? -Infinity : 2000 + onTopic;
}

/** A topic the app knows of, from any source (unread messages, the user's topic settings, a stream's topic list). */
export interface KnownTopic {
  streamId: number;
  streamName: string;
  topic: string;
  /** Unread messages in it (0 when none or unknown). */
  unread: number;
  mentioned: boolean;
  /** The newest message id known, for the order (0: unknown). */
  maxId: number;
}

/**
 * The topics of every source as one list, each once (topic names match without regard to
 * case; the unread count and mention of whichever source has them), unread ones first, then
 * newest first.
 */
export function mergeTopics(sources: readonly (readonly KnownTopic[])[]): KnownTopic[] {
  const merged = new Map<string, KnownTopic>();
  for (const list of sources) {
    for (const t of list) {
      const key = `${t.streamId}\u0000${t.topic.toLowerCase()}`;
      const known = merged.get(key);
      merged.set(
        key,
        known
          ? {
              ...known,
              unread: Math.max(known.unread, t.unread),
              mentioned: known.mentioned || t.mentioned,
              maxId: Math.max(known.maxId, t.maxId),
            }
          : t,
      );
    }
  }
  return [...merged.values()].sort(
    (a, b) => Number(b.unread > 0) - Number(a.unread > 0) || b.maxId - a.maxId,
  );
}
