/**
 * The shell (issue 9): live unread counts in the sidebar and the inbox, demoted inactive
 * streams, the keyboard shortcuts, the command palette, do not disturb, display settings that
 * change every open window at once, and the connection banner while the server is away.
 */
import type { Locator, Page } from '@playwright/test';
import { startProxy } from '../test/support/proxy';
import { loginAs, makeTempDir, removeDir } from '../test/support/server';
import { connectionStatus, expect, openSettings, signInAndWait, test } from './support/app';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** A stream's row in the sidebar (its name, then ", N unread" when there are unreads). */
const streamRow = (page: Page, name: string) =>
  sidebar(page).getByRole('button', { name: new RegExp(`^${name}\\s*(,|$)`) });

/** The unread count a sidebar row says (0 without a badge). */
async function unreadOf(row: Locator): Promise<number> {
  const text = (await row.textContent()) ?? '';
  return Number(/(\d+) unread/.exec(text)?.[1] ?? 0);
}

/** Presses a key as a non-Latin layout sends it: the layout's character, the physical key's code. */
async function pressLayoutKey(page: Page, key: string, code: string) {
  await page.evaluate(
    `window.dispatchEvent(new KeyboardEvent('keydown', { key: ${JSON.stringify(key)}, code: ${JSON.stringify(code)}, bubbles: true }))`,
  );
}

test('sidebar and inbox counts follow what others send, and a topic is marked read from the inbox', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const general = streamRow(page, 'general');
  await expect(general).toBeVisible();
  const before = await unreadOf(general);

  const bob = await loginAs(server, 'bob');
  const topic = 'shell check';
  await bob.request('POST', '/messages', { type: 'stream', to: 'general', topic, content: 'First from Bob' });
  await expect.poll(() => unreadOf(general), { timeout: 5000 }).toBe(before + 1);
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'general',
    topic,
    content: 'Second from Bob',
  });
  await expect.poll(() => unreadOf(general), { timeout: 5000 }).toBe(before + 2);

  // The inbox lists the topic under its stream, with its count.
  await sidebar(page)
    .getByRole('button', { name: /^Inbox/ })
    .click();
  const inbox = page.getByRole('main', { name: 'Inbox' });
  await expect(inbox).toBeVisible();
  const stream = inbox.getByRole('region', { name: 'general' });
  const row = stream.getByRole('button', { name: new RegExp(`^${topic}`) });
  await expect(row).toContainText('2 unread');

  // Arrow keys move between the rows.
  const firstRow = inbox.locator('[data-inbox-row]').first();
  await firstRow.focus();
  await page.keyboard.press('ArrowDown');
  await expect(inbox.locator('[data-inbox-row]').nth(1)).toBeFocused();

  // Folding a stream hides its topics; unfolding shows them again.
  await stream.getByRole('button', { name: 'Collapse general' }).click();
  await expect(row).toBeHidden();
  await stream.getByRole('button', { name: 'Expand general' }).click();
  await expect(row).toBeVisible();

  await stream.getByRole('button', { name: `Mark ${topic} as read` }).click();
  await expect(row).toBeHidden({ timeout: 5000 });
  await expect.poll(() => unreadOf(general)).toBe(before);

  // On the server: both messages are read.
  const aliceApi = await loginAs(server, 'alice');
  const narrow = JSON.stringify([
    { operator: 'stream', operand: 'general' },
    { operator: 'topic', operand: topic },
  ]);
  const answer = (await aliceApi.request('GET', '/messages', {
    anchor: 'newest',
    num_before: 5,
    num_after: 0,
    narrow,
  })) as { messages: { flags: string[] }[] };
  expect(answer.messages).toHaveLength(2);
  for (const m of answer.messages) expect(m.flags).toContain('read');
});

test('inactive streams sit under their own heading, and come back when someone writes there', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const aliceApi = await loginAs(server, 'alice');
  await aliceApi.request('POST', '/users/me/subscriptions', {
    subscriptions: JSON.stringify([{ name: 'quiet corner', description: 'Nobody writes here.' }]),
  });
  await aliceApi.request('PATCH', '/settings', { demote_inactive_streams: 2 });
  const page = await openSignedIn({ serverUrl: server.url }, alice);

  const inactive = sidebar(page).getByRole('list', { name: 'Inactive streams' });
  await expect(sidebar(page).getByRole('heading', { name: 'Inactive streams' })).toBeVisible();
  await expect(inactive.getByRole('button', { name: /^quiet corner/ })).toBeVisible();
  await expect(inactive.getByRole('button', { name: /^general/ })).toHaveCount(0);

  // Someone writes there: it has unreads, so it is active again.
  const bob = await loginAs(server, 'bob');
  await bob.request('POST', '/messages', {
    type: 'stream',
    to: 'quiet corner',
    topic: 'hello',
    content: 'Hi!',
  });
  await expect(sidebar(page).getByRole('heading', { name: 'Inactive streams' })).toBeHidden({
    timeout: 5000,
  });
  await expect(streamRow(page, 'quiet corner')).toContainText('1 unread');

  // "Never" demotes nothing.
  await aliceApi.request('PATCH', '/settings', { demote_inactive_streams: 3 });
  await expect(sidebar(page).getByRole('list', { name: 'Inactive streams' })).toHaveCount(0);
});

