/**
 * register's state for the smaller areas: alert words, topic visibility, muted users, drafts, user groups
 * and code playgrounds.
 */
import { listLinkifiers } from '../../db/linkifiers';
import { mutedUsers } from '../../db/muted-users';
import { listPlaygrounds, listUserGroups } from '../../db/realm-data';
import { alertWords, listDraftsNewestFirst, userTopics } from '../../db/user-data';
import { readUserSettings } from '../../db/users';
import type { AreaRequest, State } from './index';
import { roster } from './roster';
import { RawJson, sharedPart } from './shared';

export function miscState({ ctx, user, want }: AreaRequest): State {
  const state: State = {};
  if (want('alert_words')) state.alert_words = alertWords(ctx.db, user.id);
  if (want('user_topic')) state.user_topics = userTopics(ctx.db, user.id);
  if (want('muted_users')) state.muted_users = mutedUsers(ctx.db, user.id);
  if (want('drafts')) {
    // Drafts stay on the server only while synchronization is on (turning it off deletes them).
    state.drafts = readUserSettings(user).enable_drafts_synchronization
      ? listDraftsNewestFirst(ctx.db, user.id)
      : [];
  }
  if (want('realm_user_groups')) {
    // Kept between registers (./shared.ts): system groups list nearly everyone, whom the
    // roster knows already.
    const key = `realm_user_groups:${ctx.realmId}`;
    const writes = ['users', 'user_groups', 'user_group_members'] as const;
    const build = () =>
      new RawJson(
        JSON.stringify(listUserGroups(ctx.db, ctx.realmId, roster(ctx.db, ctx.realmId).activeHumanRoles())),
      );
    state.realm_user_groups = sharedPart(ctx.db, key, writes, build);
  }
  if (want('realm_playgrounds')) state.realm_playgrounds = listPlaygrounds(ctx.db, ctx.realmId);
  if (want('realm_linkifiers')) state.realm_linkifiers = listLinkifiers(ctx.db, ctx.realmId);
  return state;
}
