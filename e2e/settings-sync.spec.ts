/**
 * The foundation issue's path through every layer: a setting changed in one app instance
 * reaches another instance (another profile, another process) through the server's event
 * queue, and keeps doing so after the server restarts, without reloading either page.
 */
import { expect, expectSignedIn, markDocument, signIn, signInAndWait, test } from './support/app';

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
  }

  const timeOne = one.getByRole('checkbox', { name: '24-hour time' });
  const timeTwo = two.getByRole('checkbox', { name: '24-hour time' });
  await expect(timeOne).not.toBeChecked();
  await expect(timeTwo).not.toBeChecked();
  await expect(two.getByText('Time format example: 2:05 PM')).toBeVisible();

  await timeOne.click();
  await expect(timeOne).toBeChecked();
  await expect(timeTwo).toBeChecked({ timeout: 2000 });
  await expect(two.getByText('Time format example: 14:05')).toBeVisible();

  await server.restart();
  for (const page of [one, two]) {
    await expect(page.getByRole('status')).toHaveText('Connected', { timeout: 60_000 });
  }
  // Both recovered in place: the settings survived the restart and nothing was reloaded.
  await expect(timeOne).toBeChecked();
  await expect(timeTwo).toBeChecked();

  await timeTwo.click();
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
  await expect(page.getByRole('heading', { name: 'Display settings' })).toHaveCount(0);
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

  const denseFirst = first.getByRole('checkbox', { name: 'Dense mode' });
  const denseSecond = second.getByRole('checkbox', { name: 'Dense mode' });
  await expect(denseSecond).toBeChecked();
  await denseFirst.click();
  await expect(denseSecond).not.toBeChecked({ timeout: 2000 });

  // Signing out is the app's, so every window shows the sign-in screen.
  await first.getByRole('button', { name: 'Sign out' }).click();
  for (const page of [first, second]) {
    await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Display settings' })).toHaveCount(0);
  }
});

test('a second account can be added and switched to', async ({ server, openSignedIn }) => {
  const { users, password } = server.demo;
  const page = await openSignedIn({ serverUrl: server.url }, { email: users.alice, password });
  await expect(page.getByLabel('Account')).toHaveCount(0);

  await page.getByRole('button', { name: 'Add account' }).click();
  await signInAndWait(page, { email: users.bob, password });

  const host = new URL(server.url).host;
  const switcher = page.getByLabel('Account');
  await expect(switcher.getByRole('option')).toHaveText([
    `${users.alice} (${host})`,
    `${users.bob} (${host})`,
  ]);
  await switcher.selectOption({ label: `${users.alice} (${host})` });
  await expectSignedIn(page, users.alice);
});

test('a settings change shows at once and a color scheme applies to the page', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);

  const scheme = page.getByLabel('Color scheme');
  await expect(scheme).toHaveValue('1');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
  await scheme.selectOption({ label: 'Dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 20, 25)');
  await scheme.selectOption({ label: 'Light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(244, 245, 248)');

  // Reaches the server: a page of another instance starts with it.
  const other = await openSignedIn({ serverUrl: server.url }, alice);
  await expect(other.getByLabel('Color scheme')).toHaveValue('3');
});

test('the app on its embedded demo server offers the demo accounts', async ({ openApps }) => {
  const [page] = await openApps({});
  const demo = page.getByRole('group', { name: 'Demo accounts' });
  await expect(demo).toBeVisible({ timeout: 30_000 });
  await demo.getByRole('button', { name: 'Sign in as alice' }).click();
  await expect(page.getByRole('heading', { name: 'Display settings' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status')).toHaveText('Connected', { timeout: 30_000 });
});

test('a change the server never got is rolled back, saying why', async ({ server, alice, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);

  await server.stop();
  const time = page.getByRole('checkbox', { name: '24-hour time' });
  await time.click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    'Could not change “24-hour time”: The server could not be reached. Check your connection and try again.',
  );
  await expect(time).not.toBeChecked();
  await expect(page.getByText('Time format example: 2:05 PM')).toBeVisible();
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
});