test('keyboard shortcuts: the list, views, next unread, Escape, any layout, never while typing', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  // The app starts on the default view (default_view: Recent conversations).
  await expect(page.getByRole('main', { name: 'Recent conversations' })).toBeVisible();

  await page.keyboard.press('Shift+Slash');
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(list).toBeVisible();
  await expect(list).toContainText('Go to the next unread topic');
  await expect(list).toContainText('Open the command palette');
  // Keys do not fire behind a dialog.
  await page.keyboard.press('d');
  await expect(page.getByRole('main', { name: 'Recent conversations' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();

  await page.keyboard.press('d');
  await expect(page.getByRole('main', { name: 'Drafts' })).toBeVisible();
  await page.keyboard.press('i');
  await expect(page.getByRole('main', { name: 'Inbox' })).toBeVisible();
  // Escape goes to the default view (Recent conversations).
  await page.keyboard.press('Escape');
  await expect(page.getByRole('main', { name: 'Recent conversations' })).toBeVisible();

  // A Cyrillic layout: the I key types "ш", the D key "в".
  await pressLayoutKey(page, 'ш', 'KeyI');
  await expect(page.getByRole('main', { name: 'Inbox' })).toBeVisible();
  await pressLayoutKey(page, 'в', 'KeyD');
  await expect(page.getByRole('main', { name: 'Drafts' })).toBeVisible();

  // Typing in a field types.
  const search = page.getByRole('searchbox', { name: 'Search people' });
  await search.fill('');
  await search.pressSequentially('idn');
  await expect(search).toHaveValue('idn');
  await expect(page.getByRole('main', { name: 'Drafts' })).toBeVisible();
  await search.fill('');
  await page.getByRole('main').click({ position: { x: 5, y: 5 } });

  // n: the first unread topic's messages (the demo leaves alice some).
  await page.keyboard.press('n');
  await expect(page.getByRole('main', { name: 'Messages' })).toBeVisible();
  await expect(sidebar(page).locator('[aria-current="page"]')).toHaveCount(1);

  // c: a new message.
  await page.keyboard.press('c');
  await expect(page.getByRole('main', { name: 'New message' })).toBeVisible();
});

test('the command palette jumps to a stream by typing and Enter, and runs actions', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Go to or do' });
  await expect(palette).toBeVisible();
  const field = palette.getByRole('searchbox');
  await expect(field).toBeFocused();
  await page.keyboard.type('engin');
  await expect(palette.getByRole('menuitem').first()).toContainText('#engineering');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('main', { name: 'Messages' })).toBeVisible();
  await expect(streamRow(page, 'engineering')).toHaveAttribute('aria-current', 'page');

  // A settings section.
  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await page.keyboard.type('prefer');
  await expect(palette.getByRole('menuitem').first()).toContainText('Preferences');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main', { name: 'Settings' })).toBeVisible();

  // An action: do not disturb, then off again.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('do not dist');
  await palette.getByRole('menuitem', { name: 'Turn on do not disturb' }).click();
  await expect(page.getByRole('status', { name: 'Do not disturb' })).toHaveText('Do not disturb is on');
  await page.keyboard.press('Control+k');
  await page.keyboard.type('dnd');
  await expect(palette.getByRole('menuitem').first()).toHaveText(/Turn off do not disturb/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status', { name: 'Do not disturb' })).toHaveCount(0);

  // A person: their profile card.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('bob sm');
  await expect(palette.getByRole('menuitem').first()).toContainText('Bob Smith');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Bob Smith' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Nothing else matches: it offers to search the messages for it.
  await page.keyboard.press('Control+k');
  await page.keyboard.type('zzzqqq');
  await expect(palette.getByRole('menuitem')).toHaveCount(1);
  await expect(palette.getByRole('menuitem')).toContainText('Search for “zzzqqq”');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.getByRole('searchbox', { name: 'Search messages' })).toHaveValue('zzzqqq');
});

