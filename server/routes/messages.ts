/** POST /messages, GET /messages (anchor, narrow) and GET /messages/{message_id}. */
import type { ParamsOf } from '../../shared/protocol';
import { accessMessage, accessStreamById } from '../actions/access';
import { deleteTopic } from '../actions/delete-topic';
import { getMessages } from '../actions/message-fetch';
import { type SendTarget, sendMessageGrouped } from '../actions/messages';
import type { ServiceContext } from '../context';
import type { UserRow } from '../db/users';
import { badRequest, missingArgument } from '../errors';
import { formatMessage, messageFlags } from '../formats/messages';
import { route } from '../http';
import { isJsonNumber, readJson } from '../params/json';
import { PARTIALLY_COMPLETED } from './read';

const MAX_MESSAGES_PER_FETCH = 5000;

// ---------------------------------------------------------------------------------------------
// POST /messages

/** `to` of a stream message: an id (JSON integer), a name (bare or JSON string), or a list of one. */
function streamRef(raw: string): number | string {
  const json = readJson(raw);
  if (json === undefined) return raw;
  let value = json.value;
  if (Array.isArray(value)) {
    if (value.length !== 1) throw badRequest('Cannot send to multiple streams');
    value = value[0];
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string') return value;
  // Any other JSON (true, 1.5, 1e0, {...}) is no stream reference; a stream may be called that.
  return raw;
}

/** `to` of a direct message: a JSON list of ids or of emails, one id, or comma-separated emails. */
function userRefs(raw: string): (number | string)[] {
  const json = readJson(raw);
  if (json === undefined) {
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
  const value = json.value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return [value];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) throw badRequest('Invalid to');
  const ids = value.every((v) => typeof v === 'number' && Number.isSafeInteger(v));
  const emails = value.every((v) => typeof v === 'string');
  if (ids || emails || value.length === 0) return value as (number | string)[];
  // A float (1.5, 1e0) is a number, though no id.
  if (value.every((v) => isJsonNumber(v) || typeof v === 'string'))
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  throw badRequest('Invalid to');
}

function sendTarget(params: ParamsOf<'POST /messages'>, typeGiven: boolean): SendTarget {
  // As the family answers: both are asked for before the type is judged.
  if (!typeGiven) throw missingArgument('type');
  const { to, type, topic } = params;
  if (type === 'stream' || type === 'channel') {
    if (topic === undefined) throw badRequest('Missing topic');
    return { type: 'stream', stream: streamRef(to), topic };
  }
  return { type: 'private', users: userRefs(to) };
}

// ---------------------------------------------------------------------------------------------
// GET /messages

function fetchMessages(ctx: ServiceContext, user: UserRow, params: ParamsOf<'GET /messages'>) {
  const useFirstUnread = params.use_first_unread_anchor ?? false;
  if (params.anchor === undefined && !useFirstUnread) throw missingArgument('anchor');
  const { num_before: numBefore, num_after: numAfter } = params;
  if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH)
    throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);

  return getMessages(ctx, user, {
    anchor: useFirstUnread ? 'first_unread' : (params.anchor as string),
    numBefore,
    numAfter,
    includeAnchor: params.include_anchor ?? true,
    applyMarkdown: params.apply_markdown ?? true,
    clientExtavatar: params.client_extavatar ?? false,
    narrow: params.narrow ?? [],
  });
}

export const messageEndpoints = [
  route({
    endpoint: 'POST /messages',
    async handle({ ctx, user, params, raw, http }) {
      const to = sendTarget(params, raw.raw('type') !== undefined);
      const { content } = params;
      // Like the interface family: the client's name is the first word of its User-Agent.
      const agent = /^[\w.-]{1,30}/.exec(http.headers['user-agent'] ?? '');
      const client = agent ? agent[0] : 'API';
      // Local-echo hints, free text the catalogue does not declare: matched, never checked.
      const queueId = raw.raw('queue_id');
      const localId = raw.raw('local_id');
      const localEcho = queueId !== undefined && localId !== undefined ? { queueId, localId } : undefined;
      const { id } = await sendMessageGrouped(ctx, { senderId: user.id, to, content, client, localEcho });
      return { id };
    },
  }),
  route({
    endpoint: 'GET /messages',
    handle({ ctx, user, params }) {
      return fetchMessages(ctx, user, params);
    },
  }),
  route({
    endpoint: 'GET /messages/{message_id}',
    handle({ ctx, user, params }) {
      const { row, bits } = accessMessage(ctx, user, params.message_id);
      const view = { applyMarkdown: params.apply_markdown ?? true, clientExtavatar: false };
      const message = formatMessage(ctx.db, row, view);
      return { raw_content: row.content, message: { ...message, flags: messageFlags(bits) } };
    },
  }),
  route({
    endpoint: 'POST /streams/{stream_id}/delete_topic',
    async handle({ ctx, user, params }) {
      const stream = accessStreamById(ctx, user, params.stream_id);
      const topic = params.topic_name;
      return (await deleteTopic(ctx, user, stream, topic)).complete ? undefined : PARTIALLY_COMPLETED;
    },
  }),
];
