/** POST /messages, GET /messages (anchor, narrow) and GET /messages/{message_id}. */
import { deleteTopic } from '../actions/delete-topic';
import { accessMessage, canReadStreamHistory, type SendTarget, sendMessage } from '../actions/messages';
import { requireAdmin } from '../actions/users';
import type { ServiceContext } from '../context';
import { FLAGS } from '../db/flags';
import { directRecipientId, type MessageRow } from '../db/messages';
import { getStream, getStreamByName, isSubscribed, type StreamRow } from '../db/streams';
import { getUserById, type UserRow } from '../db/users';
import { ApiFailure, badRequest, missingArgument } from '../errors';
import type { Endpoint } from '../http';
import { formatMessage, messageFlags, UserCache } from '../objects/messages';
import { canSeeStream } from '../objects/streams';
import { bool, type Decoder, int, parseJsonText, type RequestParams, str } from '../params';
import { accessStreamById, PARTIALLY_COMPLETED } from './read';
import { streamIdOf } from './streams';

/** The interface family's anchor for "newest": larger than any message id. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;
const MAX_MESSAGES_PER_FETCH = 5000;

const nonNegativeInt: Decoder<number> = (name, raw) => {
  const value = int(name, raw);
  if (value < 0) throw badRequest(`${name} is too small`);
  return value;
};

// ---------------------------------------------------------------------------------------------
// POST /messages

/** `to` of a stream message: an id (JSON integer), a name (bare or JSON string), or a list of one. */
function streamRef(raw: string): number | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Cannot send to multiple streams');
    value = value[0];
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string') return value;
  // Any other JSON (true, 1.5, {...}) is no stream reference; a stream may be called that.
  return raw;
}

/** `to` of a direct message: a JSON list of ids or of emails, one id, or comma-separated emails. */
function userRefs(raw: string): (number | string)[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return [value];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) throw badRequest('Invalid to');
  const ids = value.every((v) => typeof v === 'number' && Number.isSafeInteger(v));
  const emails = value.every((v) => typeof v === 'string');
  if (ids || emails || value.length === 0) return value as (number | string)[];
  if (value.every((v) => typeof v === 'number' || typeof v === 'string'))
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  throw badRequest('Invalid to');
}

function sendTarget(params: RequestParams): SendTarget {
  const type = params.required('type', (_n, raw) => raw);
  const to = params.required('to', (_n, raw) => raw);
  if (type === 'stream' || type === 'channel') {
    const topic = params.raw('topic') ?? params.raw('subject');
    if (topic === undefined) throw badRequest('Missing topic');
    return { type: 'stream', stream: streamRef(to), topic };
  }
  if (type === 'private' || type === 'direct') return { type: 'private', users: userRefs(to) };
  throw badRequest('Invalid message type');
}

// ---------------------------------------------------------------------------------------------
// GET /messages

type Operand = string | number | number[];
interface NarrowTerm {
  operator: string;
  operand: Operand;
  negated: boolean;
}

/** Both narrow forms: `[["stream", "general"]]` and `[{"operator": ..., "operand": ...}]`. */
function parseNarrow(name: string, raw: string): NarrowTerm[] {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`Invalid ${name}`);
  const isOperand = (v: unknown): v is Operand =>
    typeof v === 'string' ||
    (typeof v === 'number' && Number.isSafeInteger(v)) ||
    (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isSafeInteger(x)));
  return value.map((term): NarrowTerm => {
    if (Array.isArray(term) && term.length === 2 && typeof term[0] === 'string' && isOperand(term[1]))
      return { operator: term[0], operand: term[1], negated: false };
    if (term && typeof term === 'object' && !Array.isArray(term)) {
      const t = term as Record<string, unknown>;
      const negated = t.negated ?? false;
      if (typeof t.operator === 'string' && isOperand(t.operand) && typeof negated === 'boolean')
        return { operator: t.operator, operand: t.operand, negated };
    }
    throw badRequest(`Invalid ${name}`);
  });
}

function badNarrow(what: string): ApiFailure {
  return new ApiFailure(400, 'BAD_NARROW', `Invalid narrow operator: ${what}`);
}

