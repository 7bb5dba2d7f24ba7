/**
 * The search box's pure parts: the prefix it offers for the conversation being read (the
 * family's search starts from the current stream or topic), the stream a query names (whose
 * topics are then worth offering), and the route a query opens.
 */
import type { Narrow } from '../../../../shared/domain/narrow';

/** An operand as the syntax wants it: in double quotes when it holds spaces or quotes. */
export function operand(text: string): string {
  return /[\s"]/.test(text) ? `"${text.replaceAll('"', '')}"` : text;
}

/**
 * The query the box starts with for a narrow: `stream:name ` for a stream, `stream:name
 * topic:name ` for a topic, '' otherwise (or when the stream's name is unknown).
 */
export function searchPrefix(narrow: Narrow | null, streamName: (id: number) => string | undefined): string {
  if (!narrow || (narrow.kind !== 'stream' && narrow.kind !== 'topic')) return '';
  const name = streamName(narrow.streamId);
  if (name === undefined) return '';
  const stream = `stream:${operand(name)} `;
  return narrow.kind === 'topic' ? `${stream}topic:${operand(narrow.topic)} ` : stream;
}

/** The id of the (last, not negated) stream a query names with `stream:` / `channel:`, or null. */
export function streamNamedIn(
  query: string,
  streams: readonly { id: number; name: string }[],
): number | null {
  const re = /(?:^|\s)(?:stream|channel):(?:"([^"]*)"?|(\S+))/gi;
  let found: number | null = null;
  for (const match of query.matchAll(re)) {
    const name = (match[1] ?? match[2] ?? '').toLowerCase();
    const stream = streams.find((s) => s.name.toLowerCase() === name);
    if (stream) found = stream.id;
  }
  return found;
}

/** The narrow a query opens (its words trimmed), or null for an empty one. */
export function searchNarrow(query: string): Narrow | null {
  const q = query.trim().replace(/\s+/g, ' ');
  return q === '' ? null : { kind: 'search', query: q };
}
