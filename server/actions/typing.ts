/**
 * Typing notifications (POST /typing), as the interface family sends them: nothing is stored;
 * a `typing` event goes to the users who would receive the message being composed (for a
 * direct message the recipients, the sender among them; for a stream its subscribers, and
 * the queue passes those only to clients with the stream_typing_notifications capability).
 */
import type { ServiceContext } from '../context';
import { streamSubscriberIds } from '../db/streams';
import { readUserSettings, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { accessStreamById, accessUserById, invalidRecipientId } from './access';
import { runAction } from './transaction';

export type TypingOp = 'start' | 'stop';

export interface TypingRequest {
  /** direct and private (its older name) or stream and channel (its newer name). */
  type: 'direct' | 'private' | 'stream' | 'channel';
  op: TypingOp;
  to: number[] | undefined;
  streamId: number | undefined;
  topic: string | undefined;
}

/** Who is typing, or typed to, as the event names them. */
const person = (user: UserRow) => ({ user_id: user.id, email: user.email });

/** The stream being typed to: `stream_id`, or the single stream id `to` held before it. */
function streamIdOf(request: TypingRequest): number {
  if (request.streamId !== undefined) return request.streamId;
  if (request.to?.length === 1 && request.to[0] !== undefined) return request.to[0];
  throw badRequest('Missing channel ID');
}

function sendStreamTyping(ctx: ServiceContext, sender: UserRow, request: TypingRequest): void {
  const streamId = streamIdOf(request);
  if (request.topic === undefined) throw badRequest('Missing topic');
  if (!readUserSettings(sender).send_stream_typing_notifications) {
    throw badRequest('User has disabled typing notifications for channel messages');
  }
  const stream = accessStreamById(ctx, sender, streamId);
  const event = {
    type: 'typing',
    op: request.op,
    message_type: 'stream',
    sender: person(sender),
    stream_id: stream.id,
    topic: request.topic,
  };
  runAction(ctx, (events) => events.send(event, streamSubscriberIds(ctx.db, stream.id)));
}

function sendDirectTyping(ctx: ServiceContext, sender: UserRow, request: TypingRequest): void {
  if (request.to === undefined) throw badRequest("Missing 'to' argument");
  if (request.to.length === 0) throw badRequest("Empty 'to' list");
  if (!readUserSettings(sender).send_private_typing_notifications) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  // One bad id refuses the whole request: a partial list would name another conversation.
  const ids = [...new Set([...request.to, sender.id])];
  const recipients = ids.map((id) =>
    id === sender.id
      ? sender
      : accessUserById(ctx, id, { allowDeactivated: true, error: invalidRecipientId }),
  );
  const event = {
    type: 'typing',
    op: request.op,
    // The family's name for it at our feature level (`direct` from 215 on).
    message_type: 'private',
    sender: person(sender),
    recipients: recipients.map(person),
  };
  const notified = recipients.filter((u) => u.is_active === 1 && u.is_bot === 0).map((u) => u.id);
  runAction(ctx, (events) => events.send(event, notified));
}

/** POST /typing. */
export function doSendTypingNotification(ctx: ServiceContext, sender: UserRow, request: TypingRequest): void {
  if (request.type === 'stream' || request.type === 'channel') sendStreamTyping(ctx, sender, request);
  else sendDirectTyping(ctx, sender, request);
}
