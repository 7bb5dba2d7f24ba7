import { chromium, defineConfig } from '@playwright/test';
import { findChromium, isExecutableFile } from './scripts/chromium';

// End-to-end: the real renderer in Chromium (browser mode) against a real server.
// `npm run test:e2e` first makes sure a browser exists (scripts/ensure-chromium.ts); this
// picks the same one: CHROMIUM_PATH, Playwright's own browser, or the system's Chromium.
const playwrightBrowser = chromium.executablePath();
const browser = findChromium(process.env, isExecutableFile(playwrightBrowser) ? playwrightBrowser : null);
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.reports/playwright.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: browser?.path ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
});
