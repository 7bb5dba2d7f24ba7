/**
 * Browser mode, assembled: the profile's 0600 secrets file, the electron/core services, and
 * the host that serves the renderer and the WebSocket bridge. What the launcher calls.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createCore } from '../core';
import { FileSecretStore } from '../core/secrets';
import { type BrowserHost, startBrowserHost } from './browser-host';

export interface BrowserAppOptions {
  /** The app's own data: accounts, secrets, drafts. */
  profileDir: string;
  rendererDir: string;
  appVersion: string;
  /** The server the sign-in screen is prefilled with. */
  defaultServerUrl: string | null;
  demoCredentialsFile?: string | null;
  /** The page's port; 0 (the default) for a free one. */
  port?: number;
  secret?: string;
}

export interface BrowserApp {
  /** http://127.0.0.1:PORT/?token=SECRET */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function startBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  await mkdir(options.profileDir, { recursive: true, mode: 0o700 });
  // The core needs the trust check before the host exists; the host needs the core.
  let host: BrowserHost | null = null;
  const core = createCore({
    profileDir: options.profileDir,
    secretStore: new FileSecretStore(path.join(options.profileDir, 'secrets.json')),
    mode: 'browser',
    appVersion: options.appVersion,
    defaultServerUrl: options.defaultServerUrl,
    demoCredentialsFile: options.demoCredentialsFile ?? null,
    isTrustedSender: (sender) => host?.isTrustedSender(sender) ?? false,
  });
  await core.start();
  try {
    host = await startBrowserHost({
      core,
      rendererDir: options.rendererDir,
      host: '127.0.0.1',
      port: options.port ?? 0,
      ...(options.secret === undefined ? {} : { secret: options.secret }),
    });
  } catch (error) {
    await core.stop();
    throw error;
  }
  const started = host;
  return {
    url: started.url,
    port: started.port,
    async close() {
      await started.close();
      await core.stop();
    },
  };
}
