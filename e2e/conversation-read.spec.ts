/**
 * Read state and topic deletion in open views (issue 10): unread counts go down as messages are
 * seen (scrolled into view) and when another window or client reads them; a topic deleted by
 * an administrator disappears from a view that shows it.
 */
import { signInAndWait } from './support/app';
import {
  credentialsOf,
  expect,
  messageLog,
  messageRow,
  messageRows,
  openStream,
  openTopic,
  person,
  recipientBar,
  streamRow,
  test,
  topicRow,
  unreadOf,
} from './support/conversation';

const BOB = 'Bob Smith';

test('unread counts go down as messages are scrolled into view, and when another window reads them', async ({
  server,
  openApps,
}) => {
  const [page, other] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(page, credentialsOf(server, 'alice'));
  await signInAndWait(other, credentialsOf(server, 'alice'));
  const general = streamRow(page, 'general');
  const before = await unreadOf(general);
  const alice = await person(server, 'alice');
  const bob = await person(server, 'bob');
  const reading = [
    { operator: 'stream', operand: 'general' },
    { operator: 'topic', operand: 'reading list' },
  ];

  // Bob writes more than a screen of messages; the counts follow at once.
  for (let i = 1; i <= 40; i++) await bob.sendToTopic('general', 'reading list', `Chapter ${i} is done.`);
  await expect.poll(() => unreadOf(general)).toBe(before + 40);

  // Opening the topic marks what is on screen as read, not the rest.
  await openTopic(page, 'general', 'reading list');
  await expect(messageRows(page, BOB).first()).toBeVisible();
  await expect
    .poll(async () => (await alice.unreadIds(reading)).length, { timeout: 15_000 })
    .toBeLessThan(40);
  const unreadAfterOpening = (await alice.unreadIds(reading)).length;
  expect(unreadAfterOpening).toBeGreaterThan(0);
  await expect.poll(() => unreadOf(topicRow(page, 'general', 'reading list'))).toBe(unreadAfterOpening);
  // Rows still unread carry the mark.
  await expect(messageLog(page).getByRole('img', { name: 'Unread' }).first()).toBeAttached();

  // Scrolling through the rest reads them all: down to the end, then up to the start.
  await messageLog(page).hover();
  for (const dy of [...Array(10).fill(500), ...Array(20).fill(-500)]) {
    if ((await alice.unreadIds(reading)).length === 0) break;
    await page.mouse.wheel(0, dy);
    await page.waitForTimeout(250);
  }
  await expect.poll(async () => (await alice.unreadIds(reading)).length, { timeout: 15_000 }).toBe(0);
  await expect.poll(() => unreadOf(general)).toBe(before);
  await expect(topicRow(page, 'general', 'reading list')).not.toContainText('unread');

  // Another window of the same user reads a conversation: this one's counts follow.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Inbox/ })
    .click();
  for (let i = 1; i <= 3; i++) await bob.sendToTopic('general', 'elsewhere', `Note ${i}`);
  await expect.poll(() => unreadOf(general)).toBe(before + 3);
  await openTopic(other, 'general', 'elsewhere');
  await expect(messageRow(other, 'Note 3')).toBeVisible();
  await expect.poll(() => unreadOf(general), { timeout: 15_000 }).toBe(before);

  // And another client (the REST API) marking them read does the same.
  const more = [await bob.sendToTopic('general', 'elsewhere again', 'Note 4')];
  more.push(await bob.sendToTopic('general', 'elsewhere again', 'Note 5'));
  await expect.poll(() => unreadOf(general)).toBe(before + 2);
  await alice.markRead(more);
  await expect.poll(() => unreadOf(general)).toBe(before);
});

test('a topic deleted by an administrator disappears from an open view', async ({ server, openApps }) => {
  const bob = await person(server, 'bob');
  const admin = await person(server, 'admin');
  await bob.sendToTopic('general', 'old news', 'This topic is about to go.');
  await bob.sendToTopic('general', 'old news', 'Really, it is.');
  await bob.sendToTopic('general', 'staying', 'This one stays.');

  const [streamView, topicView] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(streamView, credentialsOf(server, 'alice'));
  await signInAndWait(topicView, credentialsOf(server, 'alice'));
  await openStream(streamView, 'general');
  await expect(messageRow(streamView, 'This topic is about to go.')).toHaveCount(1);
  await expect(recipientBar(streamView, '#general > old news')).toBeVisible();
  await openTopic(topicView, 'general', 'old news');
  await expect(messageRow(topicView, 'Really, it is.')).toHaveCount(1);

  await admin.deleteTopic('general', 'old news');

  for (const page of [streamView, topicView]) {
    await expect(messageRow(page, 'This topic is about to go.')).toHaveCount(0);
    await expect(messageRow(page, 'Really, it is.')).toHaveCount(0);
  }
  await expect(recipientBar(streamView, '#general > old news')).toHaveCount(0);
  await expect(messageRow(streamView, 'This one stays.')).toHaveCount(1);
  await expect(topicRow(streamView, 'general', 'old news')).toHaveCount(0);
  expect(
    await bob.messages([
      { operator: 'stream', operand: 'general' },
      { operator: 'topic', operand: 'old news' },
    ]),
  ).toEqual([]);
});
