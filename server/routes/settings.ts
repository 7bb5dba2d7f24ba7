/** PATCH /settings: the user's own settings, name and password. */
import { ALL_SETTINGS, isSettingName, type SettingValue } from '../../shared/protocol';
import { checkFullName, checkSetting, doUpdateSettings, type SettingsChanges } from '../actions/settings';
import { hashPassword, verifyPassword } from '../auth';
import { badRequest, missingArgument } from '../errors';
import type { Endpoint } from '../http';
import { parseJsonText } from '../params';

/** Parameters of PATCH /settings that are not settings of the shared table. */
const PROFILE_PARAMS = new Set(['full_name', 'email', 'old_password', 'new_password']);
const MIN_PASSWORD_LENGTH = 8;

/** Strings travel bare; every other kind is JSON text (spec Conventions). */
function decodeSetting(name: string, raw: string): unknown {
  const kind = ALL_SETTINGS[name as keyof typeof ALL_SETTINGS].type.kind;
  return kind === 'string' || kind === 'str-enum' ? raw : parseJsonText(name, raw);
}

export const settingsEndpoints: Endpoint[] = [
  {
    method: 'PATCH',
    path: '/settings',
    auth: 'user',
    async handle({ ctx, user, params }) {
      // Validate everything first: one bad value rejects the request and changes nothing.
      const settings: SettingsChanges = {};
      const ignored: string[] = [];
      for (const name of params.names()) {
        if (PROFILE_PARAMS.has(name)) continue;
        if (!isSettingName(name)) {
          ignored.push(name);
          continue;
        }
        const value = decodeSetting(name, params.raw(name) ?? '');
        const error = checkSetting(name, value);
        if (error !== null) throw badRequest(error);
        settings[name] = value as SettingValue;
      }

      const fullName = params.has('full_name') ? checkFullName(params.raw('full_name') ?? '') : undefined;

      const email = params.raw('email');
      if (email !== undefined && email.toLowerCase() !== user.email.toLowerCase()) {
        // Needs a confirmation link sent to the new address; this server sends no email yet.
        throw badRequest('Email address changes are not supported by this server.');
      }

      let passwordHash: string | undefined;
      const newPassword = params.raw('new_password');
      if (newPassword !== undefined && newPassword !== '') {
        const oldPassword = params.raw('old_password');
        if (oldPassword === undefined) throw missingArgument('old_password');
        if (!(await verifyPassword(oldPassword, user.password_hash))) throw badRequest('Wrong password!');
        if ([...newPassword].length < MIN_PASSWORD_LENGTH) throw badRequest('New password is too weak!');
        passwordHash = await hashPassword(newPassword);
      }

      doUpdateSettings(ctx, user.id, { settings, fullName, passwordHash });
      return { ignored_parameters_unsupported: ignored };
    },
  },
];
