/** GET /streams and PATCH /streams/{stream_id}. */
import {
  checkStreamDescription,
  checkStreamName,
  decodeRetention,
  decodeStreamPostPolicy,
  doUpdateStream,
  type StreamChanges,
} from '../actions/streams';
import { isAdmin } from '../db/users';
import { badRequest } from '../errors';
import type { Endpoint } from '../http';
import { queryStreams } from '../objects/streams';
import { bool, str } from '../params';

export function streamIdOf(raw: string | undefined): number {
  const id = Number(raw);
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id)) {
    throw badRequest('Invalid stream ID');
  }
  return id;
}

export const streamEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/streams',
    auth: 'user',
    handle({ ctx, user, params }) {
      const query = {
        includePublic: params.optional('include_public', bool, true),
        includeWebPublic: params.optional('include_web_public', bool, false),
        includeSubscribed: params.optional('include_subscribed', bool, true),
        includeAllActive: params.optional('include_all_active', bool, false),
        includeDefault: params.optional('include_default', bool, false),
        includeOwnerSubscribed: params.optional('include_owner_subscribed', bool, false),
      };
      if (query.includeAllActive && !isAdmin(user)) throw badRequest('User not authorized for this query');
      return { streams: queryStreams(ctx.db, user, query) };
    },
  },
  {
    method: 'PATCH',
    path: '/streams/:stream_id',
    auth: 'user',
    handle({ ctx, user, params, path }) {
      const streamId = streamIdOf(path.stream_id);
      const changes: StreamChanges = {};
      const description = params.optional('description', str);
      if (description !== undefined) changes.description = checkStreamDescription(description);
      const newName = params.optional('new_name', str);
      if (newName !== undefined) changes.newName = checkStreamName(newName);
      const flags = [
        ['is_private', 'isPrivate'],
        ['is_web_public', 'isWebPublic'],
        ['history_public_to_subscribers', 'historyPublicToSubscribers'],
        ['is_announcement_only', 'isAnnouncementOnly'],
      ] as const;
      for (const [name, key] of flags) {
        const value = params.optional(name, bool);
        if (value !== undefined) changes[key] = value;
      }
      const policy = params.optional('stream_post_policy', decodeStreamPostPolicy);
      if (policy !== undefined) changes.streamPostPolicy = policy;
      if (params.has('message_retention_days')) {
        changes.messageRetentionDays = params.required('message_retention_days', decodeRetention);
      }
      doUpdateStream(ctx, user, streamId, changes);
      return {};
    },
  },
];
