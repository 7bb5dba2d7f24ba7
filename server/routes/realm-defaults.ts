/** PATCH /realm/user_settings_defaults (admin): the settings new users start with. */
import { isSharedSettingName, type SettingValue, type SharedSettingName } from '../../shared/protocol';
import { doUpdateRealmUserSettingsDefaults } from '../actions/realm-defaults';
import { isAdmin } from '../db/users';
import { ApiFailure } from '../errors';
import type { Endpoint } from '../http';
import { parseSettingParams } from './settings';

export const realmDefaultsEndpoints: Endpoint[] = [
  {
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'user',
    handle({ ctx, user, params }) {
      if (!isAdmin(user))
        throw new ApiFailure(400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      // Only the shared table: name, email, password, language and time zone are personal.
      const { settings, ignored } = parseSettingParams(params, isSharedSettingName);
      doUpdateRealmUserSettingsDefaults(ctx, settings as Partial<Record<SharedSettingName, SettingValue>>);
      return { ignored_parameters_unsupported: ignored };
    },
  },
];
