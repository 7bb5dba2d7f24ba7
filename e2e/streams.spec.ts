/**
 * Streams: browsing and subscribing (another window's sidebar follows), creating a stream with
 * its options, an administrator renaming and describing a stream (others see it at once, the
 * description rendered), privacy changes offered only where the server allows them, personal
 * color / pin / mute and notification overrides, marking a stream as read, muting, following
 * and unfollowing a topic, adding and removing subscribers (the person's own window follows),
 * message retention, and what a member may do with subscribers under the organization's
 * policies (live as they change).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { type DemoUser, loginAs } from '../test/support/server';
import { type Credentials, expect, type TestServer, test } from './support/app';

function as(server: TestServer, who: DemoUser): Credentials {
  return { email: server.demo.users[who], password: server.demo.password };
}

async function api<T>(
  server: TestServer,
  who: DemoUser,
  method: string,
  path: string,
  params = {},
): Promise<T> {
  const client = await loginAs(server, who);
  return (await client.request(method as 'GET', path, params)) as T;
}

interface Sub {
  stream_id: number;
  name: string;
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  desktop_notifications: boolean | null;
  invite_only: boolean;
  history_public_to_subscribers: boolean;
  stream_post_policy: number;
  description: string;
}

async function subscriptions(server: TestServer, who: DemoUser): Promise<Sub[]> {
  return (await api<{ subscriptions: Sub[] }>(server, who, 'GET', '/users/me/subscriptions')).subscriptions;
}

function sidebar(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

function main(page: Page) {
  return page.getByRole('main');
}

/** Opens the streams screen from the sidebar and one stream's settings. */
async function openStreamSettings(page: Page, stream: string, tab = 'All streams') {
  await sidebar(page).getByRole('button', { name: 'Browse and create streams' }).click();
  await main(page).getByRole('tab', { name: tab }).click();
  await main(page).getByRole('button', { name: stream, exact: true }).click();
  return main(page).getByRole('region', { name: 'Stream settings' });
}

