/**
 * Conversations, live (issue 10): alice and bob, each in their own app instance, talk in a
 * topic and in their private conversation and each sees the other's message at once; an edit,
 * a deletion and a reaction in one window show in the other. Screenshots of the conversation
 * view in the light and dark themes are attached to the report.
 */
import type { Page, TestInfo } from '@playwright/test';
import { signInAndWait } from './support/app';
import {
  composer,
  countOnServer,
  credentialsOf,
  expect,
  expectSentOnce,
  letMembersDeleteOwnMessages,
  messageLog,
  messageRow,
  openPrivate,
  openTopic,
  person,
  sendFromComposer,
  test,
} from './support/conversation';

const ALICE = 'Alice Doe';
const BOB = 'Bob Smith';

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

test('two people converse in a topic and in a private conversation, each seeing the other live', async ({
  server,
  openApps,
}, testInfo) => {
  const [alice, bob] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(alice, credentialsOf(server, 'alice'));
  await signInAndWait(bob, credentialsOf(server, 'bob'));
  const aliceApi = await person(server, 'alice');
  const topicNarrow = [
    { operator: 'stream', operand: 'general' },
    { operator: 'topic', operand: 'lunch plans' },
  ];

  // A topic: both read #general > lunch plans, with the demo's messages.
  for (const page of [alice, bob]) {
    await openTopic(page, 'general', 'lunch plans');
    await expect(messageRow(page, 'Anyone up for lunch at the noodle place today?')).toHaveCount(1);
  }
  await sendFromComposer(alice, 'Could we make it 12:45 instead?');
  const fromAlice = messageRow(bob, 'Could we make it 12:45 instead?');
  await expect(fromAlice).toHaveCount(1);
  await expect(fromAlice).toHaveAccessibleName(`Message from ${ALICE}`);
  await sendFromComposer(bob, '12:45 works for me.');
  const fromBob = messageRow(alice, '12:45 works for me.');
  await expect(fromBob).toHaveCount(1);
  await expect(fromBob).toHaveAccessibleName(`Message from ${BOB}`);
  // Each message once on each side (the local echo gave way to the server's message) and on the server.
  await expectSentOnce(alice, 'Could we make it 12:45 instead?');
  await expect(messageRow(bob, '12:45 works for me.')).toHaveCount(1);
  expect(await countOnServer(aliceApi, topicNarrow, 'Could we make it 12:45 instead?')).toBe(1);
  expect(await countOnServer(aliceApi, topicNarrow, '12:45 works for me.')).toBe(1);
  // The order is the order of sending: Bob's answer is the last row for both.
  for (const page of [alice, bob]) {
    await expect(messageLog(page).getByRole('article').last()).toContainText('12:45 works for me.');
  }

  await screenshot(alice, testInfo, 'conversation-light');
  await alice.emulateMedia({ colorScheme: 'dark' });
  await screenshot(alice, testInfo, 'conversation-dark');
  await alice.emulateMedia({ colorScheme: 'light' });

  // A private conversation: each opens it from the sidebar, named after the other person.
  await openPrivate(alice, BOB);
  await openPrivate(bob, ALICE);
  for (const page of [alice, bob]) await expect(messageRow(page, 'Sure, send them over.')).toHaveCount(1);
  await sendFromComposer(bob, 'The new mockups are in the shared folder.');
  const dmFromBob = messageRow(alice, 'The new mockups are in the shared folder.');
  await expect(dmFromBob).toHaveCount(1);
  await expect(dmFromBob).toHaveAccessibleName(`Message from ${BOB}`);
  await sendFromComposer(alice, 'Thanks, looking now.');
  const dmFromAlice = messageRow(bob, 'Thanks, looking now.');
  await expect(dmFromAlice).toHaveCount(1);
  await expect(dmFromAlice).toHaveAccessibleName(`Message from ${ALICE}`);
  const dmNarrow = [{ operator: 'dm', operand: [(await person(server, 'bob')).userId] }];
  expect(await countOnServer(aliceApi, dmNarrow, 'Thanks, looking now.')).toBe(1);
  expect(await countOnServer(aliceApi, dmNarrow, 'The new mockups are in the shared folder.')).toBe(1);
  // The topic's messages are not in the private conversation.
  await expect(messageRow(alice, '12:45 works for me.')).toHaveCount(0);
  await expect(composer(alice).getByRole('textbox', { name: 'Message' })).toHaveValue('');
});