interface Sql {
  where: string;
  args: unknown[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function narrowStream(ctx: ServiceContext, user: UserRow, operand: Operand): StreamRow {
  const stream =
    typeof operand === 'number'
      ? getStream(ctx.db, operand)
      : typeof operand === 'string'
        ? getStreamByName(ctx.db, ctx.realmId, operand)
        : undefined;
  const subscribed = stream !== undefined && isSubscribed(ctx.db, user.id, stream.id);
  if (!stream || stream.realm_id !== ctx.realmId || !canSeeStream(user, stream, subscribed))
    throw badNarrow('unknown stream');
  return stream;
}

function narrowUser(ctx: ServiceContext, ref: string | number): UserRow {
  const user =
    typeof ref === 'number'
      ? getUserById(ctx.db, ref)
      : (ctx.db
          .prepare('SELECT * FROM users WHERE realm_id = ? AND email = ?')
          .get(ctx.realmId, ref.trim()) as UserRow | undefined);
  if (!user || user.realm_id !== ctx.realmId) throw badNarrow('unknown user');
  return user;
}

/** One narrow term as SQL over `m` (messages) and `um` (the user's copies, may be NULL). */
function termSql(ctx: ServiceContext, user: UserRow, term: NarrowTerm): Sql {
  const { operator, operand } = term;
  const text = () => {
    if (typeof operand !== 'string') throw badNarrow(`invalid operand for ${operator}`);
    return operand;
  };
  switch (operator) {
    case 'stream':
    case 'channel':
      return { where: 'm.stream_id = ?', args: [narrowStream(ctx, user, operand).id] };
    case 'topic':
    case 'subject':
      return { where: 'm.stream_id IS NOT NULL AND m.topic = ? COLLATE NOCASE', args: [text()] };
    case 'sender': {
      const ref = typeof operand === 'number' ? operand : text();
      return { where: 'm.sender_id = ?', args: [narrowUser(ctx, ref).id] };
    }
    case 'id':
      if (typeof operand === 'number') return { where: 'm.id = ?', args: [operand] };
      if (/^\d+$/.test(text())) return { where: 'm.id = ?', args: [Number(operand)] };
      throw badNarrow('invalid message ID');
    case 'search': {
      const like = `%${escapeLike(text())}%`;
      return { where: "(m.content LIKE ? ESCAPE '\\' OR m.topic LIKE ? ESCAPE '\\')", args: [like, like] };
    }
    case 'is':
      switch (text()) {
        case 'private':
        case 'dm':
          return { where: 'm.stream_id IS NULL', args: [] };
        case 'unread':
          return { where: `um.flags IS NOT NULL AND (um.flags & ${FLAGS.read}) = 0`, args: [] };
        case 'starred':
          return { where: `(um.flags & ${FLAGS.starred}) != 0`, args: [] };
        case 'mentioned':
          return { where: `(um.flags & ${FLAGS.mentioned | FLAGS.wildcard_mentioned}) != 0`, args: [] };
        case 'alerted':
          return { where: `(um.flags & ${FLAGS.has_alert_word}) != 0`, args: [] };
        default:
          throw badNarrow(`unknown 'is' operand ${operand}`);
      }
    case 'pm-with':
    case 'dm': {
      const refs: (string | number)[] =
        typeof operand === 'number'
          ? [operand]
          : Array.isArray(operand)
            ? operand
            : operand.split(',').filter((s) => s.trim() !== '');
      const others = [...new Set(refs.map((r) => narrowUser(ctx, r).id))].filter((id) => id !== user.id);
      // Each conversation has its own recipient (see directRecipientId).
      const recipient = directRecipientId(ctx.db, [user.id, ...others], false);
      return { where: 'm.stream_id IS NULL AND m.recipient_id = ?', args: [recipient ?? -1] };
    }
    default:
      throw badNarrow('unknown operator');
  }
}

/**
 * The WHERE clause of the messages the user may read within the narrow: their own copies,
 * and, when the narrow names a stream whose whole history the user may read, every message
 * of that stream (as the interface family does).
 */
function narrowSql(ctx: ServiceContext, user: UserRow, narrow: NarrowTerm[]): Sql {
  const parts: string[] = ['m.realm_id = ?'];
  const args: unknown[] = [ctx.realmId];
  let historyStream: number | null = null;
  for (const term of narrow) {
    const sql = termSql(ctx, user, term);
    parts.push(term.negated ? `NOT (${sql.where})` : `(${sql.where})`);
    args.push(...sql.args);
    if (!term.negated && (term.operator === 'stream' || term.operator === 'channel')) {
      const stream = narrowStream(ctx, user, term.operand);
      if (canReadStreamHistory(ctx.db, user, stream)) historyStream = stream.id;
    }
  }
  if (historyStream === null) parts.push('um.user_id IS NOT NULL');
  else {
    parts.push('(um.user_id IS NOT NULL OR m.stream_id = ?)');
    args.push(historyStream);
  }
  return { where: parts.join(' AND '), args };
}

type FetchedRow = MessageRow & { um_flags: number | null };
const FROM = 'FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?';

function fetchMessages(ctx: ServiceContext, user: UserRow, params: RequestParams) {
  const anchorRaw = params.raw('anchor');
  const useFirstUnread = params.optional('use_first_unread_anchor', bool, false);
  if (anchorRaw === undefined && !useFirstUnread) throw missingArgument('anchor');
  const anchorText = useFirstUnread ? 'first_unread' : (anchorRaw as string);
  const numBefore = params.required('num_before', nonNegativeInt);
  const numAfter = params.required('num_after', nonNegativeInt);
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  const includeAnchor = params.optional('include_anchor', bool, true);
  const applyMarkdown = params.optional('apply_markdown', bool, true);
  const clientExtavatar =
    params.optional('client_extavatar', bool) ?? params.optional('client_gravatar', bool, false);
  const narrow = params.optional('narrow', parseNarrow, []);

  const { where, args } = narrowSql(ctx, user, narrow);
  const db = ctx.db;
  let anchor: number;
  if (anchorText === 'newest') anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (anchorText === 'oldest') anchor = 0;
  else if (anchorText === 'first_unread') {
    const row = db
      .prepare(
        `SELECT MIN(m.id) AS id ${FROM} WHERE ${where} AND um.flags IS NOT NULL AND (um.flags & 1) = 0`,
      )
      .get(user.id, ...args) as { id: number | null };
    anchor = row.id ?? LARGER_THAN_MAX_MESSAGE_ID;
  } else if (/^\d{1,16}$/.test(anchorText)) anchor = Number(anchorText);
  else throw badRequest('Invalid anchor');

  const select = `SELECT m.*, um.flags AS um_flags ${FROM} WHERE ${where}`;
  const before = db
    .prepare(`${select} AND m.id < ? ORDER BY m.id DESC LIMIT ?`)
    .all(user.id, ...args, anchor, numBefore + 1) as FetchedRow[];
  const after = db
    .prepare(`${select} AND m.id > ? ORDER BY m.id ASC LIMIT ?`)
    .all(user.id, ...args, anchor, numAfter + 1) as FetchedRow[];
  const atAnchor = includeAnchor
    ? (db.prepare(`${select} AND m.id = ?`).get(user.id, ...args, anchor) as FetchedRow | undefined)
    : undefined;

  const rows = [
    ...before.slice(0, numBefore).reverse(),
    ...(atAnchor ? [atAnchor] : []),
    ...after.slice(0, numAfter),
  ];
  const users = new UserCache(db);
  const view = { applyMarkdown, clientExtavatar };
  return {
    messages: rows.map((row) => ({
      ...formatMessage(db, row, view, users),
      flags: messageFlags(row.um_flags ?? undefined),
    })),
    anchor,
    found_anchor: atAnchor !== undefined,
    found_oldest: before.length <= numBefore,
    found_newest: after.length <= numAfter,
    history_limited: false,
  };
}

export const messageEndpoints: Endpoint[] = [
  {
    method: 'POST',
    path: '/messages',
    auth: 'user',
    handle({ ctx, user, params, http }) {
      const to = sendTarget(params);
      const content = params.required('content', (_n, raw) => raw);
      // Like the interface family: the client's name is the first word of its User-Agent.
      const agent = /^[\w.-]{1,30}/.exec(http.headers['user-agent'] ?? '');
      const client = agent ? agent[0] : 'API';
      const queueId = params.raw('queue_id');
      const localId = params.raw('local_id');
      const localEcho = queueId !== undefined && localId !== undefined ? { queueId, localId } : undefined;
      const { id } = sendMessage(ctx, { senderId: user.id, to, content, client, localEcho });
      return { id };
    },
  },
  {
    method: 'GET',
    path: '/messages',
    auth: 'user',
    handle({ ctx, user, params }) {
      return fetchMessages(ctx, user, params);
    },
  },
  {
    method: 'GET',
    path: '/messages/:message_id',
    auth: 'user',
    handle({ ctx, user, params, path }) {
      const idText = path.message_id ?? '';
      if (!/^\d{1,15}$/.test(idText)) throw badRequest('Invalid message(s)');
      const applyMarkdown = params.optional('apply_markdown', bool, true);
      const { row, bits } = accessMessage(ctx.db, user, Number(idText));
      const message = formatMessage(ctx.db, row, { applyMarkdown, clientExtavatar: false });
      return { raw_content: row.content, message: { ...message, flags: messageFlags(bits) } };
    },
  },
  {
    method: 'POST',
    path: '/streams/:stream_id/delete_topic',
    auth: 'user',
    async handle({ ctx, user, params, path }) {
      requireAdmin(user);
      const stream = accessStreamById(ctx, user, streamIdOf(path.stream_id));
      const topic = params.required('topic_name', str);
      return (await deleteTopic(ctx, user, stream, topic)).complete ? undefined : PARTIALLY_COMPLETED;
    },
  },
];
