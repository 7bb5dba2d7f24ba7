/** GET /users/me, and the avatar images that avatar_url points to. */
import { getRealm } from '../db/realm';
import { getUserById } from '../db/users';
import { ApiFailure } from '../errors';
import type { Endpoint } from '../http';
import { escapeHtml } from '../markdown';
import { formatOwnUser } from '../objects/users';

export const userEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/users/me',
    auth: 'user',
    handle({ ctx, user }) {
      const realm = getRealm(ctx.db);
      if (!realm) throw new Error('No realm');
      return formatOwnUser(ctx.db, user, realm);
    },
  },
];

/** Outside /api/v1, as in the interface family: `/avatar/{user_id}`. */
export const avatarEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/avatar/:user_id',
    auth: 'user',
    handle({ ctx, path, reply }) {
      const id = Number(path.user_id);
      const target = Number.isSafeInteger(id) ? getUserById(ctx.db, id) : undefined;
      if (!target || target.realm_id !== ctx.realmId)
        throw new ApiFailure(404, 'NOT_FOUND', 'User not found');
      reply
        .type('image/svg+xml')
        .header('Cache-Control', 'private, max-age=86400')
        .send(initialsAvatar(target.id, target.full_name));
      return undefined;
    },
  },
];

/** A generated avatar: the name's initials on a color picked from the user id. */
function initialsAvatar(userId: number, name: string): string {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => [...part][0]?.toUpperCase() ?? '')
    .join('');
  const hue = (userId * 137) % 360;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">' +
    `<rect width="100" height="100" fill="hsl(${hue}, 45%, 45%)"/>` +
    '<text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-size="42" fill="#fff">' +
    `${escapeHtml(initials)}</text></svg>`
  );
}