test('an edit, a deletion and a reaction in one window show in the other', async ({ server, openApps }) => {
  await letMembersDeleteOwnMessages(server);
  const aliceApi = await person(server, 'alice');
  const bobApi = await person(server, 'bob');
  const topic = 'hike photos';
  const bobsId = await bobApi.sendToTopic('general', topic, 'Pictures from the hike are up.');
  await aliceApi.sendToTopic('general', topic, 'See you Monday');
  await aliceApi.sendToTopic('general', topic, 'Wrong thread, sorry');

  const [alice, bob] = await openApps({ serverUrl: server.url }, { serverUrl: server.url });
  await signInAndWait(alice, credentialsOf(server, 'alice'));
  await signInAndWait(bob, credentialsOf(server, 'bob'));
  for (const page of [alice, bob]) {
    await openTopic(page, 'general', topic);
    await expect(messageRow(page, 'Wrong thread, sorry')).toHaveCount(1);
  }

  // Edit: alice's row's actions, the edit form, Save.
  const mine = messageRow(alice, 'See you Monday');
  await mine.hover();
  await mine.getByRole('button', { name: 'Message actions' }).click();
  await alice.getByRole('menuitem', { name: 'Edit', exact: true }).click();
  const editBox = alice.getByRole('textbox', { name: 'Edit message' });
  await expect(editBox).toHaveValue('See you Monday');
  await editBox.fill('See you on Monday!');
  await alice.getByRole('button', { name: 'Save' }).click();
  const edited = messageRow(bob, 'See you on Monday!');
  await expect(edited).toHaveCount(1);
  await expect(edited).toContainText('(edited)');
  await expect(messageRow(bob, /^See you Monday$/)).toHaveCount(0);
  await expect(messageRow(alice, 'See you on Monday!')).toContainText('(edited)');

  // React: bob's reaction shows in alice's window; alice joins it from hers and bob sees two.
  await bobApi.react(bobsId, 'tada');
  const aliceChip = messageRow(alice, 'Pictures from the hike are up.').getByRole('button', {
    name: 'tada: 1',
  });
  await expect(aliceChip).toHaveAttribute('aria-pressed', 'false');
  await aliceChip.click();
  const bobChip = messageRow(bob, 'Pictures from the hike are up.').getByRole('button', { name: 'tada: 2' });
  await expect(bobChip).toBeVisible();
  await expect(bobChip).toHaveAttribute('aria-pressed', 'true');
  await expect(
    messageRow(alice, 'Pictures from the hike are up.').getByRole('button', { name: 'tada: 2' }),
  ).toHaveAttribute('aria-pressed', 'true');
  const onServer = (await aliceApi.messages([{ operator: 'id', operand: bobsId }], 1))[0];
  expect(onServer?.reactions.map((r) => [r.emoji_name, r.user_id]).sort()).toEqual(
    [
      ['tada', aliceApi.userId],
      ['tada', bobApi.userId],
    ].sort(),
  );

  // Delete: alice deletes her message; it leaves bob's window.
  const wrong = messageRow(alice, 'Wrong thread, sorry');
  await wrong.hover();
  await wrong.getByRole('button', { name: 'Message actions' }).click();
  await alice.getByRole('menuitem', { name: 'Delete', exact: true }).click();
  const confirm = alice.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(messageRow(bob, 'Wrong thread, sorry')).toHaveCount(0);
  await expect(messageRow(alice, 'Wrong thread, sorry')).toHaveCount(0);
  await expect(messageRow(bob, 'See you on Monday!')).toHaveCount(1);
  const left = await aliceApi.messages([
    { operator: 'stream', operand: 'general' },
    { operator: 'topic', operand: topic },
  ]);
  expect(left.map((m) => m.content)).toEqual(['Pictures from the hike are up.', 'See you on Monday!']);
});
