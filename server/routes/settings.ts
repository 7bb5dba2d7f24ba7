/**
 * PATCH /settings (and its deprecated aliases): the user's own settings, name, email and
 * password; the page an email-change confirmation link opens.
 */
import { isSettingName, type SettingName, type SettingValue } from '../../shared/protocol';
import {
  checkFullName,
  checkNewEmail,
  checkSetting,
  doConfirmEmailChange,
  doUpdateSettings,
  type SettingsChanges,
} from '../actions/settings';
import { hashPassword, PASSWORD_MIN_LENGTH, verifyPassword } from '../auth';
import { badRequest, missingArgument } from '../errors';
import { type RouteRequest, route } from '../http';
import { escapeHtml } from '../markdown';
import type { RequestParams } from '../params';
import {
  checkEmailChangeAllowed,
  loginRetryAfter,
  recordEmailChange,
  recordLoginFailure,
} from '../ratelimit';

/** Parameters of PATCH /settings that are not settings of the tables. */
const PROFILE_PARAMS = new Set(['full_name', 'email', 'old_password', 'new_password']);

/**
 * The settings a request changes, in request order: the router decoded each and checked it
 * against the settings table; checkSetting adds what the table cannot know (time zones,
 * languages, sounds). Names that `accepts` refuses (besides `skip`) are reported as ignored.
 * The first bad value rejects the whole request.
 */
export function settingChanges(
  raw: RequestParams,
  params: Readonly<Record<string, unknown>>,
  accepts: (name: string) => name is SettingName,
  skip: ReadonlySet<string> = new Set(),
): { settings: SettingsChanges; ignored: string[] } {
  const settings: SettingsChanges = {};
  const ignored: string[] = [];
  for (const name of raw.names()) {
    if (skip.has(name)) continue;
    if (!accepts(name)) {
      ignored.push(name);
      continue;
    }
    const value = params[name];
    const error = checkSetting(name, value);
    if (error !== null) throw badRequest(error);
    settings[name] = value as SettingValue;
  }
  return { settings, ignored };
}

async function updateSettings({ ctx, user, raw, params }: RouteRequest<'PATCH /settings'>) {
  // Validate everything first: one bad value rejects the request and changes nothing.
  const { settings, ignored } = settingChanges(raw, params, isSettingName, PROFILE_PARAMS);
  const fullName = params.full_name === undefined ? undefined : checkFullName(params.full_name);
  const { email } = params;
  const newEmail = email === undefined ? undefined : checkNewEmail(ctx, user, email);
  if (newEmail !== undefined) checkEmailChangeAllowed(ctx.rateLimits, user.id);

  let passwordHash: string | undefined;
  const newPassword = params.new_password;
  if (newPassword !== undefined && newPassword !== '') {
    const oldPassword = params.old_password;
    if (oldPassword === undefined) throw missingArgument('old_password');
    // The old password is a login credential: wrong guesses count against the same
    // per-username limit as POST /fetch_api_key (the family's rule and text).
    const wait = loginRetryAfter(ctx.rateLimits, user.delivery_email);
    if (wait > 0) throw badRequest(`You're making too many attempts! Try again in ${wait} seconds.`);
    if (!(await verifyPassword(oldPassword, user.password_hash))) {
      recordLoginFailure(ctx.rateLimits, user.delivery_email);
      throw badRequest('Wrong password!');
    }
    if ([...newPassword].length < PASSWORD_MIN_LENGTH) throw badRequest('New password is too weak!');
    passwordHash = await hashPassword(newPassword);
  }

  doUpdateSettings(ctx, user.id, { settings, fullName, passwordHash, newEmail });
  if (newEmail !== undefined) recordEmailChange(ctx.rateLimits, user.id);
  return { ignored_parameters_unsupported: ignored };
}

export const settingsEndpoints = [
  route({ endpoint: 'PATCH /settings', handle: updateSettings }),
  // Deprecated aliases since feature level 80, still accepted (spec Versioning).
  route({ endpoint: 'PATCH /settings/display', handle: updateSettings }),
  route({ endpoint: 'PATCH /settings/notifications', handle: updateSettings }),
];

function page(title: string, text: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>` +
    `<p>${escapeHtml(text)}</p></body></html>`
  );
}

/** Pages outside /api/v1 that people open in a browser from an email. */
export const accountPageEndpoints = [
  route({
    endpoint: 'GET /accounts/confirm_new_email/{key}',
    handle({ ctx, params, reply, http }) {
      // Link checkers send HEAD: only a real visit may use the link up.
      if (http.method === 'HEAD') {
        reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send('');
        return undefined;
      }
      const outcome = doConfirmEmailChange(ctx, params.key, Math.floor(Date.now() / 1000));
      reply
        .status(outcome.ok ? 200 : outcome.status)
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        // The key is in the URL: links on the page must not carry it on as a Referer.
        .header('Referrer-Policy', 'no-referrer')
        .send(
          outcome.ok
            ? page('Email address changed', `Your email address is now ${outcome.email}.`)
            : page('Email address not changed', outcome.message),
        );
      return undefined;
    },
  }),
];
