/** GET, POST /scheduled_messages and PATCH, DELETE /scheduled_messages/{scheduled_message_id}. */
import { editScheduledMessage, scheduleMessage, unscheduleMessage } from '../actions/scheduled-messages';
import { pendingScheduledMessages } from '../db/scheduled-messages';
import { formatScheduledMessage } from '../formats/scheduled-messages';
import { route } from '../http';
import { readJson } from '../params/json';
import { actionRoute } from './shapes';

interface ScheduleParams {
  type?: string | undefined;
  to?: string | undefined;
  topic?: string | undefined;
  content?: string | undefined;
  scheduled_delivery_timestamp?: number | undefined;
}

/** The parameters of a create or an edit as the action takes them (required ones stay required). */
function requestOf<P extends ScheduleParams>(params: P) {
  const to = params.to === undefined ? undefined : { text: params.to, json: readJson(params.to) };
  return {
    type: params.type as P['type'],
    to: to as P['to'] extends string ? NonNullable<typeof to> : typeof to,
    topic: params.topic,
    content: params.content as P['content'],
    scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp as P['scheduled_delivery_timestamp'],
  };
}

export const scheduledMessageEndpoints = [
  route({
    endpoint: 'GET /scheduled_messages',
    handle({ ctx, user }) {
      return { scheduled_messages: pendingScheduledMessages(ctx.db, user.id).map(formatScheduledMessage) };
    },
  }),
  route({
    endpoint: 'POST /scheduled_messages',
    handle({ ctx, user, params }) {
      return { scheduled_message_id: scheduleMessage(ctx, user, requestOf(params), params.read_by_sender) };
    },
  }),
  actionRoute('PATCH /scheduled_messages/{scheduled_message_id}', ({ ctx, user, params }) =>
    editScheduledMessage(ctx, user, params.scheduled_message_id, requestOf(params)),
  ),
  actionRoute('DELETE /scheduled_messages/{scheduled_message_id}', ({ ctx, user, params }) =>
    unscheduleMessage(ctx, user, params.scheduled_message_id),
  ),
];
