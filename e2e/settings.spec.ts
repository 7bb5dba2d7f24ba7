/**
 * The settings screen's journeys: personal settings saved at once (on the server, and live in
 * another window), the time zone search, the notification triggers and per-stream overrides,
 * the drafts-sync question, the account forms, and the organization's sections with Save /
 * Discard for administrators and read-only with the reason for everyone else.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { ApiClient } from '../shared/client';
import { loginAs } from '../test/support/server';
import {
  type Credentials,
  connectionStatus,
  expect,
  openSettings,
  signInAndWait,
  type TestServer,
  test,
} from './support/app';

/** The user's settings, subscriptions and the organization's defaults, as the server has them. */
async function serverState(server: TestServer, who: 'alice' | 'admin' = 'alice') {
  const client = await loginAs(server, who);
  const state = await client.request('POST', '/register', {
    fetch_event_types: [
      'user_settings',
      'subscription',
      'realm',
      'realm_user_settings_defaults',
      'realm_user',
    ],
  });
  return state as {
    user_settings: Record<string, unknown>;
    subscriptions: { name: string; [key: string]: unknown }[];
    realm_user_settings_defaults: Record<string, unknown>;
    [key: string]: unknown;
  };
}

const settingsNav = (page: Page) => page.getByRole('navigation', { name: 'Settings' });

/** A Select's button: named by its value, then its label. */
const selectButton = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });

