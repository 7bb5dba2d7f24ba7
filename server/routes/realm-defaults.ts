/** PATCH /realm/user_settings_defaults (admin): the settings new users start with. */
import { isSharedSettingName, type SettingValue, type SharedSettingName } from '../../shared/protocol';
import { doUpdateRealmUserSettingsDefaults } from '../actions/realm-defaults';
import { requireAdmin } from '../actions/users';
import type { Endpoint } from '../http';
import { parseSettingParams } from './settings';

export const realmDefaultsEndpoints: Endpoint[] = [
  {
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'user',
    handle({ ctx, user, params }) {
      requireAdmin(user);
      // Only the shared table: name, email, password, language and time zone are personal.
      const { settings, ignored } = parseSettingParams(params, isSharedSettingName);
      doUpdateRealmUserSettingsDefaults(ctx, settings as Partial<Record<SharedSettingName, SettingValue>>);
      return { ignored_parameters_unsupported: ignored };
    },
  },
];
