/**
 * GET /messages: checks each narrow term against what the user may see (a stream or user
 * that is unknown or hidden from them is BAD_NARROW), reads the window of messages around
 * the anchor (db/narrow.ts), and shapes it as Message objects with the user's flags.
 */
import type { NarrowTerm } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { directRecipientId } from '../db/messages';
import { firstUnreadMessageId, type MessageQuery, messageWindow, type NarrowFilter } from '../db/narrow';
import { getStream, getStreamByName, isSubscribed, type StreamRow } from '../db/streams';
import { getUserByDisplayEmail, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { formatMessage, messageFlags, UserCache } from '../formats/messages';
import { TopicLinker } from '../formats/topic-links';
import { canReadStreamHistory, canSeeStream } from '../permissions';
import { accessUserById } from './access';

/** The interface family's anchor for "newest": larger than any message id. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

/** A narrow term as the client sent it (the catalogue's message-narrow format). */
export type { NarrowTerm };

type Operand = NarrowTerm['operand'];

export interface MessageFetch {
  /** `newest`, `oldest`, `first_unread` or a message id, as sent. */
  anchor: string;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  narrow: NarrowTerm[];
}

function badNarrow(what: string): ApiFailure {
  return new ApiFailure(400, 'BAD_NARROW', `Invalid narrow operator: ${what}`);
}

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

/** A user of the organization by id or display email, deactivated ones included. */
function narrowUser(ctx: ServiceContext, ref: string | number): UserRow {
  if (typeof ref === 'number')
    return accessUserById(ctx, ref, { allowDeactivated: true, error: () => badNarrow('unknown user') });
  const user = getUserByDisplayEmail(ctx.db, ctx.realmId, ref.trim());
  if (!user) throw badNarrow('unknown user');
  return user;
}

const IS_OPERANDS: Record<string, Extract<NarrowFilter, { kind: 'is' }>['what']> = {
  private: 'private',
  dm: 'private',
  unread: 'unread',
  starred: 'starred',
  mentioned: 'mentioned',
  alerted: 'alerted',
};

const HAS_OPERANDS: Record<string, Extract<NarrowFilter, { kind: 'has' }>['what']> = {
  link: 'link',
  image: 'image',
  attachment: 'attachment',
};

/** One narrow term with its operand resolved; throws BAD_NARROW for what the user may not name. */
function resolveTerm(ctx: ServiceContext, user: UserRow, term: NarrowTerm): NarrowFilter {
  const { operator, operand } = term;
  const text = () => {
    if (typeof operand !== 'string') throw badNarrow(`invalid operand for ${operator}`);
    return operand;
  };
  switch (operator) {
    case 'stream':
    case 'channel':
      return { kind: 'stream', streamId: narrowStream(ctx, user, operand).id };
    case 'topic':
    case 'subject':
      return { kind: 'topic', topic: text() };
    case 'sender': {
      const ref = typeof operand === 'number' ? operand : text();
      return { kind: 'sender', userId: narrowUser(ctx, ref).id };
    }
    case 'id':
      if (typeof operand === 'number') return { kind: 'id', messageId: operand };
      if (/^\d+$/.test(text())) return { kind: 'id', messageId: Number(operand) };
      throw badNarrow('invalid message ID');
    case 'search':
      return { kind: 'search', text: text() };
    case 'is': {
      const what = Object.hasOwn(IS_OPERANDS, text()) ? IS_OPERANDS[text()] : undefined;
      if (what === undefined) throw badNarrow(`unknown 'is' operand ${operand}`);
      return { kind: 'is', what };
    }
    case 'has': {
      const what = Object.hasOwn(HAS_OPERANDS, text()) ? HAS_OPERANDS[text()] : undefined;
      if (what === undefined) throw badNarrow(`unknown 'has' operand ${operand}`);
      return { kind: 'has', what };
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
      return { kind: 'conversation', recipientId: recipient ?? -1 };
    }
    default:
      throw badNarrow('unknown operator');
  }
}

/**
 * The narrow as a query. When it names a stream whose whole history the user may read,
 * every message of that stream counts, not only the user's copies (as the interface family does).
 */
export function messageQuery(ctx: ServiceContext, user: UserRow, narrow: NarrowTerm[]): MessageQuery {
  const query: MessageQuery = { userId: user.id, realmId: ctx.realmId, filters: [], historyStreamId: null };
  for (const term of narrow) {
    query.filters.push({ filter: resolveTerm(ctx, user, term), negated: term.negated });
    if (!term.negated && (term.operator === 'stream' || term.operator === 'channel')) {
      const stream = narrowStream(ctx, user, term.operand);
      if (canReadStreamHistory(ctx.db, user, stream)) query.historyStreamId = stream.id;
    }
  }
  return query;
}

export function anchorOf(ctx: ServiceContext, query: MessageQuery, anchor: string): number {
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'oldest') return 0;
  if (anchor === 'first_unread') return firstUnreadMessageId(ctx.db, query) ?? LARGER_THAN_MAX_MESSAGE_ID;
  if (/^\d{1,16}$/.test(anchor)) return Number(anchor);
  throw badRequest('Invalid anchor');
}

/** The response of GET /messages. */
export function getMessages(ctx: ServiceContext, user: UserRow, req: MessageFetch) {
  const query = messageQuery(ctx, user, req.narrow);
  const anchor = anchorOf(ctx, query, req.anchor);
  const { numBefore, numAfter } = req;
  const { before, atAnchor, after } = messageWindow(ctx.db, query, {
    anchor,
    numBefore,
    numAfter,
    includeAnchor: req.includeAnchor,
  });
  const rows = [
    ...before.slice(0, numBefore).reverse(),
    ...(atAnchor ? [atAnchor] : []),
    ...after.slice(0, numAfter),
  ];
  const users = new UserCache(ctx.db);
  const linker = TopicLinker.forRealm(ctx.db, ctx.realmId);
  const view = { applyMarkdown: req.applyMarkdown, clientExtavatar: req.clientExtavatar };
  return {
    messages: rows.map((row) => ({
      ...formatMessage(ctx.db, row, view, users, linker),
      flags: messageFlags(row.um_flags ?? undefined),
    })),
    anchor,
    found_anchor: atAnchor !== undefined,
    found_oldest: before.length <= numBefore,
    found_newest: after.length <= numAfter,
    history_limited: false,
  };
}