test('do not disturb for 1 hour shows until when, in the time format chosen, and turns off', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const page = await openApp(app);
  await signInAndWait(page, alice);
  await sidebar(page).getByRole('button', { name: 'Do not disturb' }).click();
  await page.getByRole('menuitem', { name: 'For 1 hour' }).click();
  const label = page.getByRole('status', { name: 'Do not disturb' });
  // The demo's default is 12-hour time.
  await expect(label).toHaveText(/^Do not disturb until \d{1,2}:\d\d\s?(AM|PM)$/);
  const aliceApi = await loginAs(server, 'alice');
  await aliceApi.request('PATCH', '/settings', { twenty_four_hour_time: true });
  await expect(label).toHaveText(/^Do not disturb until \d\d:\d\d$/);
  // Kept by the app, not the page: loaded again, the page shows it still.
  await page.goto(app.url);
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
  await expect(label).toHaveText(/^Do not disturb until \d\d:\d\d$/);
  await page.getByRole('button', { name: 'Turn off do not disturb' }).click();
  await expect(page.getByRole('status', { name: 'Do not disturb' })).toHaveCount(0);
  await expect(sidebar(page).getByRole('button', { name: 'Do not disturb' })).toBeVisible();
});

/** From now on, counts the desktop notifications the page makes (each still shown). */
async function countNotifications(page: Page) {
  await page.evaluate(`{
    const Real = window.Notification;
    window.__notifications = 0;
    window.Notification = class extends Real {
      constructor(...args) { super(...args); window.__notifications++; }
    };
  }`);
}
const notificationsMade = (page: Page) => page.evaluate('window.__notifications') as Promise<number>;

test('do not disturb until tomorrow shows in every window of the app at once, after a reload, and holds back notifications', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const one = await openApp(app);
  await one.context().grantPermissions(['notifications'], { origin: new URL(app.url).origin });
  await signInAndWait(one, alice);
  await countNotifications(one);
  const two = await openApp(app);
  await expect(connectionStatus(two)).toHaveText('Connected', { timeout: 30_000 });

  await sidebar(one).getByRole('button', { name: 'Do not disturb' }).click();
  // The demo's default is 12-hour time.
  await one.getByRole('menuitem', { name: /^Until tomorrow \(9:00\sAM\)$/ }).click();
  const until = /^Do not disturb until tomorrow 9:00\sAM$/;
  await expect(sidebar(one).getByRole('status', { name: 'Do not disturb' })).toHaveText(until);
  // The other window of the same app, at once, without a reload.
  await expect(sidebar(two).getByRole('status', { name: 'Do not disturb' })).toHaveText(until);
  await expect(sidebar(two).getByRole('button', { name: 'Do not disturb', exact: true })).toHaveCount(0);
  await two.screenshot({ path: test.info().outputPath('dnd-sidebar.png') });

  // Loaded again, the page asks the app.
  await two.goto(app.url);
  await expect(connectionStatus(two)).toHaveText('Connected', { timeout: 30_000 });
  await expect(sidebar(two).getByRole('status', { name: 'Do not disturb' })).toHaveText(until);

  // The test notification says it is held back, and makes none.
  await openSettings(one, 'Notifications');
  const desktop = one.getByRole('region', { name: 'Desktop notifications' });
  await desktop.getByRole('button', { name: 'Send a test notification' }).click();
  await expect(desktop.getByRole('status')).toHaveText(
    'Not sent: notifications are held back while do not disturb is on.',
  );
  expect(await notificationsMade(one)).toBe(0);

  // Turned off in the second window: off in the first too, and notifications go out again.
  await sidebar(two).getByRole('button', { name: 'Turn off do not disturb' }).click();
  await expect(sidebar(two).getByRole('button', { name: 'Do not disturb', exact: true })).toBeVisible();
  await expect(sidebar(one).getByRole('status', { name: 'Do not disturb' })).toHaveCount(0);
  await expect(sidebar(one).getByRole('button', { name: 'Do not disturb', exact: true })).toBeVisible();
  await desktop.getByRole('button', { name: 'Send a test notification' }).click();
  await expect(desktop.getByRole('status')).toHaveText('Test notification sent.');
  expect(await notificationsMade(one)).toBe(1);
});

test('do not disturb survives a restart of the app', async ({ server, alice, launchApp, openApp }) => {
  const profileDir = await makeTempDir('confab-e2e-dnd-');
  try {
    const first = await launchApp({ serverUrl: server.url, profileDir });
    const page = await openApp(first);
    await signInAndWait(page, alice);
    await sidebar(page).getByRole('button', { name: 'Do not disturb' }).click();
    await page.getByRole('menuitem', { name: 'Until I turn it off' }).click();
    await expect(sidebar(page).getByRole('status', { name: 'Do not disturb' })).toHaveText(
      'Do not disturb is on',
    );
    await first.stop();

    const second = await launchApp({ serverUrl: server.url, profileDir });
    const again = await openApp(second);
    await expect(connectionStatus(again)).toHaveText('Connected', { timeout: 30_000 });
    await expect(sidebar(again).getByRole('status', { name: 'Do not disturb' })).toHaveText(
      'Do not disturb is on',
    );
  } finally {
    await removeDir(profileDir);
  }
});

