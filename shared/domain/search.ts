/**
 * The family's search syntax: operators `stream:` (alias `channel:`), `topic:` (`subject:`),
 * `sender:` (`from:`; a name, an email or `me`), `is:` (starred, mentioned, unread, dm or
 * private, alerted), `has:` (link, image, attachment) and `dm:` (`pm-with:`; names or emails,
 * comma separated), each negated by a leading `-`, with operands in double quotes when they hold
 * spaces (`stream:"design team"`); every other word is searched for as text (one `search` term,
 * last, as the family sends it). A word with a colon that names no operator is text too
 * ("meet at 10:30").
 *
 * `parseSearchQuery` turns a query into the service's narrow terms, resolving streams and people
 * to ids through a lookup, with an error per operand it cannot resolve; `searchSuggestions`
 * completes the word being typed (the last one).
 */
import type { NarrowTerm } from './narrow';

export interface SearchLookup {
  /** A stream's id by its name (the lookup decides on case), or null. */
  streamIdByName(name: string): number | null;
  /** A person's id by full name or email, or null. */
  userIdBy(text: string): number | null;
  /** The user's own id, for `sender:me` (without it, `userIdBy('me')` is asked). */
  ownUserId?: number;
}

export interface SearchSuggestion {
  /** The whole query with the last word completed. */
  query: string;
  /** The completed word, as shown ("stream:design"). */
  label: string;
  description: string;
}

export interface SuggestionContext {
  streams: { id: number; name: string }[];
  users: { id: number; full_name: string; email: string }[];
  topicsOf(streamId: number): string[];
}

/** Operators by every name the syntax accepts → the canonical one. */
const OPERATORS: Record<string, Operator> = {
  stream: 'stream',
  channel: 'stream',
  topic: 'topic',
  subject: 'topic',
  sender: 'sender',
  from: 'sender',
  is: 'is',
  has: 'has',
  dm: 'dm',
  'pm-with': 'dm',
};
type Operator = 'stream' | 'topic' | 'sender' | 'is' | 'has' | 'dm';

/** `is:` operands → the service's operand. */
const IS_OPERANDS: Record<string, string> = {
  starred: 'starred',
  mentioned: 'mentioned',
  unread: 'unread',
  dm: 'dm',
  private: 'private',
  alerted: 'alerted',
};
const HAS_OPERANDS = ['link', 'image', 'attachment'] as const;

interface Token {
  /** Where the token starts in the query. */
  start: number;
  text: string;
}

/** Splits on white space outside double quotes. */
function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    while (i < query.length && /\s/.test(query[i] as string)) i++;
    if (i >= query.length) break;
    const start = i;
    let quoted = false;
    while (i < query.length && (quoted || !/\s/.test(query[i] as string))) {
      if (query[i] === '"') quoted = !quoted;
      i++;
    }
    tokens.push({ start, text: query.slice(start, i) });
  }
  return tokens;
}

/** Surrounding double quotes off (an unfinished opening one too). */
const unquote = (text: string) => text.replace(/^"/, '').replace(/"$/, '');

interface OperatorToken {
  negated: boolean;
  /** As written (for suggestions). */
  name: string;
  operator: Operator;
  operand: string;
}

function operatorToken(text: string): OperatorToken | null {
  const match = /^(-?)([A-Za-z-]+):(.*)$/s.exec(text);
  if (!match) return null;
  const name = (match[2] as string).toLowerCase();
  const operator = Object.hasOwn(OPERATORS, name) ? OPERATORS[name] : undefined;
  if (!operator) return null;
  return { negated: match[1] === '-', name, operator, operand: unquote(match[3] as string).trim() };
}

function userOf(ref: string, lookup: SearchLookup): number | null {
  if (ref.toLowerCase() === 'me' && lookup.ownUserId !== undefined) return lookup.ownUserId;
  return lookup.userIdBy(ref);
}

