/**
 * Conversations without the server (issue 10). The app talks to the server through a TCP proxy
 * (`serverProxy`) that the test cuts, so the server stays up for everyone else:
 *
 * - a message written while the server is unreachable shows "Sending…" and goes out exactly
 *   once when it is back (counted on the server), also when the app was quit and started again
 *   in between (the outbox is on disk);
 * - the app started with the server unreachable shows the cached conversations and messages,
 *   marked as possibly out of date, and catches up by itself once the server is back;
 * - a draft typed in a conversation is there after the app is started again.
 */
import { connectionStatus, signInAndWait } from './support/app';
import {
  cacheBanner,
  composer,
  countOnServer,
  credentialsOf,
  expect,
  expectSentOnce,
  messageRow,
  messageRows,
  openPrivate,
  openTopic,
  person,
  privateRow,
  sidebar,
  streamRow,
  test,
} from './support/conversation';

const ALICE = 'Alice Doe';
const BOB = 'Bob Smith';
const OFFICE = [
  { operator: 'stream', operand: 'general' },
  { operator: 'topic', operand: 'office hours' },
];

/** Writes a message and sends it with the button; the box empties whether or not it went out. */
async function write(page: import('@playwright/test').Page, content: string) {
  const box = composer(page).getByRole('textbox', { name: 'Message' });
  await box.fill(content);
  await composer(page).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(box).toHaveValue('');
}

test('a message written while the server is unreachable says "Sending…" and is sent once when it is back', async ({
  server,
  serverProxy,
  openSignedIn,
}) => {
  const bob = await person(server, 'bob');
  await bob.sendToTopic('general', 'office hours', 'Is the office open tomorrow?');
  const page = await openSignedIn({ serverUrl: serverProxy.url }, credentialsOf(server, 'alice'));
  await openTopic(page, 'general', 'office hours');
  await expect(messageRow(page, 'Is the office open tomorrow?')).toHaveCount(1);

  await serverProxy.cut();
  await expect(connectionStatus(page)).toHaveText(/^Reconnecting/, { timeout: 30_000 });
  await write(page, 'Yes, from nine.');
  const pending = messageRow(page, 'Yes, from nine.');
  await expect(pending).toHaveCount(1);
  await expect(pending).toHaveAccessibleName(`Message from ${ALICE}`);
  await expect(pending).toContainText('Sending…');
  // A while later it is still waiting, and nothing reached the server.
  await page.waitForTimeout(3000);
  await expect(pending).toContainText('Sending…');
  expect(await countOnServer(bob, OFFICE, 'Yes, from nine.')).toBe(0);

  await serverProxy.restore();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
  await expectSentOnce(page, 'Yes, from nine.');
  await expect.poll(() => countOnServer(bob, OFFICE, 'Yes, from nine.'), { timeout: 15_000 }).toBe(1);
  // And it stays one: no second attempt goes out later.
  await page.waitForTimeout(3000);
  expect(await countOnServer(bob, OFFICE, 'Yes, from nine.')).toBe(1);
  await expect(messageRow(page, 'Yes, from nine.')).toHaveCount(1);
});

test('a message queued offline goes out once after the app was quit and started again', async ({
  server,
  serverProxy,
  launchKeptApp,
  openApp,
}) => {
  const bob = await person(server, 'bob');
  await bob.sendToTopic('general', 'office hours', 'Is the office open tomorrow?');
  const app = await launchKeptApp({ serverUrl: serverProxy.url });
  const first = await openApp(app.current);
  await signInAndWait(first, credentialsOf(server, 'alice'));
  await openTopic(first, 'general', 'office hours');
  await expect(messageRow(first, 'Is the office open tomorrow?')).toHaveCount(1);

  await serverProxy.cut();
  await expect(connectionStatus(first)).toHaveText(/^Reconnecting/, { timeout: 30_000 });
  await write(first, 'Queued before the restart.');
  await expect(messageRow(first, 'Queued before the restart.')).toContainText('Sending…');
  await first.close();

  // Quit and start again, still offline: the message is still waiting.
  await app.restart();
  const second = await openApp(app.current);
  await expect(sidebar(second)).toBeVisible({ timeout: 30_000 });
  await openTopic(second, 'general', 'office hours');
  await expect(messageRow(second, 'Queued before the restart.')).toContainText('Sending…');
  expect(await countOnServer(bob, OFFICE, 'Queued before the restart.')).toBe(0);

  await serverProxy.restore();
  await expect(connectionStatus(second)).toHaveText('Connected', { timeout: 30_000 });
  await expect
    .poll(() => countOnServer(bob, OFFICE, 'Queued before the restart.'), { timeout: 30_000 })
    .toBe(1);
  await expectSentOnce(second, 'Queued before the restart.');
  await expect(messageRow(second, 'Queued before the restart.')).toHaveAccessibleName(
    `Message from ${ALICE}`,
  );
  await second.waitForTimeout(3000);
  expect(await countOnServer(bob, OFFICE, 'Queued before the restart.')).toBe(1);
});

