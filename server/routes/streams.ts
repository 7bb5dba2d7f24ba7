/**
 * GET /streams and PATCH /streams/{stream_id}; beyond the spec, DELETE /streams/{stream_id}
 * (archive), GET /streams/{stream_id}/members and GET /get_stream_id.
 */
import {
  checkStreamDescription,
  checkStreamName,
  doArchiveStream,
  doUpdateStream,
  type StreamChanges,
  streamIdByName,
  streamMembers,
} from '../actions/streams';
import { badRequest } from '../errors';
import { queryStreams } from '../formats/streams';
import { route } from '../http';
import { isAdmin } from '../permissions';
import { actionRoute, fieldRoute } from './shapes';

export const streamEndpoints = [
  route({
    endpoint: 'GET /streams',
    handle({ ctx, user, params }) {
      const query = {
        includePublic: params.include_public ?? true,
        includeWebPublic: params.include_web_public ?? false,
        includeSubscribed: params.include_subscribed ?? true,
        includeAllActive: params.include_all_active ?? false,
        includeDefault: params.include_default ?? false,
        includeOwnerSubscribed: params.include_owner_subscribed ?? false,
      };
      if (query.includeAllActive && !isAdmin(user)) throw badRequest('User not authorized for this query');
      return { streams: queryStreams(ctx.db, user, query) };
    },
  }),
  route({
    endpoint: 'PATCH /streams/{stream_id}',
    handle({ ctx, user, params }) {
      const changes: StreamChanges = {};
      const { description, new_name: newName } = params;
      if (description !== undefined) changes.description = checkStreamDescription(description);
      if (newName !== undefined) changes.newName = checkStreamName(newName);
      const flags = [
        ['is_private', 'isPrivate'],
        ['is_web_public', 'isWebPublic'],
        ['history_public_to_subscribers', 'historyPublicToSubscribers'],
        ['is_announcement_only', 'isAnnouncementOnly'],
      ] as const;
      for (const [name, key] of flags) {
        const value = params[name];
        if (value !== undefined) changes[key] = value;
      }
      const { stream_post_policy: policy, message_retention_days: retention } = params;
      if (policy !== undefined) changes.streamPostPolicy = policy;
      // null is a value here: the organization's default.
      if (retention !== undefined) changes.messageRetentionDays = retention;
      doUpdateStream(ctx, user, params.stream_id, changes);
      return {};
    },
  }),
];

/** Beyond the spec (issue 8): archiving a stream, its subscribers, and finding one by name. */
export const streamBeyondSpecEndpoints = [
  actionRoute('DELETE /streams/{stream_id}', ({ ctx, user, params }) =>
    doArchiveStream(ctx, user, params.stream_id),
  ),
  fieldRoute('GET /streams/{stream_id}/members', 'subscribers', ({ ctx, user, params }) =>
    streamMembers(ctx, user, params.stream_id),
  ),
  fieldRoute('GET /get_stream_id', 'stream_id', ({ ctx, user, params }) =>
    streamIdByName(ctx, user, params.stream),
  ),
];
