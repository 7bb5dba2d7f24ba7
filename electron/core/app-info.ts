/**
 * What the app says about itself (`app.getInfo`): its mode and version, the server the sign-in
 * screen is prefilled with, and the embedded demo server's accounts offered as shortcuts there.
 * Read from the options and, for the demo accounts, from the embedded server's own file.
 */
import { z } from 'zod';
import type { AppInfo, DemoLogin } from '../../shared/ipc';
import { normalizeServerUrl } from './accounts';
import { readTextIfExists } from './files';

export interface AppInfoOptions {
  mode: AppInfo['mode'];
  appVersion: string;
  defaultServerUrl: string | null;
  /** The embedded server's demo-credentials.json (see CoreOptions). */
  demoCredentialsFile?: string | null;
  secretStorageEncrypted: boolean;
}

/** Roles of demo-credentials.json, in the order the sign-in screen offers them. */
const DEMO_ROLES = ['owner', 'admin', 'moderator', 'alice', 'bob', 'guest'] as const;

const demoCredentialsSchema = z.looseObject({
  url: z.string(),
  password: z.string(),
  users: z.looseObject(
    Object.fromEntries(DEMO_ROLES.map((r) => [r, z.string()])) as Record<
      (typeof DEMO_ROLES)[number],
      z.ZodString
    >,
  ),
});

export async function appInfo(options: AppInfoOptions): Promise<AppInfo> {
  return {
    mode: options.mode,
    appVersion: options.appVersion,
    defaultServerUrl: options.defaultServerUrl,
    demoLogins: await demoLogins(options),
    secretStorageEncrypted: options.secretStorageEncrypted,
  };
}

/** The demo accounts, when the credentials file belongs to the server the app is prefilled with. */
async function demoLogins(options: AppInfoOptions): Promise<DemoLogin[]> {
  const file = options.demoCredentialsFile;
  if (!file || !options.defaultServerUrl) return [];
  try {
    const text = await readTextIfExists(file);
    if (text === null) return [];
    const demo = demoCredentialsSchema.parse(JSON.parse(text));
    if (normalizeServerUrl(demo.url) !== normalizeServerUrl(options.defaultServerUrl)) return [];
    return DEMO_ROLES.map((role) => ({ role, email: demo.users[role], password: demo.password }));
  } catch {
    // A missing or foreign file only means no demo shortcuts on the sign-in screen.
    return [];
  }
}
