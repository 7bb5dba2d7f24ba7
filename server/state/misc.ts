/** register's state for drafts, user groups and code playgrounds. */
import type { ServiceContext } from '../context';
import { listPlaygrounds, listUserGroups } from '../db/realm-data';
import { listDraftsNewestFirst } from '../db/user-data';
import { readUserSettings, type UserRow } from '../db/users';

export function miscState(
  ctx: ServiceContext,
  user: UserRow,
  want: (type: string) => boolean,
  _options: Record<string, unknown> = {},
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  if (want('drafts')) {
    // Drafts stay on the server only while synchronization is on (turning it off deletes them).
    state.drafts = readUserSettings(user).enable_drafts_synchronization
      ? listDraftsNewestFirst(ctx.db, user.id)
      : [];
  }
  if (want('realm_user_groups')) state.realm_user_groups = listUserGroups(ctx.db, ctx.realmId);
  if (want('realm_playgrounds')) state.realm_playgrounds = listPlaygrounds(ctx.db, ctx.realmId);
  return state;
}
