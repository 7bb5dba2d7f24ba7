/**
 * Custom emoji: GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name}, and the page
 * serving their images, /user_uploads/emoji/{emoji_id}/{filename} (the address register's
 * realm_emoji gives, server/emoji.ts).
 */
import {
  doAddRealmEmoji,
  doRemoveRealmEmoji,
  MAX_EMOJI_FILE_SIZE_MIB,
  realmEmojiImage,
} from '../actions/realm-emoji';
import { realmEmojiState } from '../emoji';
import { ApiFailure } from '../errors';
import { route } from '../http';
import { fileHeaders } from '../uploads';
import { actionRoute, realmListRoute } from './shapes';

export const realmEmojiEndpoints = [
  realmListRoute('GET /realm/emoji', 'emoji', realmEmojiState),
  route({
    endpoint: 'POST /realm/emoji/{emoji_name}',
    maxFileBytes: MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024,
    async handle({ ctx, user, params, files }) {
      await doAddRealmEmoji(ctx, user, params.emoji_name, files);
      return undefined;
    },
  }),
  actionRoute('DELETE /realm/emoji/{emoji_name}', ({ ctx, user, params }) =>
    doRemoveRealmEmoji(ctx, user, params.emoji_name),
  ),
];

export const realmEmojiPageEndpoints = [
  route({
    endpoint: 'GET /user_uploads/emoji/{emoji_id}/{filename}',
    async handle({ ctx, params, reply }) {
      const id = Number(params.emoji_id);
      if (!/^\d{1,15}$/.test(params.emoji_id)) throw new ApiFailure(404, 'NOT_FOUND', 'File not found');
      const { data, contentType } = await realmEmojiImage(ctx, id, params.filename);
      // Public: emoji show for every viewer, spectators included.
      reply.headers({
        ...fileHeaders(contentType, params.filename),
        'Cache-Control': 'public, max-age=86400',
      });
      reply.send(data);
      return undefined;
    },
  }),
];