/** Picks an option of a Select (a button that opens a listbox). */
async function choose(page: Page, label: string, option: string) {
  await selectButton(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Flips a switch from the keyboard (its input is visually hidden under its label). */
async function flip(page: Page, toggle: Locator) {
  await toggle.focus();
  await page.keyboard.press('Space');
}

function as(server: TestServer, who: 'alice' | 'admin' | 'bob'): Credentials {
  return { serverUrl: server.url, email: server.demo.users[who], password: server.demo.password };
}

test('a switch and a select save at once, reach the server and show in another window', async ({
  server,
  openSignedIn,
}) => {
  const one = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const two = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  for (const page of [one, two]) await openSettings(page, 'Preferences');
  await expect(settingsNav(one).getByRole('button', { name: 'Preferences' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  const dense = one.getByRole('switch', { name: 'Dense mode' });
  await expect(dense).toBeChecked();
  await flip(one, dense);
  await expect(dense).not.toBeChecked();
  await expect(one.getByRole('status').filter({ hasText: 'Saved' }).first()).toBeVisible();
  await expect(two.getByRole('switch', { name: 'Dense mode' })).not.toBeChecked({ timeout: 5000 });

  await choose(one, 'Default view', 'All messages');
  await expect(selectButton(one, 'Default view')).toContainText('All messages');
  await expect(selectButton(two, 'Default view')).toContainText('All messages', {
    timeout: 5000,
  });

  await expect
    .poll(async () => {
      const s = (await serverState(server)).user_settings;
      return [s.dense_mode, s.default_view];
    })
    .toEqual([false, 'all_messages']);
});

test('a refused name shows the server’s message; an accepted one reaches the server', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Account & security');
  const form = page.getByRole('form', { name: 'Name' });
  const name = form.getByRole('textbox', { name: 'Name' });
  await expect(name).toHaveValue('Alice Doe');
  await name.fill('A');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(form.getByText('Name too short!')).toBeVisible();

  await name.fill('Alice Dee');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(form.getByRole('status')).toHaveText('Name saved.');
  const client = await loginAs(server, 'alice');
  await expect.poll(async () => (await client.request('GET', '/users/me')).full_name).toBe('Alice Dee');
  // The API key is never shown.
  await expect(page.getByText('never shown here')).toBeVisible();

  // The user's own profile fields.
  await settingsNav(page).getByRole('button', { name: 'Profile', exact: true }).click();
  const title = page.getByRole('form', { name: 'Job title' });
  await title.getByRole('textbox', { name: 'Job title' }).fill('Staff engineer');
  await title.getByRole('button', { name: 'Save' }).click();
  await expect(title.getByRole('status')).toHaveText('Saved.');
  await expect
    .poll(async () => JSON.stringify((await client.request('GET', '/users/me')).profile_data))
    .toContain('Staff engineer');
});

/** The confirmation link of the newest email-change mail in the server's outbox. */
async function confirmationLink(server: TestServer): Promise<string> {
  const dir = path.join(server.dataDir, 'outbox');
  const names = (await readdir(dir)).sort().reverse();
  for (const name of names) {
    const match = /(http\S+\/accounts\/confirm_new_email\/\S+)/.exec(
      await readFile(path.join(dir, name), 'utf8'),
    );
    if (match?.[1]) return match[1];
  }
  throw new Error(`no confirmation link in ${names.join(', ')}`);
}

test('a requested email change stays pending across sections and windows until the link is followed', async ({
  server,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const page = await openApp(app);
  await signInAndWait(page, as(server, 'alice'));
  await openSettings(page, 'Account & security');
  const email = page.getByRole('form', { name: 'Change email' });
  await email.getByRole('textbox', { name: 'New email address' }).fill('alice.new@demo.confab.example');
  await email.getByRole('button', { name: 'Change email' }).click();
  const pending = (p: Page) =>
    p.getByRole('status').filter({ hasText: 'Confirmation sent to alice.new@demo.confab.example.' });
  await expect(pending(page)).toHaveText(
    `Confirmation sent to alice.new@demo.confab.example. Your address changes once you follow the link in that email; until then it stays ${server.demo.users.alice}.`,
  );

  // Leaving the section and coming back keeps it.
  await settingsNav(page).getByRole('button', { name: 'Preferences' }).click();
  await expect(pending(page)).toHaveCount(0);
  await settingsNav(page).getByRole('button', { name: 'Account & security' }).click();
  await expect(pending(page)).toBeVisible();

  // Another window of the same app shows it too.
  const other = await page.context().newPage();
  await other.goto(app.url);
  await expect(connectionStatus(other)).toHaveText('Connected', { timeout: 30_000 });
  await openSettings(other, 'Account & security');
  await expect(pending(other)).toBeVisible();

  // Following the link changes the address: the realm_user update ends the pending state everywhere.
  const response = await fetch(await confirmationLink(server));
  expect(response.status).toBe(200);
  for (const p of [page, other]) {
    await expect(p.getByText('You sign in with alice.new@demo.confab.example.')).toBeVisible();
    await expect(pending(p)).toHaveCount(0);
  }
  await settingsNav(page).getByRole('button', { name: 'Preferences' }).click();
  await settingsNav(page).getByRole('button', { name: 'Account & security' }).click();
  await expect(page.getByText('You sign in with alice.new@demo.confab.example.')).toBeVisible();
  await expect(pending(page)).toHaveCount(0);
});

test('email and password changes: confirmation pending, strength shown, the old password checked', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Account & security');

  const email = page.getByRole('form', { name: 'Change email' });
  await email.getByRole('textbox', { name: 'New email address' }).fill('alice.new@demo.confab.example');
  await email.getByRole('button', { name: 'Change email' }).click();
  await expect(page.getByText('Confirmation sent to alice.new@demo.confab.example.')).toBeVisible();
  // Pending: the address stays until the link is followed.
  await expect(page.getByText(`You sign in with ${server.demo.users.alice}.`)).toBeVisible();

  const password = page.getByRole('form', { name: 'Change password' });
  const next = password.getByLabel('New password', { exact: true });
  // The server's rule (register's password_min_length: 8) before anything is typed, and while typing.
  await expect(password.getByText('At least 8 characters; longer is stronger.')).toBeVisible();
  await password.getByLabel('Current password').fill(server.demo.password);
  await next.fill('abcdefg');
  await expect(next).toHaveAccessibleDescription('Too short: at least 8 characters (7 so far).');
  await expect(password.getByRole('button', { name: 'Change password' })).toBeDisabled();
  await next.fill('abc');
  await expect(password.getByText(/Strength: Very weak/)).toBeVisible();
  await next.fill('correct horse battery staple');
  await expect(password.getByText(/Strength: Very strong/)).toBeVisible();
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByRole('alert')).toHaveText('Wrong password!');
  await password.getByLabel('Current password').fill(server.demo.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Password changed.')).toBeVisible();
  const anonymous = new ApiClient({ serverUrl: server.url });
  await expect(
    anonymous.fetchApiKey(server.demo.users.alice, 'correct horse battery staple'),
  ).resolves.toMatchObject({
    email: server.demo.users.alice,
  });
});

test('a setting the server could not get is rolled back with the reason', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Privacy');
  const presence = page.getByRole('switch', { name: 'Show my availability to others' });
  await expect(presence).toBeChecked();
  await server.stop();
  await flip(page, presence);
  await expect(page.getByRole('alert')).toContainText(
    'Could not change “Show my availability to others”: The server could not be reached.',
  );
  await expect(presence).toBeChecked();
});

test('the time zone picker finds zones by city and by offset', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Preferences');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue(/Europe \/ Berlin \(UTC\+0[12]:00\)/);
  await zone.fill('kolk');
  await expect(page.getByRole('option')).toHaveText(['Asia / Kolkata (UTC+05:30)']);
  await zone.fill('+5:45');
  await expect(page.getByRole('option')).toHaveText(['Asia / Kathmandu (UTC+05:45)']);
  await zone.fill('nowhere at all');
  await expect(page.getByText('No time zone matches “nowhere at all”.')).toBeVisible();
  await zone.fill('kolk');
  await page.getByRole('option', { name: 'Asia / Kolkata (UTC+05:30)' }).click();
  await expect(zone).toHaveValue('Asia / Kolkata (UTC+05:30)');
  await expect(page.getByText(/Current offset UTC\+05:30/)).toBeVisible();
  await expect.poll(async () => (await serverState(server)).user_settings.timezone).toBe('Asia/Kolkata');
});

test('notification triggers toggle in one table; the test notification needs permission', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Notifications');
  const table = page.getByRole('table', { name: 'Notification triggers' });
  for (const column of ['Desktop', 'Audible', 'Mobile', 'Email']) {
    await expect(table.getByRole('columnheader', { name: new RegExp(`^${column} `) })).toBeVisible();
  }
  await expect(table.getByRole('columnheader', { name: /^Email/ })).toContainText('When away and unread');

  const streamEmail = table.getByRole('switch', { name: 'Stream messages: email' });
  const privateDesktop = table.getByRole('switch', { name: 'Private messages and mentions: desktop' });
  await expect(streamEmail).not.toBeChecked();
  await expect(privateDesktop).toBeChecked();
  await flip(page, streamEmail);
  await flip(page, privateDesktop);
  await flip(page, table.getByRole('switch', { name: 'Treat @-all mentions as mentions of me' }));
  await expect
    .poll(async () => {
      const s = (await serverState(server)).user_settings;
      return [
        s.enable_stream_email_notifications,
        s.enable_desktop_notifications,
        s.wildcard_mentions_notify,
      ];
    })
    .toEqual([true, false, false]);

  // Not asked yet: a button asks; once allowed, a test notification can be sent.
  await expect(page.getByRole('button', { name: 'Enable notifications' })).toBeVisible();
  await page.context().grantPermissions(['notifications']);
  await settingsNav(page).getByRole('button', { name: 'Preferences' }).click();
  await settingsNav(page).getByRole('button', { name: 'Notifications' }).click();
  await page.getByRole('button', { name: 'Send a test notification' }).click();
  await expect(page.getByText('Test notification sent.')).toBeVisible();
});

test('a stream customized to notify differently is listed and resets to the defaults', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const other = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  for (const p of [page, other]) await openSettings(p, 'Notifications');
  const overrides = page.getByRole('region', { name: 'Streams with their own notifications' });
  await expect(overrides.getByText('Every stream follows your defaults')).toBeVisible();

  await choose(page, 'Customize a stream', '#general');
  const desktop = selectButton(overrides, '#general: Desktop');
  await expect(desktop).toContainText('Default (off)');
  await desktop.click();
  await page.getByRole('option', { name: 'On', exact: true }).click();
  await expect(desktop).toContainText('On');
  const general = async () =>
    (await serverState(server)).subscriptions.find((s) => s.name === 'general')?.desktop_notifications;
  await expect.poll(general).toBe(true);
  // The other window lists it too: it differs from the defaults.
  await expect(selectButton(other, '#general: Desktop')).toContainText('On');

  await overrides.getByRole('button', { name: 'Reset #general to default' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Reset to default' }).click();
  // Back to following the user's setting (off): the stream no longer differs.
  await expect.poll(general).not.toBe(true);
  await expect(overrides.getByText('Every stream follows your defaults')).toBeVisible();
  await expect(other.getByText('Every stream follows your defaults')).toBeVisible();
});

test('turning drafts synchronization off asks first', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Preferences');
  const sync = page.getByRole('switch', { name: 'Synchronize drafts' });
  await expect(sync).toBeChecked();
  await flip(page, sync);
  const dialog = page.getByRole('alertdialog', { name: 'Stop synchronizing drafts?' });
  await expect(dialog).toContainText('copies of your drafts on the server will be deleted');
  await expect(dialog).toContainText('drafts on this computer are kept');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(sync).toBeChecked();
  await expect(sync).toBeFocused();

  await flip(page, sync);
  await dialog.getByRole('button', { name: 'Stop synchronizing' }).click();
  await expect(sync).not.toBeChecked();
  await expect
    .poll(async () => (await serverState(server)).user_settings.enable_drafts_synchronization)
    .toBe(false);
});

test('an administrator changes organization defaults with Save and Discard', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await openSettings(page, 'Default user settings');
  const theme = page.getByRole('region', { name: 'Theme' });
  const dense = theme.getByRole('switch', { name: 'Dense mode' });
  await expect(dense).toBeChecked();
  await flip(page, dense);
  await theme.getByRole('button', { name: 'Discard' }).click();
  await expect(dense).toBeChecked();
  await expect(theme.getByRole('button', { name: 'Save changes' })).toHaveCount(0);

  await flip(page, dense);
  await theme.getByRole('button', { name: 'Save changes' }).click();
  await expect(theme.getByRole('status')).toHaveText('Saved');
  await expect
    .poll(async () => (await serverState(server, 'admin')).realm_user_settings_defaults.dense_mode)
    .toBe(false);

  await settingsNav(page).getByRole('button', { name: 'Organization settings' }).click();
  const editing = page.getByRole('region', { name: 'Message editing' });
  await flip(page, editing.getByRole('switch', { name: 'Require topics in stream messages' }));
  await choose(page, 'Who can delete their own messages', 'Administrators');
  await editing.getByRole('button', { name: 'Save changes' }).click();
  await expect(editing.getByRole('status')).toHaveText('Saved');
  await expect
    .poll(async () => {
      const s = await serverState(server, 'admin');
      return [s.realm_mandatory_topics, s.realm_delete_own_message_policy];
    })
    .toEqual([true, 2]);
});