/** The service's narrow terms for a query, and what could not be understood. */
export function parseSearchQuery(
  query: string,
  lookup: SearchLookup,
): { terms: NarrowTerm[]; errors: string[] } {
  const terms: NarrowTerm[] = [];
  const errors: string[] = [];
  const words: string[] = [];
  for (const token of tokenize(query)) {
    const op = operatorToken(token.text);
    if (!op) {
      const word = unquote(token.text).trim();
      if (word !== '') words.push(word);
      continue;
    }
    const add = (operand: NarrowTerm['operand']) =>
      terms.push(
        op.negated ? { operator: op.operator, operand, negated: true } : { operator: op.operator, operand },
      );
    if (op.operand === '') {
      errors.push(`Missing operand for ${op.name}:`);
      continue;
    }
    switch (op.operator) {
      case 'stream': {
        const id = lookup.streamIdByName(op.operand);
        if (id === null) errors.push(`Unknown stream: ${op.operand}`);
        else add(id);
        break;
      }
      case 'topic':
        add(op.operand);
        break;
      case 'sender': {
        const id = userOf(op.operand, lookup);
        if (id === null) errors.push(`Unknown person: ${op.operand}`);
        else add(id);
        break;
      }
      case 'dm': {
        const refs = op.operand
          .split(',')
          .map((r) => r.trim())
          .filter((r) => r !== '');
        const ids: number[] = [];
        for (const ref of refs) {
          const id = userOf(ref, lookup);
          if (id === null) errors.push(`Unknown person: ${ref}`);
          else if (!ids.includes(id)) ids.push(id);
        }
        if (ids.length === refs.length) add(ids);
        break;
      }
      case 'is': {
        const what = op.operand.toLowerCase();
        if (Object.hasOwn(IS_OPERANDS, what)) add(IS_OPERANDS[what] as string);
        else errors.push(`Unknown is: operand: ${op.operand}`);
        break;
      }
      case 'has': {
        const what = op.operand.toLowerCase();
        if ((HAS_OPERANDS as readonly string[]).includes(what)) add(what);
        else errors.push(`Unknown has: operand: ${op.operand}`);
        break;
      }
    }
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return { terms, errors };
}

// ---- suggestions -------------------------------------------------------------------------------

const OPERATOR_HELP: { name: string; description: string }[] = [
  { name: 'stream', description: 'Messages in a stream' },
  { name: 'topic', description: 'Messages in a topic' },
  { name: 'sender', description: 'Messages sent by a person' },
  { name: 'dm', description: 'Private messages with people' },
  { name: 'is', description: 'Starred, mentioned, unread, private or alerted messages' },
  { name: 'has', description: 'Messages with a link, an image or an attachment' },
];

const IS_HELP: { operand: string; description: string }[] = [
  { operand: 'starred', description: 'Starred messages' },
  { operand: 'mentioned', description: 'Messages that mention you' },
  { operand: 'unread', description: 'Unread messages' },
  { operand: 'dm', description: 'Private messages' },
  { operand: 'alerted', description: 'Messages with your alert words' },
];

const HAS_HELP: { operand: string; description: string }[] = [
  { operand: 'link', description: 'Messages with a link' },
  { operand: 'image', description: 'Messages with an image' },
  { operand: 'attachment', description: 'Messages with an attachment' },
];

/** An operand as written in a query: quoted when it holds white space. */
const quoteOperand = (operand: string) => (/\s/.test(operand) ? `"${operand}"` : operand);

/** Candidates whose text starts with `partial` first, then those with a word that does. */
function ranked<T>(items: readonly T[], partial: string, texts: (item: T) => string[]): T[] {
  const p = partial.toLowerCase();
  const score = (item: T) => {
    const all = texts(item).map((t) => t.toLowerCase());
    if (all.some((t) => t.startsWith(p))) return 0;
    if (all.some((t) => t.split(/[\s@._,>-]+/).some((w) => w.startsWith(p)))) return 1;
    return 2;
  };
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .filter((x) => x.s < 2)
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.item);
}

/** The stream a query already names (the last positive `stream:` before the word being typed). */
function chosenStream(tokens: Token[], ctx: SuggestionContext): { id: number; name: string } | undefined {
  let chosen: { id: number; name: string } | undefined;
  for (const token of tokens) {
    const op = operatorToken(token.text);
    if (op?.operator !== 'stream' || op.negated) continue;
    const name = op.operand.toLowerCase();
    chosen = ctx.streams.find((s) => s.name.toLowerCase() === name) ?? chosen;
  }
  return chosen;
}

