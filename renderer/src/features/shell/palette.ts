/**
 * The command palette's entries and their fuzzy ranking. An entry is something to jump to (a
 * stream, a topic, a person, a settings section, a view) or an action; typing filters them by
 * a fuzzy match over the label (and a few extra words), best first.
 */

export type PaletteKind = 'action' | 'view' | 'stream' | 'topic' | 'person' | 'setting';

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
}

/** The sections in display order, with their headings. */
export const PALETTE_SECTIONS: { kind: PaletteKind; title: string }[] = [
  { kind: 'action', title: 'Actions' },
  { kind: 'view', title: 'Views' },
  { kind: 'stream', title: 'Streams' },
  { kind: 'topic', title: 'Unread topics' },
  { kind: 'person', title: 'People' },
  { kind: 'setting', title: 'Settings' },
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
  const scored: { e: T; score: number; i: number }[] = [];
  entries.forEach((e, i) => {
    const onLabel = fuzzyScore(query, e.label);
    const onDetail = e.detail ? fuzzyScore(query, e.detail) : null;
    const onKeywords = e.keywords ? fuzzyScore(query, e.keywords) : null;
    const best = Math.max(
      onLabel ?? -Infinity,
      (onDetail ?? -Infinity) - 100,
      (onKeywords ?? -Infinity) - 50,
    );
    if (best !== -Infinity) scored.push({ e, score: best, i });
  });
  scored.sort((a, b) => b.score - a.score || SECTION_ORDER[a.e.kind] - SECTION_ORDER[b.e.kind] || a.i - b.i);
  return scored.slice(0, limit).map(({ e }) => e);
}
