/** PATCH /realm/user_settings_defaults (admin): the settings new users start with. */
import { isSharedSettingName, type SettingValue, type SharedSettingName } from '../../shared/protocol';
import { doUpdateRealmUserSettingsDefaults } from '../actions/realm-defaults';
import { route } from '../http';
import { settingChanges } from './settings';

export const realmDefaultsEndpoints = [
  route({
    endpoint: 'PATCH /realm/user_settings_defaults',
    handle({ ctx, raw, params }) {
      // Only the shared table: name, email, password, language and time zone are personal.
      const { settings, ignored } = settingChanges(raw, params, isSharedSettingName);
      doUpdateRealmUserSettingsDefaults(ctx, settings as Partial<Record<SharedSettingName, SettingValue>>);
      return { ignored_parameters_unsupported: ignored };
    },
  }),
];