test('members who are not administrators see the organization read-only, with the reason', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Organization settings');
  await expect(page.getByText('Only organization administrators can edit these settings.')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Require topics in stream messages' })).toBeDisabled();
  await expect(selectButton(page, 'Who can create public streams')).toBeDisabled();
  await settingsNav(page).getByRole('button', { name: 'Default user settings' }).click();
  await expect(page.getByText('Only organization administrators can edit these settings.')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Theme' }).getByRole('switch', { name: 'Dense mode' }),
  ).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
});

test('notifications blocked by the system show how to allow them; once allowed, a test notification', async ({
  server,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const page = await openApp(app);
  // The browser's own permission setting, as a person who blocked notifications has it.
  const origin = new URL(app.url).origin;
  const pageSession = await page.context().newCDPSession(page);
  const { targetInfo } = await pageSession.send('Target.getTargetInfo');
  const browserSession = await page.context().browser()?.newBrowserCDPSession();
  await browserSession?.send('Browser.setPermission', {
    permission: { name: 'notifications' },
    setting: 'denied',
    origin,
    browserContextId: targetInfo.browserContextId,
  });
  expect(await page.evaluate('Notification.permission')).toBe('denied');

  await signInAndWait(page, as(server, 'alice'));
  await openSettings(page, 'Notifications');
  const desktop = page.getByRole('region', { name: 'Desktop notifications' });
  await expect(desktop.getByRole('status')).toHaveText(
    'Notifications are blocked for Confab. Allow them in your system’s notification settings, then come back here.',
  );
  await expect(desktop.getByRole('button', { name: 'Send a test notification' })).toHaveCount(0);
  await expect(desktop.getByRole('button', { name: 'Enable notifications' })).toHaveCount(0);

  // Allowed in the system's settings meanwhile: coming back offers the test notification.
  await page.context().grantPermissions(['notifications'], { origin });
  await settingsNav(page).getByRole('button', { name: 'Privacy' }).click();
  await settingsNav(page).getByRole('button', { name: 'Notifications' }).click();
  await expect(desktop.getByText('Notifications are blocked for Confab.')).toHaveCount(0);
  await expect(desktop.getByText('Desktop notifications are allowed.')).toBeVisible();
  await desktop.getByRole('button', { name: 'Send a test notification' }).click();
  await expect(desktop.getByRole('status')).toHaveText('Test notification sent.');
});

test('Play plays the chosen notification sound', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await openSettings(page, 'Notifications');
  // Every tone the page starts, as [wave, frequency] pairs (the sounds are synthesized).
  await page.evaluate(`(() => {
    window.played = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (when) {
      window.played.push([this.type, this.frequency.value]);
      return start.call(this, when);
    };
  })()`);
  const played = () => page.evaluate('window.played.splice(0)');

  await expect(selectButton(page, 'Notification sound')).toContainText('Chime');
  await page.getByRole('button', { name: 'Play Chime' }).click();
  // Chime: two sine notes, C6 then G6.
  await expect.poll(played).toEqual([
    ['sine', 1046.5],
    ['sine', 1568],
  ]);

  await choose(page, 'Notification sound', 'Ding');
  await expect.poll(async () => (await serverState(server)).user_settings.notification_sound).toBe('ding');
  await page.getByRole('button', { name: 'Play Ding' }).click();
  // Ding: one triangle note, E6.
  await expect.poll(played).toEqual([['triangle', 1318.5]]);

  await choose(page, 'Notification sound', 'None');
  await expect(page.getByRole('button', { name: 'Play sound (no sound chosen)' })).toBeDisabled();
});

test('the window itself never scrolls: long settings scroll inside their pane', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  for (const section of ['Preferences', 'Notifications']) {
    await openSettings(page, section);
    await expect(page.getByRole('main', { name: 'Settings' })).toBeVisible();
    // Hidden form helpers (react-aria's native selects) must not hang below the frame.
    expect(await page.evaluate('document.documentElement.scrollHeight - window.innerHeight'), section).toBe(
      0,
    );
  }
});
