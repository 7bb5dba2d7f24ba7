/** GET /users, GET /users/{email} (or a user id), GET /users/me, POST /users; avatar images. */

import { requireRealm } from '../actions/realm';
import { checkFullName } from '../actions/settings';
import { checkCanCreateUsers, doCreateUser, isValidEmail } from '../actions/users';
import { hashPassword } from '../auth';
import type { Db } from '../db';
import { EMAIL_VISIBILITY_EVERYONE, type RealmRow } from '../db/realm';
import { getUserByEmail, getUserById, listUsers, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import type { Endpoint } from '../http';
import { escapeHtml } from '../markdown';
import {
  canAccessDeliveryEmail,
  formatOwnUser,
  formatUser,
  profileDataOf,
  type UserView,
} from '../objects/users';
import { bool, type RequestParams, str } from '../params';

const MIN_PASSWORD_LENGTH = 8;

/** The query parameters GET /users and GET /users/{email} share. */
function listView(db: Db, viewer: UserRow, realm: RealmRow, params: RequestParams): UserView {
  const clientExtavatar = params.optional('client_extavatar', bool, true);
  const includeProfile = params.optional('include_custom_profile_fields', bool, false);
  const view: UserView = { viewer, realm, clientExtavatar };
  if (includeProfile) view.profileData = profileDataOf(db, realm.id);
  return view;
}

/**
 * The user a path segment names: a user id, the display email, or (for viewers who may see
 * real addresses) the real one. Deactivated users and bots are found too.
 */
function findUser(db: Db, viewer: UserRow, realm: RealmRow, key: string): UserRow {
  let target: UserRow | undefined;
  if (/^\d+$/.test(key)) {
    target = getUserById(db, Number(key));
  } else {
    const column =
      canAccessDeliveryEmail(viewer, realm) || realm.email_address_visibility === EMAIL_VISIBILITY_EVERYONE
        ? 'delivery_email'
        : 'email';
    target = db
      .prepare(`SELECT * FROM users WHERE realm_id = ? AND (email = ? OR ${column} = ?) ORDER BY id LIMIT 1`)
      .get(realm.id, key, key) as UserRow | undefined;
  }
  if (!target || target.realm_id !== realm.id) throw badRequest('No such user');
  return target;
}

export const userEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/users/me',
    auth: 'user',
    handle({ ctx, user }) {
      return formatOwnUser(ctx.db, user, requireRealm(ctx.db));
    },
  },
  {
    method: 'GET',
    path: '/users',
    auth: 'user',
    handle({ ctx, user, params }) {
      const realm = requireRealm(ctx.db);
      const view = listView(ctx.db, user, realm, params);
      // Deactivated users too (is_active false), as in the interface family.
      return { members: listUsers(ctx.db, realm.id).map((u) => formatUser(u, view)) };
    },
  },
  {
    method: 'GET',
    path: '/users/:email',
    auth: 'user',
    handle({ ctx, user, params, path }) {
      const realm = requireRealm(ctx.db);
      const view = listView(ctx.db, user, realm, params);
      const target = findUser(ctx.db, user, realm, path.email ?? '');
      return { user: formatUser(target, view) };
    },
  },
  {
    method: 'POST',
    path: '/users',
    auth: 'user',
    async handle({ ctx, user, params }) {
      checkCanCreateUsers(user);
      const email = params.required('email', str).trim();
      const password = params.required('password', str);
      const fullName = checkFullName(params.required('full_name', str));
      if (!isValidEmail(email)) throw badRequest(`Invalid email '${email}'`);
      if (getUserByEmail(ctx.db, ctx.realmId, email)) throw badRequest(`Email '${email}' already in use`);
      if ([...password].length < MIN_PASSWORD_LENGTH || password.includes('\0'))
        throw badRequest('The password is too weak.');
      const passwordHash = await hashPassword(password);
      // doCreateUser checks the address again inside its transaction (a concurrent request).
      return { user_id: doCreateUser(ctx, { email, fullName, passwordHash }) };
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
