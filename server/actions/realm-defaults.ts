/** The organization's default settings for new users (PATCH /realm/user_settings_defaults). */
import type { SettingValue, SharedSettingName, SharedSettings } from '../../shared/protocol';
import { SHARED_SETTING_NAMES } from '../../shared/protocol';
import type { ServiceContext } from '../context';
import { realmUserSettingsDefaults, requireRealm, setRealmUserSettingsDefaults } from '../db/realm';
import { activeUserIds } from '../db/users';
import { runAction } from './transaction';

/**
 * The settings a user created now starts with: a complete copy of the organization's
 * defaults, stored with the user, so later changes of the defaults never reach them.
 */
export function newUserSettings(ctx: ServiceContext): SharedSettings {
  return realmUserSettingsDefaults(requireRealm(ctx.db));
}

/**
 * Stores the defaults that differ from the current ones, in one transaction, then tells
 * every active user of the organization, one realm_user_settings_defaults event per setting.
 */
export function doUpdateRealmUserSettingsDefaults(
  ctx: ServiceContext,
  changes: Partial<Record<SharedSettingName, SettingValue>>,
): void {
  runAction(ctx, (events) => {
    const realm = requireRealm(ctx.db);
    const current: Record<string, SettingValue> = realmUserSettingsDefaults(realm);
    const changed: [SharedSettingName, SettingValue][] = [];
    // In the table's order, whatever order the client's form had.
    for (const name of SHARED_SETTING_NAMES) {
      const value = changes[name];
      if (value !== undefined && current[name] !== value) changed.push([name, value]);
    }
    if (changed.length === 0) return;
    setRealmUserSettingsDefaults(ctx.db, realm.id, {
      ...current,
      ...Object.fromEntries(changed),
    } as SharedSettings);
    const recipients = activeUserIds(ctx.db, realm.id);
    for (const [property, value] of changed) {
      events.send({ type: 'realm_user_settings_defaults', op: 'update', property, value }, recipients);
    }
  });
}