test('started with the server unreachable, the app shows the saved conversations and catches up when it is back', async ({
  server,
  serverProxy,
  launchKeptApp,
  openApp,
}) => {
  const app = await launchKeptApp({ serverUrl: serverProxy.url });
  const first = await openApp(app.current);
  await signInAndWait(first, credentialsOf(server, 'alice'));
  // Read a topic and the private conversation with bob while online: they are saved.
  await openTopic(first, 'general', 'lunch plans');
  await expect(messageRow(first, '12:30 works. I will book a table for four.')).toHaveCount(1);
  await openPrivate(first, BOB);
  await expect(messageRow(first, 'Sure, send them over.')).toHaveCount(1);
  await first.close();

  await serverProxy.cut();
  await app.restart();
  const page = await openApp(app.current);
  // The last known streams and conversations, without a server.
  await expect(streamRow(page, 'general')).toBeVisible({ timeout: 30_000 });
  await expect(privateRow(page, BOB)).toBeVisible();
  await expect(connectionStatus(page)).not.toHaveText('Connected');
  await openTopic(page, 'general', 'lunch plans');
  await expect(cacheBanner(page)).toBeVisible();
  await expect(messageRow(page, '12:30 works. I will book a table for four.')).toHaveCount(1);
  await expect(messageRow(page, 'Anyone up for lunch at the noodle place today?')).toHaveAccessibleName(
    'Message from Maya Lin',
  );
  await openPrivate(page, BOB);
  await expect(cacheBanner(page)).toBeVisible();
  await expect(messageRow(page, 'Sure, send them over.')).toHaveCount(1);
  await expect(
    messageRow(page, 'Hey Alice, do you have a minute to look at my mockups?'),
  ).toHaveAccessibleName(`Message from ${BOB}`);

  // Meanwhile bob writes; when the server is back the view catches up without a reload.
  const bob = await person(server, 'bob');
  await bob.sendPrivate([server.demo.users.alice], 'Are you back online?');
  await expect(messageRow(page, 'Are you back online?')).toHaveCount(0);
  await serverProxy.restore();
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
  await expect(messageRow(page, 'Are you back online?')).toHaveCount(1, { timeout: 15_000 });
  await expect(cacheBanner(page)).toHaveCount(0);
  await expect(messageRows(page, BOB).last()).toContainText('Are you back online?');
});

test('a draft typed in a conversation is there after the app is started again', async ({
  server,
  launchKeptApp,
  openApp,
}) => {
  const app = await launchKeptApp({ serverUrl: server.url });
  const first = await openApp(app.current);
  await signInAndWait(first, credentialsOf(server, 'alice'));
  await openTopic(first, 'general', 'weekend');
  const box = composer(first).getByRole('textbox', { name: 'Message' });
  await box.pressSequentially('Half a thought about the weekend');
  // Saved through the core's drafts store (debounced), which also sends it to the server.
  const alice = await person(server, 'alice');
  await expect
    .poll(async () => (await alice.client.getDrafts()).map((d) => d.content), { timeout: 15_000 })
    .toContain('Half a thought about the weekend');
  // Another conversation has its own (empty) compose box.
  await openTopic(first, 'general', 'lunch plans');
  await expect(composer(first).getByRole('textbox', { name: 'Message' })).toHaveValue('');
  await first.close();

  await app.restart();
  const page = await openApp(app.current);
  await expect(connectionStatus(page)).toHaveText('Connected', { timeout: 30_000 });
  await openTopic(page, 'general', 'weekend');
  await expect(composer(page).getByRole('textbox', { name: 'Message' })).toHaveValue(
    'Half a thought about the weekend',
  );
  await openTopic(page, 'general', 'lunch plans');
  await expect(composer(page).getByRole('textbox', { name: 'Message' })).toHaveValue('');
});
