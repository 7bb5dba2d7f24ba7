/**
 * End-to-end fixtures: a real server (test/support/server.ts), real Confab instances in
 * browser mode (./launch.ts), pages opened on them, and the sign-in every test starts with.
 * The specs read as what a person does; the setup they share lives here once.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { type StartedServer, startServerProcess } from '../../test/support/server';
import { type AppInstance, type LaunchOptions, startAppInstance } from './launch';

export type { AppInstance, LaunchOptions } from './launch';
export { expect };

export type TestServer = StartedServer;

/** What the sign-in screen asks for; without `serverUrl` the prefilled address is kept. */
export interface Credentials {
  serverUrl?: string;
  email: string;
  password: string;
}

export interface Fixtures {
  /** A fresh demo server per test, stopped after it. */
  server: TestServer;
  /** The demo organization's alice on `server`. */
  alice: Credentials;
  /** Starts app instances (each with its own profile), stopped after the test. */
  launchApp: (options?: LaunchOptions) => Promise<AppInstance>;
  /** Opens an instance's URL in a fresh browser context (a window of that app); `beforeLoad` runs first. */
  openApp: (app: AppInstance, beforeLoad?: (page: Page) => void) => Promise<Page>;
  /** Starts one instance per options (side by side) and opens a page on each, in that order. */
  openApps: <T extends LaunchOptions[]>(...options: T) => Promise<{ [K in keyof T]: Page }>;
  /** Starts an instance, opens it and signs in: a page on the live settings screen. */
  openSignedIn: (options: LaunchOptions, credentials: Credentials) => Promise<Page>;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  server: async ({}, use) => {
    const server = await startServerProcess({ demo: true });
    try {
      await use(server);
    } finally {
      await server.dispose();
    }
  },
  alice: async ({ server }, use) => {
    await use({ email: server.demo.users.alice, password: server.demo.password });
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  launchApp: async ({}, use, testInfo) => {
    const started: AppInstance[] = [];
    await use(async (options = {}) => {
      const app = await startAppInstance(options);
      started.push(app);
      return app;
    });
    for (const [index, app] of started.entries()) {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach(`app-${index + 1}.log`, { body: app.output(), contentType: 'text/plain' });
      }
    }
    await Promise.all(started.map((app) => app.stop()));
  },
  openApp: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (app, beforeLoad) => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      beforeLoad?.(page);
      await page.goto(app.url);
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  openApps: async ({ launchApp, openApp }, use) => {
    await use(async (...options) => {
      const apps = await Promise.all(options.map((o) => launchApp(o)));
      const pages: Page[] = [];
      for (const app of apps) pages.push(await openApp(app));
      return pages as { [K in keyof typeof options]: Page };
    });
  },
  openSignedIn: async ({ launchApp, openApp }, use) => {
    await use(async (options, credentials) => {
      const page = await openApp(await launchApp(options));
      await signInAndWait(page, credentials);
      return page;
    });
  },
});

/** Signs in through the sign-in screen, as a person would. */
export async function signIn(page: Page, credentials: Credentials) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await expect(form).toBeVisible();
  if (credentials.serverUrl !== undefined) await form.getByLabel('Server URL').fill(credentials.serverUrl);
  await form.getByLabel('Email').fill(credentials.email);
  await form.getByLabel('Password').fill(credentials.password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The account's frame is up (its sidebar names who is signed in) and its event queue is live. */
export async function expectSignedIn(page: Page, email: string) {
  const sidebar = page.getByRole('navigation', { name: 'Main' });
  await expect(sidebar).toBeVisible({ timeout: 30_000 });
  await expect(sidebar).toContainText(email);
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
}

/** The account's connection indicator (role=status, named "Connection"). */
export function connectionStatus(page: Page) {
  return page.getByRole('status', { name: 'Connection' });
}

/** Goes to a place through the sidebar, as a person would. */
export async function openView(page: Page, name: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name, exact: false })
    .first()
    .click();
}

/** Opens a settings section through the account menu and the settings navigation. */
export async function openSettings(page: Page, section?: string) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  if (section)
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('button', { name: section, exact: true })
      .click();
}

/** Signs in and waits until the account is live. */
export async function signInAndWait(page: Page, credentials: Credentials) {
  await signIn(page, credentials);
  await expectSignedIn(page, credentials.email);
}

/** Marks the page's document (`data-e2e-loaded="once"` on <html>): a reload would lose it. */
export async function markDocument(page: Page) {
  await page.evaluate("document.documentElement.setAttribute('data-e2e-loaded', 'once')");
}
