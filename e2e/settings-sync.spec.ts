/**
 * The foundation issue's path through every layer: a setting changed in one app instance
 * reaches another instance (another profile, another process) through the server's event
 * queue, and keeps doing so after the server restarts, without reloading either page.
 */
import type { Locator, Page } from '@playwright/test';
import {
  connectionStatus,
  expect,
  expectSignedIn,
  markDocument,
  openSettings,
  signIn,
  signInAndWait,
  test,
} from './support/app';

/** Flips a switch from the keyboard (its input is visually hidden under its label). */
async function flip(page: Page, toggle: Locator) {
  await toggle.focus();
  await page.keyboard.press('Space');
}

/** A Select's button (named by its value, then its label). */
const selectButton = (page: Page, label: string) =>
  page.getByRole('button', { name: new RegExp(`${label}$`) });

/** Picks an option of a Select. */
async function choose(page: Page, label: string, option: string) {
  await selectButton(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The page background's mean channel value (0 black, 255 white). */
async function bodyLightness(page: Page): Promise<number> {
  const color = String(await page.evaluate('getComputedStyle(document.body).backgroundColor'));
  const channels = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  return channels.reduce((a: number, b: number) => a + b, 0) / 3;
}

/** What only a signed-in account shows: the app's main navigation. */
const signedInFrame = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('24-hour time changed in one instance shows in the other, also after a server restart', async ({
  server,
  alice,
  openApps,
}) => {
  const [one, two] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  for (const page of [one, two]) {
    // The sign-in screen comes prefilled with the app's server.
    await expect(page.getByLabel('Server URL')).toHaveValue(server.url);
    await signInAndWait(page, alice);
    await markDocument(page);
    await openSettings(page, 'Preferences');
  }

  const timeOne = one.getByRole('switch', { name: '24-hour time' });
  const timeTwo = two.getByRole('switch', { name: '24-hour time' });
  await expect(timeOne).not.toBeChecked();
  await expect(timeTwo).not.toBeChecked();
  await expect(two.getByText('Time format example: 2:05 PM')).toBeVisible();

  await flip(one, timeOne);
  await expect(timeOne).toBeChecked();
  await expect(timeTwo).toBeChecked({ timeout: 2000 });
  await expect(two.getByText('Time format example: 14:05')).toBeVisible();

  await server.restart();
  for (const page of [one, two]) {
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 60_000 });
  }
  // Both recovered in place: the settings survived the restart and nothing was reloaded.
  await expect(timeOne).toBeChecked();
  await expect(timeTwo).toBeChecked();

  await flip(two, timeTwo);
  await expect(timeTwo).not.toBeChecked();
  await expect(timeOne).not.toBeChecked({ timeout: 2000 });
  await expect(one.getByText('Time format example: 2:05 PM')).toBeVisible();
  for (const page of [one, two]) {
    await expect(page.locator('html')).toHaveAttribute('data-e2e-loaded', 'once');
  }
});

test('the sign-in screen shows the server’s error for a wrong password', async ({
  server,
  alice,
  openApps,
}) => {
  const [page] = await openApps({ serverUrl: server.url });
  await signIn(page, { email: alice.email, password: 'not-the-password' });
  await expect(page.getByRole('alert')).toHaveText('Your username or password is incorrect');
  // Still on the sign-in screen, ready for another try.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  await expect(signedInFrame(page)).toHaveCount(0);
});

test('another page opened on the same instance is already signed in and in step', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const first = await openApp(app);
  await signInAndWait(first, alice);

  // A fresh browser context: nothing of the first page's storage, only the app's own state.
  const second = await openApp(app);
  await expectSignedIn(second, alice.email);
  await expect(second.getByRole('form', { name: 'Sign in' })).toHaveCount(0);

  for (const page of [first, second]) await openSettings(page, 'Preferences');
  const denseFirst = first.getByRole('switch', { name: 'Dense mode' });
  const denseSecond = second.getByRole('switch', { name: 'Dense mode' });
  await expect(denseSecond).toBeChecked();
  await flip(first, denseFirst);
  await expect(denseSecond).not.toBeChecked({ timeout: 2000 });

  // Signing out is the app's, so every window shows the sign-in screen.
  await first.getByRole('button', { name: 'Account menu' }).click();
  await first.getByRole('menuitem', { name: 'Sign out' }).click();
  for (const page of [first, second]) {
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await expect(signedInFrame(page)).toHaveCount(0);
  }
});

test('a second account can be added and switched to', async ({ server, openSignedIn }) => {
  const { users, password } = server.demo;
  const page = await openSignedIn({ serverUrl: server.url }, { email: users.alice, password });
  const rail = page.getByRole('navigation', { name: 'Accounts' });
  await expect(rail).toHaveCount(0);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Add account' }).click();
  await signInAndWait(page, { email: users.bob, password });

  const host = new URL(server.url).host;
  const accounts = rail.getByRole('button', { name: /\(/ });
  await expect(accounts).toHaveCount(2);
  await expect(accounts.nth(0)).toHaveAccessibleName(new RegExp(`^Alice Doe \\(${host}\\)`));
  await expect(accounts.nth(1)).toHaveAccessibleName(new RegExp(`^Bob Smith \\(${host}\\)`));
  await accounts.nth(0).click();
  await expectSignedIn(page, users.alice);
});

test('a settings change shows at once and a color scheme applies to the page', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await openSettings(page, 'Preferences');

  const scheme = selectButton(page, 'Color scheme');
  await expect(scheme).toContainText('Automatic');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  await choose(page, 'Color scheme', 'Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(() => bodyLightness(page)).toBeLessThan(40);
  await choose(page, 'Color scheme', 'Light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(() => bodyLightness(page)).toBeGreaterThan(215);

  // Reaches the server: a page of another instance starts with it.
  const other = await openSignedIn({ serverUrl: server.url }, alice);
  await openSettings(other, 'Preferences');
  await expect(selectButton(other, 'Color scheme')).toContainText('Light');
});

test('the app on its embedded demo server offers the demo accounts', async ({ openApps }) => {
  const [page] = await openApps({});
  const demo = page.getByRole('group', { name: 'Demo accounts' });
  await expect(demo).toBeVisible({ timeout: 30_000 });
  await demo.getByRole('button', { name: 'Sign in as alice' }).click();
  await expect(signedInFrame(page)).toBeVisible({ timeout: 30_000 });
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
});

test('a change the server never got is rolled back, saying why', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await openSettings(page, 'Preferences');

  await server.stop();
  const time = page.getByRole('switch', { name: '24-hour time' });
  await flip(page, time);
  const alert = page.getByRole('alert').filter({ hasText: 'Could not change' });
  await expect(alert).toContainText(
    'Could not change “24-hour time”: The server could not be reached. Check your connection and try again.',
  );
  await expect(time).not.toBeChecked();
  await expect(page.getByText('Time format example: 2:05 PM')).toBeVisible();
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
});