/**
 * Completions of the query's last word: operators for a bare word (and the streams and people it
 * names), then the operands of the operator being typed: stream names, the topics of the stream
 * the query names, people (by name or email, and `me` for sender), `is:` and `has:` operands.
 * A bare word is first offered as text to search for.
 */
export function searchSuggestions(query: string, ctx: SuggestionContext, limit = 8): SearchSuggestion[] {
  const tokens = tokenize(query);
  const endsInSpace = query.length === 0 || /\s$/.test(query);
  const last = !endsInSpace ? tokens[tokens.length - 1] : undefined;
  const before = last ? query.slice(0, last.start) : query;
  const earlier = last ? tokens.slice(0, -1) : tokens;
  const word = last?.text ?? '';
  const out: SearchSuggestion[] = [];
  const push = (token: string, description: string) => {
    if (out.length >= limit || out.some((s) => s.label === token)) return;
    out.push({ query: `${before}${token}`, label: token, description });
  };

  const op = operatorToken(word);
  if (!op) {
    const negated = word.startsWith('-');
    const bare = negated ? word.slice(1) : word;
    const sign = negated ? '-' : '';
    if (bare !== '' && !negated) push(word, `Search for "${unquote(word)}"`);
    const partial = bare.toLowerCase();
    for (const { name, description } of OPERATOR_HELP)
      if (name.startsWith(partial))
        push(`${sign}${name}:`, negated ? `Exclude: ${description}` : description);
    if (bare.length > 0 && !bare.includes(':')) {
      for (const s of ranked(ctx.streams, bare, (s) => [s.name]))
        push(`${sign}stream:${quoteOperand(s.name)}`, `Messages in #${s.name}`);
      for (const u of ranked(ctx.users, bare, (u) => [u.full_name, u.email]))
        push(`${sign}sender:${u.email}`, `Messages sent by ${u.full_name}`);
    }
    return out;
  }

  const head = `${op.negated ? '-' : ''}${op.name}:`;
  const exclude = (text: string) => (op.negated ? `Exclude: ${text}` : text);
  const partial = op.operand;
  switch (op.operator) {
    case 'stream':
      for (const s of ranked(ctx.streams, partial, (s) => [s.name]))
        push(`${head}${quoteOperand(s.name)}`, exclude(`Messages in #${s.name}`));
      break;
    case 'topic': {
      const stream = chosenStream(earlier, ctx);
      if (!stream) break;
      for (const topic of ranked(ctx.topicsOf(stream.id), partial, (t) => [t]))
        push(`${head}${quoteOperand(topic)}`, exclude(`Messages in #${stream.name} > ${topic}`));
      break;
    }
    case 'sender':
      if ('me'.startsWith(partial.toLowerCase())) push(`${head}me`, exclude('Messages sent by you'));
      for (const u of ranked(ctx.users, partial, (u) => [u.full_name, u.email]))
        push(`${head}${u.email}`, exclude(`Messages sent by ${u.full_name}`));
      break;
    case 'dm': {
      const parts = partial.split(',');
      const typing = (parts.pop() ?? '').trim();
      const chosen = parts.map((p) => p.trim()).filter((p) => p !== '');
      const chosenLower = new Set(chosen.map((p) => p.toLowerCase()));
      const people = ctx.users.filter(
        (u) => !chosenLower.has(u.email.toLowerCase()) && !chosenLower.has(u.full_name.toLowerCase()),
      );
      for (const u of ranked(people, typing, (u) => [u.full_name, u.email])) {
        const names = [...chosen, u.email];
        push(`${head}${names.join(',')}`, exclude(`Private messages with ${u.full_name}`));
      }
      break;
    }
    case 'is':
      for (const { operand, description } of IS_HELP)
        if (operand.startsWith(partial.toLowerCase())) push(`${head}${operand}`, exclude(description));
      break;
    case 'has':
      for (const { operand, description } of HAS_HELP)
        if (operand.startsWith(partial.toLowerCase())) push(`${head}${operand}`, exclude(description));
      break;
  }
  return out;
}
