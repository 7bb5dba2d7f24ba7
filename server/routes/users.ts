/**
 * GET /users, GET /users/{email} (or a user id), GET /users/me, POST /users; an
 * administrator's PATCH, DELETE and reactivation of /users/{user_id}; avatar images.
 */
import type { ParamsOf, Role } from '../../shared/protocol';
import { accessUserById, accessUserFor, noSuchUser } from '../actions/access';
import { checkFullName } from '../actions/settings';
import {
  doCreateUser,
  doDeactivateUser,
  doReactivateUser,
  doUpdateUser,
  isValidEmail,
} from '../actions/users';
import { hashPassword, PASSWORD_MIN_LENGTH } from '../auth';
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { EMAIL_VISIBILITY, type RealmRow, requireRealm } from '../db/realm';
import { userStatuses } from '../db/user-data';
import { botsOwnedBy, getUserByDisplayEmail, getUserByEmail, listUsers, type UserRow } from '../db/users';
import { ApiFailure, badRequest } from '../errors';
import { formatBot, formatUser, ownUserJson, profileDataOf, type UserView } from '../formats/users';
import { route, sendSuccessJson } from '../http';
import { escapeHtml } from '../markdown';
import { canAccessDeliveryEmail } from '../permissions';
import { actionRoute } from './shapes';

/** The query parameters GET /users and GET /users/{email} share. */
function listView(db: Db, viewer: UserRow, realm: RealmRow, params: ParamsOf<'GET /users'>): UserView {
  const view: UserView = { viewer, realm, clientExtavatar: params.client_extavatar ?? true };
  if (params.include_custom_profile_fields) view.profileData = profileDataOf(db, realm.id);
  return view;
}

/**
 * The user a path segment names: a user id, the display email, or (for viewers who may see
 * real addresses) the real one. Deactivated users and bots are found too.
 */
function findUser(ctx: ServiceContext, viewer: UserRow, realm: RealmRow, key: string): UserRow {
  if (/^\d+$/.test(key)) return accessUserById(ctx, Number(key), { allowDeactivated: true });
  const byRealAddress =
    canAccessDeliveryEmail(viewer, realm) || realm.email_address_visibility === EMAIL_VISIBILITY.everyone;
  const target = byRealAddress
    ? getUserByEmail(ctx.db, realm.id, key)
    : getUserByDisplayEmail(ctx.db, realm.id, key);
  if (!target) throw noSuchUser();
  return target;
}

export const userEndpoints = [
  route({
    endpoint: 'GET /users/me',
    // Authentication and the reads (the organization, the newest message, the profile) under
    // one read lock.
    readsOnly: true,
    handle({ ctx, user, reply }) {
      sendSuccessJson(reply, ownUserJson(ctx.db, user, requireRealm(ctx.db)));
      return undefined;
    },
  }),
  route({
    endpoint: 'GET /users',
    handle({ ctx, user, params }) {
      const realm = requireRealm(ctx.db);
      const view = listView(ctx.db, user, realm, params);
      // Deactivated users too (is_active false), as in the interface family.
      return { members: listUsers(ctx.db, realm.id).map((u) => formatUser(u, view)) };
    },
  }),
  route({
    endpoint: 'GET /users/{email}',
    handle({ ctx, user, params }) {
      const realm = requireRealm(ctx.db);
      const view = listView(ctx.db, user, realm, params);
      const target = findUser(ctx, user, realm, params.email);
      return { user: formatUser(target, view) };
    },
  }),
  route({
    endpoint: 'POST /users',
    async handle({ ctx, params }) {
      const email = params.email.trim();
      const { password } = params;
      const fullName = checkFullName(params.full_name);
      if (!isValidEmail(email)) throw badRequest(`Invalid email '${email}'`);
      if (getUserByEmail(ctx.db, ctx.realmId, email)) throw badRequest(`Email '${email}' already in use`);
      if ([...password].length < PASSWORD_MIN_LENGTH || password.includes('\0'))
        throw badRequest('The password is too weak.');
      const passwordHash = await hashPassword(password);
      // doCreateUser checks the address again inside its transaction (a concurrent request).
      return { user_id: doCreateUser(ctx, { email, fullName, passwordHash }) };
    },
  }),
];

/** Administration of other users (issue 8). */
export const userAdminEndpoints = [
  actionRoute('PATCH /users/{user_id}', ({ ctx, user, params }) =>
    doUpdateUser(ctx, user, params.user_id, {
      fullName: params.full_name,
      // The catalogue's int-enum lets through only the roles' values.
      role: params.role as Role | undefined,
      profileData: params.profile_data,
    }),
  ),
  actionRoute('DELETE /users/{user_id}', ({ ctx, user, params }) =>
    doDeactivateUser(ctx, user, params.user_id, params.deactivation_notification_comment),
  ),
  actionRoute('POST /users/{user_id}/reactivate', ({ ctx, user, params }) =>
    doReactivateUser(ctx, user, params.user_id),
  ),
];

/** GET /users/{user_id}/status: what register's user_status holds for one active user. */
export const userStatusEndpoints = [
  route({
    endpoint: 'GET /users/{user_id}/status',
    handle({ ctx, user, params }) {
      const target = accessUserFor(ctx, user, params.user_id);
      return { status: userStatuses(ctx.db, ctx.realmId)[String(target.id)] ?? {} };
    },
  }),
];

/** GET /bots: the requester's active bots, in the family's shape (plus user_id). */
export const botEndpoints = [
  route({
    endpoint: 'GET /bots',
    handle({ ctx, user }) {
      const bots = botsOwnedBy(ctx.db, user.id).filter((bot) => bot.is_active === 1);
      return { bots: bots.map(botInfo) };
    },
  }),
];

function botInfo(bot: UserRow) {
  const { email, ...rest } = formatBot(bot);
  return {
    username: email,
    user_id: rest.user_id,
    full_name: rest.full_name,
    api_key: rest.api_key,
    avatar_url: rest.avatar_url,
    default_sending_stream: rest.default_sending_stream,
    default_events_register_stream: rest.default_events_register_stream,
    default_all_public_streams: rest.default_all_public_streams,
  };
}

/** Outside /api/v1, as in the interface family: `/avatar/{user_id}`. */
export const avatarEndpoints = [
  route({
    endpoint: 'GET /avatar/{user_id}',
    handle({ ctx, params, reply }) {
      const id = Number(params.user_id);
      const notFound = () => new ApiFailure(404, 'NOT_FOUND', 'User not found');
      if (!Number.isSafeInteger(id)) throw notFound();
      const target = accessUserById(ctx, id, { allowDeactivated: true, error: notFound });
      reply
        .type('image/svg+xml')
        .header('Cache-Control', 'private, max-age=86400')
        .send(initialsAvatar(target.id, target.full_name));
      return undefined;
    },
  }),
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
