/**
 * Posting what an integration produced, as the interface family does: to the `stream`
 * parameter's stream (by id or name) under the integration's topic or the `topic` parameter,
 * or privately to the bot's owner without a stream. A stream that does not exist is not an
 * error for the sender: the bot's owner gets a notice instead.
 */
import { sendMessageIn } from '../actions/messages';
import { runAction } from '../actions/transaction';
import type { ServiceContext } from '../context';
import { type StreamRow, streamSubscriberIds } from '../db/streams';
import type { UserRow } from '../db/users';
import { ApiFailure, badRequest, missingArgument } from '../errors';
import type { RequestParams } from '../params';
import type { Integration, WebhookMessage } from './types';

/** The integration's declared options from the query, validated; undeclared ones are ignored. */
export function resolveConfig(integration: Integration, params: RequestParams): Record<string, string> {
  const config: Record<string, string> = {};
  for (const option of integration.config ?? []) {
    const raw = params.raw(option.key);
    if (raw === undefined) {
      if (option.required) throw missingArgument(option.key);
      continue;
    }
    const checked = option.validate(raw);
    if ('error' in checked) throw badRequest(checked.error);
    config[option.key] = checked.value;
  }
  return config;
}

/** Digits name a stream by id (as the family reads `stream`), anything else by name. */
function streamRef(stream: string): number | string {
  return /^[0-9]{1,15}$/.test(stream) ? Number(stream) : stream;
}

export function postWebhookMessage(
  ctx: ServiceContext,
  bot: UserRow,
  integration: Integration,
  target: { stream: string | undefined; topic: string | undefined },
  message: WebhookMessage,
): void {
  const client = `Confab${integration.displayName}Webhook`;
  const ownerId = bot.bot_owner_id;
  runAction(ctx, (events) => {
    const toOwner = (content: string) => {
      if (ownerId === null) throw badRequest('This bot has no owner to send messages to.');
      // No notification bot exists in this service: the webhook bot tells its owner itself.
      sendMessageIn(ctx, events, {
        senderId: bot.id,
        to: { type: 'private', users: [ownerId] },
        content,
        client,
        internal: true,
      });
    };
    if (target.stream === undefined || target.stream === '') {
      toOwner(message.content);
      return;
    }
    const ref = streamRef(target.stream);
    const identity = `\`${bot.delivery_email}\``;
    let stream: StreamRow;
    try {
      const sent = sendMessageIn(ctx, events, {
        senderId: bot.id,
        to: { type: 'stream', stream: ref, topic: target.topic ?? message.topic },
        content: message.content,
        client,
      });
      if (!sent.stream) throw new Error('a stream message without its stream');
      stream = sent.stream;
    } catch (error) {
      if (!(error instanceof ApiFailure && error.code === 'STREAM_DOES_NOT_EXIST')) throw error;
      toOwner(
        typeof ref === 'number'
          ? `Your bot ${identity} tried to send a message to stream ID ${ref}, but there is no stream with that ID.`
          : `Your bot ${identity} tried to send a message to stream #**${ref}**, but that stream does not exist. Click [here](#streams/new) to create it.`,
      );
      return;
    }
    if (streamSubscriberIds(ctx.db, stream.id).length === 0) {
      toOwner(
        `Your bot ${identity} tried to send a message to stream #**${stream.name}**. The stream exists but does not have any subscribers.`,
      );
    }
  });
}