test('subscribing and unsubscribing from the browse list; the other window follows', async ({
  server,
  openSignedIn,
}) => {
  const alice = as(server, 'alice');
  const page = await openSignedIn({ serverUrl: server.url }, alice);
  const other = await openSignedIn({ serverUrl: server.url }, alice);
  await expect(sidebar(other).getByRole('button', { name: /^engineering/ })).toBeVisible();

  await sidebar(page).getByRole('button', { name: 'Browse and create streams' }).click();
  await expect(main(page).getByRole('heading', { name: 'Streams', level: 1 })).toBeVisible();
  const list = main(page).getByRole('list', { name: 'All streams' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  await main(page).getByRole('searchbox', { name: 'Filter streams' }).fill('engin');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('2 subscribers');
  // The description as the server rendered it: **Confab** is bold, not asterisks.
  await expect(list.getByRole('listitem')).toContainText('Building Confab.');
  await expect(list.getByRole('listitem').locator('strong')).toHaveText('Confab');
  // Alice's unread messages in the stream, while she is subscribed.
  await expect(list.getByRole('listitem')).toContainText('3 unread');
  await list.getByRole('button', { name: 'Unsubscribe from engineering' }).click();
  await expect(list.getByRole('listitem')).toContainText('1 subscriber');
  await expect(list.getByRole('listitem')).not.toContainText('unread');
  await expect(list.getByRole('button', { name: 'Subscribe to engineering' })).toBeVisible();
  await expect(sidebar(other).getByRole('button', { name: /^engineering/ })).toHaveCount(0);
  expect((await subscriptions(server, 'alice')).map((s) => s.name)).not.toContain('engineering');

  // The subscribed tab no longer lists it; the filter that matches nothing says so.
  await main(page).getByRole('tab', { name: 'Subscribed' }).click();
  await expect(main(page).getByText('No streams match your filter.')).toBeVisible();

  await main(page).getByRole('tab', { name: 'All streams' }).click();
  await list.getByRole('button', { name: 'Subscribe to engineering' }).click();
  await expect(list.getByRole('button', { name: 'Unsubscribe from engineering' })).toBeVisible();
  await expect(sidebar(other).getByRole('button', { name: /^engineering/ })).toBeVisible();
  expect((await subscriptions(server, 'alice')).map((s) => s.name)).toContain('engineering');
});

test('creating a private stream with its options; web-public says why it is unavailable', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  await sidebar(page).getByRole('button', { name: 'Browse and create streams' }).click();
  await main(page).getByRole('button', { name: 'Create stream' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create stream' });
  await expect(dialog).toBeVisible();
  const webPublic = dialog.getByRole('radio', { name: /Web-public/ });
  await expect(webPublic).toBeDisabled();
  await expect(dialog.getByText(/Web-public streams are not enabled in this organization/)).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Stream name' }).fill('research');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Papers and **ideas**.');
  await dialog.getByRole('radio', { name: /Private, protected history/ }).check({ force: true });
  await expect(dialog.getByRole('checkbox', { name: 'Announce the new stream' })).toBeDisabled();
  await expect(dialog.getByText('Private streams are not announced.')).toBeVisible();
  await dialog.getByRole('button', { name: /Who can post/ }).click();
  await page.getByRole('option', { name: 'Administrators only' }).click();
  await dialog.getByRole('checkbox', { name: 'Bob Smith' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Create stream' }).click();
  await expect(dialog).toHaveCount(0);

  const pane = main(page).getByRole('region', { name: 'Stream settings' });
  await expect(pane.getByRole('heading', { name: /research/ })).toBeVisible();
  const created = (await subscriptions(server, 'admin')).find((s) => s.name === 'research');
  expect(created).toMatchObject({
    invite_only: true,
    history_public_to_subscribers: false,
    stream_post_policy: 2,
    description: 'Papers and **ideas**.',
  });
  const members = await api<{ subscribers: number[] }>(
    server,
    'admin',
    'GET',
    `/streams/${created?.stream_id}/members`,
  );
  expect(members.subscribers).toHaveLength(2);
  expect((await subscriptions(server, 'bob')).map((s) => s.name)).toContain('research');
});

test('an administrator renames a stream and edits its description; another window shows it', async ({
  server,
  openSignedIn,
}) => {
  const admin = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  const alice = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await sidebar(alice)
    .getByRole('button', { name: /^engineering/ })
    .click();
  await expect(main(alice).getByRole('heading', { name: 'engineering', level: 1 })).toBeVisible();

  const pane = await openStreamSettings(admin, 'engineering');
  await pane.getByRole('tab', { name: 'General' }).click();
  await pane.getByRole('textbox', { name: 'Stream name' }).fill('platform');
  await pane.getByRole('button', { name: 'Rename' }).click();
  await expect(main(alice).getByRole('heading', { name: 'platform', level: 1 })).toBeVisible();
  await expect(sidebar(alice).getByRole('button', { name: /^platform/ })).toBeVisible();

  const description = pane.getByRole('textbox', { name: 'Description' });
  await description.fill('Shipping *the* **platform**.');
  const preview = pane.getByRole('region', { name: 'Description preview' });
  await expect(preview.locator('strong')).toHaveText('platform');
  await pane.getByRole('button', { name: 'Save description' }).click();
  // The stream's view shows the server's rendering, not the Markdown source.
  await expect(main(alice).getByText('Shipping the platform.')).toBeVisible();
  await expect(main(alice).getByRole('strong')).toHaveText('platform');
  await expect(main(alice).getByRole('emphasis')).toHaveText('the');
  await expect(main(alice).getByText('Shipping *the* **platform**.')).toHaveCount(0);
  const sub = (await subscriptions(server, 'alice')).find((s) => s.name === 'platform');
  expect(sub?.description).toBe('Shipping *the* **platform**.');
});

test('privacy changes are offered only where the server allows them', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  // general is a default stream: it cannot become private, and web-public is off here.
  let pane = await openStreamSettings(page, 'general');
  await pane.getByRole('tab', { name: 'General' }).click();
  await expect(pane.getByRole('radio', { name: /Private, shared history/ })).toBeDisabled();
  await expect(pane.getByRole('radio', { name: /Private, protected history/ })).toBeDisabled();
  await expect(pane.getByText(/Default streams cannot be made private/).first()).toBeVisible();
  await expect(pane.getByRole('radio', { name: /Web-public/ })).toBeDisabled();
  await expect(pane.getByRole('radio', { name: /^Public/ })).toBeChecked();

  // engineering is not: it may become private with protected history.
  pane = await openStreamSettings(page, 'engineering');
  await pane.getByRole('tab', { name: 'General' }).click();
  const protectedHistory = pane.getByRole('radio', { name: /Private, protected history/ });
  await expect(protectedHistory).toBeEnabled();
  // As a keyboard user picks it (a forced click may land beside react-aria's hidden input).
  await protectedHistory.focus();
  await page.keyboard.press('Space');
  await pane.getByRole('button', { name: 'Change privacy' }).click();
  await expect(pane.getByRole('radio', { name: /Private, protected history/ })).toBeChecked();
  await expect(pane.getByRole('button', { name: 'Change privacy' })).toBeDisabled();
  const sub = (await subscriptions(server, 'admin')).find((s) => s.name === 'engineering');
  expect(sub).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
});

test('personal settings: color, pin, mute and a notification override', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const pane = await openStreamSettings(page, 'engineering', 'Subscribed');
  await expect(pane.getByRole('tab', { name: 'Personal' })).toHaveAttribute('aria-selected', 'true');

  await pane.getByRole('radio', { name: '#e4523d' }).check({ force: true });
  await expect
    .poll(async () => (await subscriptions(server, 'alice')).find((s) => s.name === 'engineering')?.color)
    .toBe('#e4523d');
  await pane.getByRole('textbox', { name: 'Hex color' }).fill('#123456');
  await pane.getByRole('button', { name: 'Apply color' }).click();
  await expect
    .poll(async () => (await subscriptions(server, 'alice')).find((s) => s.name === 'engineering')?.color)
    .toBe('#123456');

  await pane.getByRole('switch', { name: 'Pin to the top of the sidebar' }).click({ force: true });
  await expect(sidebar(page).getByRole('list', { name: 'Pinned streams' })).toContainText('engineering');
  await pane.getByRole('switch', { name: 'Mute' }).click({ force: true });
  await expect(sidebar(page).getByRole('button', { name: /^engineering/ })).toContainText('muted');

  const desktop = pane.getByRole('button', { name: /Desktop notifications/ });
  await expect(desktop).toContainText('Default (');
  await desktop.click();
  await page.getByRole('option', { name: 'On', exact: true }).click();
  await expect
    .poll(
      async () =>
        (await subscriptions(server, 'alice')).find((s) => s.name === 'engineering')?.desktop_notifications,
    )
    .toBe(true);
  await desktop.click();
  await page.getByRole('option', { name: /^Default/ }).click();
  await expect
    .poll(
      async () =>
        (await subscriptions(server, 'alice')).find((s) => s.name === 'engineering')?.desktop_notifications,
    )
    .toBeNull();

  const sub = (await subscriptions(server, 'alice')).find((s) => s.name === 'engineering');
  expect(sub).toMatchObject({ pin_to_top: true, is_muted: true });
});

test('marking a stream as read; muting a topic', async ({ server, openSignedIn }) => {
  // Seeing the stream's messages on the way to its topic list would read them: not here.
  await api(server, 'alice', 'PATCH', '/settings', { web_mark_read_on_scroll_policy: 3 });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await sidebar(page)
    .getByRole('button', { name: /^engineering/ })
    .click();
  // The stream's messages open; its topic list is one step further.
  await sidebar(page)
    .getByRole('button', { name: /^All topics/ })
    .click();
  const view = main(page);
  await expect(view.getByRole('heading', { name: 'engineering', level: 1 })).toBeVisible();
  await expect(view.getByText('3 unread in engineering.')).toBeVisible();
  const topics = view.getByRole('list', { name: 'Topics in engineering' });
  await expect(topics.getByRole('listitem').first()).toContainText('release 1.0');

  await view.getByRole('button', { name: 'Mark stream as read' }).click();
  await expect(view.getByText('Nothing unread in engineering.')).toBeVisible();
  await expect(view.getByRole('button', { name: 'Mark stream as read' })).toBeDisabled();
  const unread = await api<{ messages: unknown[] }>(server, 'alice', 'GET', '/messages', {
    narrow: [
      { operator: 'channel', operand: 'engineering' },
      { operator: 'is', operand: 'unread' },
    ],
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
  });
  expect(unread.messages).toHaveLength(0);

  const row = topics.getByRole('listitem').filter({ hasText: 'release 1.0' });
  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await page.getByRole('menuitem', { name: 'Mute topic' }).click();
  await expect(row.getByText('Muted', { exact: true })).toBeVisible();
  const state = await api<{ user_topics: { topic_name: string; visibility_policy: number }[] }>(
    server,
    'alice',
    'POST',
    '/register',
    { fetch_event_types: ['user_topic'] },
  );
  expect(state.user_topics.find((t) => t.topic_name === 'release 1.0')?.visibility_policy).toBe(1);
  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await expect(page.getByRole('menuitem', { name: 'Unmute topic' })).toBeVisible();
  // Members cannot delete topics: the action is not there.
  await expect(page.getByRole('menuitem', { name: /Delete topic/ })).toHaveCount(0);
});

test('mark all as read clears the unread messages of every stream', async ({ server, openSignedIn }) => {
  // Seeing the stream's messages on the way to its topic list would read them: not here.
  await api(server, 'alice', 'PATCH', '/settings', { web_mark_read_on_scroll_policy: 3 });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  await sidebar(page)
    .getByRole('button', { name: /^general/ })
    .click();
  await sidebar(page)
    .getByRole('button', { name: /^All topics/ })
    .click();
  const view = main(page);
  await view.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(view.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await expect(view.getByText('Nothing unread in general.')).toBeVisible();
  const unread = await api<{ messages: unknown[] }>(server, 'alice', 'GET', '/messages', {
    narrow: [{ operator: 'is', operand: 'unread' }],
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
  });
  expect(unread.messages).toHaveLength(0);
});

test('an administrator deletes a topic after a confirmation naming its messages, and archives a stream', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  const inTopic = async () =>
    (
      await api<{ messages: unknown[] }>(server, 'admin', 'GET', '/messages', {
        narrow: [
          { operator: 'channel', operand: 'general' },
          { operator: 'topic', operand: 'lunch plans' },
        ],
        anchor: 'newest',
        num_before: 100,
        num_after: 0,
      })
    ).messages.length;
  const count = await inTopic();
  expect(count).toBeGreaterThan(1);

  await sidebar(page)
    .getByRole('button', { name: /^general/ })
    .click();
  await sidebar(page)
    .getByRole('button', { name: /^All topics/ })
    .click();
  const topics = main(page).getByRole('list', { name: 'Topics in general' });
  await topics.getByRole('button', { name: 'Actions for topic lunch plans' }).click();
  await page.getByRole('menuitem', { name: 'Delete topic…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete topic “lunch plans”?' });
  await expect(confirm).toContainText(`This deletes ${count} messages in this topic`);
  await confirm.getByRole('button', { name: 'Delete topic' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(topics.getByText('lunch plans')).toHaveCount(0);
  expect(await inTopic()).toBe(0);

  const pane = await openStreamSettings(page, 'design');
  await pane.getByRole('tab', { name: 'General' }).click();
  await pane.getByRole('button', { name: 'Archive stream' }).click();
  const archive = page.getByRole('alertdialog', { name: 'Archive design?' });
  await archive.getByRole('button', { name: 'Archive' }).click();
  await expect(archive).toHaveCount(0);
  await expect(sidebar(page).getByRole('button', { name: /^design/ })).toHaveCount(0);
  await expect(main(page).getByText('No stream selected')).toBeVisible();
  expect((await subscriptions(server, 'admin')).map((s) => s.name)).not.toContain('design');
});

test('a member sees the lock on administration; subscribers follow the organization’s policies, live', async ({
  server,
  openSignedIn,
}) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  let pane = await openStreamSettings(page, 'general');
  await pane.getByRole('tab', { name: 'General' }).click();
  await expect(pane.getByText(/Only organization administrators can rename this stream/)).toBeVisible();
  await expect(pane.getByRole('textbox', { name: 'Stream name' })).toHaveCount(0);
  await expect(pane.getByRole('button', { name: 'Archive stream' })).toHaveCount(0);
  await pane.getByRole('tab', { name: 'Subscribers' }).click();
  const members = pane.getByRole('list', { name: 'Subscribers of general' });
  await expect(members.getByRole('listitem')).toHaveCount(6);
  // Removing others: administrators only (the stream's can_remove_subscribers_group); oneself: always.
  const removeReason = 'Only administrators can remove other subscribers from this stream.';
  await expect(pane.getByText(removeReason)).toBeVisible();
  const removeBob = members.getByRole('button', { name: 'Remove Bob Smith' });
  await expect(removeBob).toBeDisabled();
  await expect(removeBob).toHaveAccessibleDescription(removeReason);
  await expect(members.getByRole('button', { name: 'Remove Alice Doe' })).toBeEnabled();

  // Adding: invite_to_stream_policy is "members", so a member adds Bob to engineering.
  pane = await openStreamSettings(page, 'engineering');
  await pane.getByRole('tab', { name: 'Subscribers' }).click();
  const engineering = pane.getByRole('list', { name: 'Subscribers of engineering' });
  await expect(engineering.getByRole('listitem')).toHaveCount(2);
  await pane.getByRole('button', { name: /Add a subscriber/ }).click();
  await page.getByRole('option', { name: 'Bob Smith', exact: true }).click();
  await pane.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(engineering.getByRole('listitem').filter({ hasText: 'Bob Smith' })).toBeVisible();
  expect((await subscriptions(server, 'bob')).map((s) => s.name)).toContain('engineering');
  await expect(engineering.getByRole('button', { name: 'Remove Bob Smith' })).toBeDisabled();

  // The owner lets only administrators add people: the control says so at once.
  await api(server, 'owner', 'PATCH', '/realm', { invite_to_stream_policy: 2 });
  const addReason = 'Only administrators may add other people to streams in this organization.';
  await expect(pane.getByText(addReason)).toBeVisible();
  await expect(pane.getByRole('button', { name: /Add a subscriber/ })).toBeDisabled();
  await expect(pane.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
});

test('an administrator adds and removes a subscriber; that person’s window follows', async ({
  server,
  openSignedIn,
}) => {
  const admin = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
  const bob = await openSignedIn({ serverUrl: server.url }, as(server, 'bob'));
  await expect(sidebar(bob).getByRole('button', { name: /^general/ })).toBeVisible();
  await expect(sidebar(bob).getByRole('button', { name: /^engineering/ })).toHaveCount(0);
  const bobId = (await api<{ user_id: number }>(server, 'bob', 'GET', '/users/me')).user_id;
  const membersOnServer = async () => {
    const id = (await subscriptions(server, 'admin')).find((s) => s.name === 'engineering')?.stream_id;
    return (await api<{ subscribers: number[] }>(server, 'admin', 'GET', `/streams/${id}/members`))
      .subscribers;
  };

  const pane = await openStreamSettings(admin, 'engineering');
  await pane.getByRole('tab', { name: 'Subscribers' }).click();
  const members = pane.getByRole('list', { name: 'Subscribers of engineering' });
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(pane.getByText('2 subscribers')).toBeVisible();
  // An administrator may remove anyone: no lock.
  await expect(pane.getByText(/can remove other subscribers/)).toHaveCount(0);

  await pane.getByRole('button', { name: /Add a subscriber/ }).click();
  await admin.getByRole('option', { name: 'Bob Smith', exact: true }).click();
  await pane.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(members.getByRole('listitem')).toHaveCount(3);
  await expect(pane.getByText('3 subscribers')).toBeVisible();
  await expect(members.getByRole('listitem').filter({ hasText: 'Bob Smith' })).toBeVisible();
  expect(await membersOnServer()).toContain(bobId);
  await expect(sidebar(bob).getByRole('button', { name: /^engineering/ })).toBeVisible();

  await members.getByRole('button', { name: 'Remove Bob Smith' }).click();
  await expect(members.getByRole('listitem')).toHaveCount(2);
  await expect(members.getByText('Bob Smith')).toHaveCount(0);
  expect(await membersOnServer()).not.toContain(bobId);
  await expect(sidebar(bob).getByRole('button', { name: /^engineering/ })).toHaveCount(0);
});

test('message retention: the organization default with its days, then a number of days', async ({
  server,
  openSignedIn,
}) => {
  await api(server, 'owner', 'PATCH', '/realm', { message_retention_days: 90 });
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'owner'));
  const pane = await openStreamSettings(page, 'engineering');
  await pane.getByRole('tab', { name: 'General' }).click();
  const retention = pane.getByRole('button', { name: /Message retention/ });
  await expect(retention).toContainText('Organization default (90 days)');

  // The organization's setting changes: the label follows.
  await api(server, 'owner', 'PATCH', '/realm', { message_retention_days: 60 });
  await expect(retention).toContainText('Organization default (60 days)');

  const onServer = async () =>
    (
      await api<{ streams: { name: string; message_retention_days: number | null }[] }>(
        server,
        'owner',
        'GET',
        '/streams',
      )
    ).streams.find((s) => s.name === 'engineering')?.message_retention_days;
  expect(await onServer()).toBeNull();
  await retention.click();
  await page.getByRole('option', { name: 'A number of days' }).click();
  await pane.getByRole('textbox', { name: 'Days to keep messages' }).fill('30');
  await pane.getByRole('button', { name: 'Save retention' }).click();
  await expect.poll(onServer).toBe(30);
  await expect(retention).toContainText('A number of days');

  await retention.click();
  await page.getByRole('option', { name: /^Organization default/ }).click();
  await pane.getByRole('button', { name: 'Save retention' }).click();
  await expect.poll(onServer).toBeNull();
  await expect(retention).toContainText('Organization default (60 days)');
});

test('following and unfollowing a topic; another window shows it', async ({ server, openSignedIn }) => {
  const page = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const other = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  const rowIn = async (p: Page) => {
    await sidebar(p)
      .getByRole('button', { name: /^engineering/ })
      .click();
    await sidebar(p)
      .getByRole('button', { name: /^All topics/ })
      .click();
    return main(p)
      .getByRole('list', { name: 'Topics in engineering' })
      .getByRole('listitem')
      .filter({ hasText: 'release 1.0' });
  };
  const row = await rowIn(page);
  const otherRow = await rowIn(other);
  const policyOnServer = async () =>
    (
      await api<{ user_topics: { topic_name: string; visibility_policy: number }[] }>(
        server,
        'alice',
        'POST',
        '/register',
        { fetch_event_types: ['user_topic'] },
      )
    ).user_topics.find((t) => t.topic_name === 'release 1.0')?.visibility_policy ?? 0;

  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await page.getByRole('menuitem', { name: 'Follow topic' }).click();
  await expect(row.getByText('Following', { exact: true })).toBeVisible();
  await expect(otherRow.getByText('Following', { exact: true })).toBeVisible();
  expect(await policyOnServer()).toBe(3);

  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await page.getByRole('menuitem', { name: 'Unfollow topic' }).click();
  await expect(row.getByText('Following', { exact: true })).toHaveCount(0);
  await expect(otherRow.getByText('Following', { exact: true })).toHaveCount(0);
  expect(await policyOnServer()).toBe(0);
  await row.getByRole('button', { name: 'Actions for topic release 1.0' }).click();
  await expect(page.getByRole('menuitem', { name: 'Follow topic' })).toBeVisible();
});

/** Serious or critical axe findings in this part's own screens (the main area, or the open dialog). */
async function seriousViolations(page: Page, within = 'main'): Promise<string[]> {
  const audit = await new AxeBuilder({ page })
    .include(within)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return audit.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`the streams screens in ${scheme} (an administrator): no serious accessibility violation`, async ({
    server,
    openSignedIn,
  }) => {
    const page = await openSignedIn({ serverUrl: server.url }, as(server, 'admin'));
    await page.emulateMedia({ colorScheme: scheme });
    const shot = (name: string) =>
      page.screenshot({ path: `test-results/screens/streams-${name}-${scheme}.png`, fullPage: true });

    let pane = await openStreamSettings(page, 'design', 'Subscribed');
    await expect(pane.getByRole('tab', { name: 'Personal' })).toHaveAttribute('aria-selected', 'true');
    await shot('personal');
    expect(await seriousViolations(page), 'personal').toEqual([]);

    await pane.getByRole('tab', { name: 'General' }).click();
    await expect(pane.getByRole('region', { name: 'Description preview' })).toContainText('Work in progress');
    await shot('general');
    expect(await seriousViolations(page), 'general').toEqual([]);

    await pane.getByRole('tab', { name: 'Subscribers' }).click();
    await expect(pane.getByRole('list', { name: 'Subscribers of design' }).getByRole('listitem')).toHaveCount(
      2,
    );
    await shot('subscribers');
    expect(await seriousViolations(page), 'subscribers').toEqual([]);

    await main(page).getByRole('button', { name: 'Create stream' }).click();
    await expect(page.getByRole('dialog', { name: 'Create stream' })).toBeVisible();
    await shot('create');
    expect(await seriousViolations(page, '[role=dialog]'), 'create').toEqual([]);
    await page.keyboard.press('Escape');

    await sidebar(page)
      .getByRole('button', { name: /^general/ })
      .click();
    await sidebar(page)
      .getByRole('button', { name: /^All topics/ })
      .click();
    await expect(main(page).getByRole('list', { name: 'Topics in general' })).toBeVisible();
    await shot('view');
    expect(await seriousViolations(page), 'view').toEqual([]);
    pane = main(page);
    await pane.getByRole('button', { name: 'Stream settings' }).click();
    await expect(main(page).getByRole('region', { name: 'Stream settings' })).toBeVisible();
  });
}
