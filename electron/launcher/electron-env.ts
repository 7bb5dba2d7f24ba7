/**
 * The launcher -> Electron main contract: `npm start` runs Electron with these environment
 * variables (argv is Chromium's too), and electron/main reads them. A packaged app started
 * without the launcher has none of them and falls back to its own defaults.
 */
export const ELECTRON_ENV = {
  serverUrl: 'CONFAB_SERVER_URL',
  profileDir: 'CONFAB_PROFILE_DIR',
  demoCredentialsFile: 'CONFAB_DEMO_CREDENTIALS_FILE',
} as const;