test('every display setting changes the other window at once', async ({
  server,
  alice,
  launchApp,
  openApp,
}) => {
  const app = await launchApp({ serverUrl: server.url });
  const one = await openApp(app);
  await signInAndWait(one, alice);
  const two = await openApp(app);
  await expect(connectionStatus(two)).toHaveText('Connected', { timeout: 30_000 });
  const html = two.locator('html');

  await openSettings(one, 'Preferences');
  const main = one.getByRole('main', { name: 'Settings' });
  // Keyboard-only: focus the switch, Space flips it.
  const toggle = async (name: string) => {
    await main.getByRole('switch', { name, exact: true }).focus();
    await one.keyboard.press('Space');
  };
  const choose = async (label: string, option: string) => {
    await main.getByRole('button', { name: new RegExp(label) }).click();
    await one.getByRole('option', { name: option, exact: true }).click();
  };

  // Dense mode is on by default.
  await expect(html).toHaveAttribute('data-dense', '');
  await toggle('Dense mode');
  await expect(html).not.toHaveAttribute('data-dense', '', { timeout: 2000 });

  await toggle('High contrast mode');
  await expect(html).toHaveAttribute('data-high-contrast', '', { timeout: 2000 });

  await toggle('Use full width on wide screens');
  await expect(html).toHaveAttribute('data-fluid', '', { timeout: 2000 });

  await expect(html).toHaveAttribute('data-time-format', '12');
  await toggle('24-hour time');
  await expect(html).toHaveAttribute('data-time-format', '24', { timeout: 2000 });

  await expect(html).not.toHaveAttribute('data-theme', /.+/);
  await choose('Color scheme', 'Dark');
  await expect(html).toHaveAttribute('data-theme', 'dark', { timeout: 2000 });
  // The page is really dark: the main area's background is.
  const background = String(
    await two.evaluate("getComputedStyle(document.querySelector('main')).backgroundColor"),
  );
  const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  expect(Math.max(...channels)).toBeLessThan(80);
  await choose('Color scheme', 'Automatic');
  await expect(html).not.toHaveAttribute('data-theme', /.+/, { timeout: 2000 });

  await choose('Emoji theme', 'Plain text');
  await expect(html).toHaveAttribute('data-emojiset', 'text', { timeout: 2000 });

  await choose('User list style', 'Compact');
  await expect(html).toHaveAttribute('data-user-list-style', '1', { timeout: 2000 });

  await expect(two.getByRole('complementary', { name: 'People' })).toBeVisible();
  await toggle('Show the user list in the left sidebar');
  await expect(two.locator('.app-frame')).toHaveAttribute('data-people', 'left', { timeout: 2000 });
  await expect(two.getByRole('complementary', { name: 'People' })).toHaveCount(0);
});

test('a banner says so while the server cannot be reached, and goes when it is back', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const proxy = await startProxy({ port: server.port });
  try {
    const page = await openSignedIn({ serverUrl: proxy.url }, { ...alice, serverUrl: proxy.url });
    const banner = page.getByRole('main').getByRole('status');
    await expect(banner).toHaveCount(0);
    await proxy.cut();
    await expect(banner).toContainText('Reconnecting to the server', { timeout: 30_000 });
    await expect(connectionStatus(page)).toHaveText(/^Reconnecting/);
    await proxy.restore();
    await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
    await expect(banner).toHaveCount(0);
  } finally {
    await proxy.close();
  }
});

test('the accounts rail shows every account’s unread count, live, the hidden one too', async ({
  server,
  alice,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Add account' }).click();
  const bobEmail = server.demo.users.bob;
  await signInAndWait(page, { email: bobEmail, password: server.demo.password });

  const rail = page.getByRole('navigation', { name: 'Accounts' });
  await expect(rail.getByRole('button')).toHaveCount(3); // two accounts and "Add account"
  const aliceButton = rail.getByRole('button', { name: /^Alice/ });
  await expect(aliceButton).not.toHaveAttribute('aria-current', 'true');
  const before = await unreadOf(aliceButton);

  // Someone writes to alice while bob's account is shown: alice's count rises.
  const owner = await loginAs(server, 'owner');
  const aliceId = (
    (await owner.request('GET', `/users/${encodeURIComponent(alice.email)}`)) as {
      user: { user_id: number };
    }
  ).user.user_id;
  await owner.request('POST', '/messages', {
    type: 'private',
    to: JSON.stringify([aliceId]),
    content: 'Ping',
  });
  await expect.poll(() => unreadOf(aliceButton), { timeout: 5000 }).toBe(before + 1);
});
