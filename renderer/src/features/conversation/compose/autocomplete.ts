/**
 * The message box's autocomplete, as pure functions: which token the caret is in (`@` a person
 * or a group, `#` a stream, `#**stream>` a topic, `:` an emoji), the candidates it matches,
 * best first, and the Markdown the chosen one becomes, put in place of the token.
 */

export type TokenKind = 'mention' | 'stream' | 'topic' | 'emoji';

export interface Token {
  kind: TokenKind;
  /** What was typed after the marker (for a topic: after `>`). */
  query: string;
  /** Where the token starts in the text (its marker) and ends (the caret). */
  start: number;
  end: number;
  /** `@_`: a silent mention (no notification). */
  silent?: boolean;
  /** The stream a topic token names. */
  stream?: string;
}

/** A token may only start at the beginning, after white space or an opening bracket or quote. */
const BOUNDARY = /(^|[\s([{"'])$/u;

/**
 * The token ending at the caret, if any. Mentions may hold spaces (full names), up to a few
 * words; emoji need two characters, so `:)` and times like `10:30` stay text.
 */
export function detectToken(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  const line = before.slice(before.lastIndexOf('\n') + 1);
  const lineStart = caret - line.length;

  // #**stream>topic  or  #**stream**>topic
  const topic = /#\*\*([^*\n>]+?)(?:\*\*)?>([^*\n]*)$/u.exec(line);
  if (topic && BOUNDARY.test(line.slice(0, topic.index))) {
    return {
      kind: 'topic',
      query: topic[2] ?? '',
      stream: topic[1] ?? '',
      start: lineStart + topic.index,
      end: caret,
    };
  }

  const stream = /#(\*\*)?([^*\n#>]{0,60})$/u.exec(line);
  if (stream && BOUNDARY.test(line.slice(0, stream.index))) {
    const query = stream[2] ?? '';
    if (!/^\s/u.test(query) && !/\s{2}/u.test(query)) {
      return { kind: 'stream', query, start: lineStart + stream.index, end: caret };
    }
  }

  const mention = /@(_)?(\*\*?)?([^@*\n]{0,40})$/u.exec(line);
  if (mention && BOUNDARY.test(line.slice(0, mention.index))) {
    const query = mention[3] ?? '';
    const words = query.split(' ');
    if (!/^\s/u.test(query) && !/\s{2}/u.test(query) && words.length <= 4) {
      return {
        kind: 'mention',
        query,
        start: lineStart + mention.index,
        end: caret,
        ...(mention[1] ? { silent: true } : {}),
      };
    }
  }

  const emoji = /:([a-z0-9_+-]{2,40})$/iu.exec(line);
  if (emoji && BOUNDARY.test(line.slice(0, emoji.index))) {
    return { kind: 'emoji', query: emoji[1] ?? '', start: lineStart + emoji.index, end: caret };
  }
  return null;
}

/**
 * The edit a completion makes: `insert` in place of the token (and of the space after it, when
 * `insert` brings its own, so none is doubled); the caret goes after it.
 */
export function completionEdit(
  text: string,
  token: Pick<Token, 'start' | 'end'>,
  insert: string,
): { start: number; end: number; insert: string; selectionStart: number; selectionEnd: number } {
  const eatSpace = insert.endsWith(' ') && text.slice(token.end).startsWith(' ');
  const caret = token.start + insert.length;
  return {
    start: token.start,
    end: token.end + (eatSpace ? 1 : 0),
    insert,
    selectionStart: caret,
    selectionEnd: caret,
  };
}

/** The text with a completion put in place of the token, and where the caret goes. */
export function applyCompletion(
  text: string,
  token: Pick<Token, 'start' | 'end'>,
  insert: string,
): { text: string; caret: number } {
  const edit = completionEdit(text, token, insert);
  return { text: text.slice(0, edit.start) + edit.insert + text.slice(edit.end), caret: edit.selectionStart };
}

// ---- the Markdown of each kind ---------------------------------------------------------------

export const personMention = (fullName: string, userId: number, silent = false): string =>
  `@${silent ? '_' : ''}**${fullName}|${userId}** `;
export const groupMention = (name: string, silent = false): string => `@${silent ? '_' : ''}*${name}* `;
export const streamLink = (name: string): string => `#**${name}** `;
export const topicLink = (stream: string, topic: string): string => `#**${stream}>${topic}** `;
export const emojiText = (name: string): string => `:${name}: `;

// ---- matching --------------------------------------------------------------------------------

/**
 * How well `name` answers `query`: 0 the name starts with it, 1 a word of it does, 2 it holds
 * it somewhere; null no match. Case and accents are ignored.
 */
export function matchRank(name: string, query: string): number | null {
  const n = fold(name);
  const q = fold(query.trim());
  if (q === '') return 0;
  if (n.startsWith(q)) return 0;
  if (n.split(/[\s_\-./]+/u).some((word) => word.startsWith(q))) return 1;
  if (n.includes(q)) return 2;
  return null;
}

const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Items matching the query, best first (ties: shorter names, then the given order), at most `limit`. */
export function rankMatches<T>(
  items: readonly T[],
  query: string,
  namesOf: (item: T) => readonly string[],
  limit = 8,
): T[] {
  return items
    .map((item, index) => {
      const ranks = namesOf(item)
        .map((name) => matchRank(name, query))
        .filter((r): r is number => r !== null);
      const primary = namesOf(item)[0] ?? '';
      return { item, index, rank: ranks.length === 0 ? null : Math.min(...ranks), length: primary.length };
    })
    .filter((r): r is { item: T; index: number; rank: number; length: number } => r.rank !== null)
    .sort((a, b) => a.rank - b.rank || (query.trim() ? a.length - b.length : 0) || a.index - b.index)
    .slice(0, limit)
    .map((r) => r.item);
}
