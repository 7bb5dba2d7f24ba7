/**
 * User groups under the organization's policies rather than "is an administrator": a member may
 * create groups (user_group_edit_policy "members", the default) and edit the groups they are
 * in; a group they are not in is locked with the server's reason, and the server refuses it
 * too. When the owner restricts the policy, the screen follows at once.
 */
import { type DemoUser, loginAs } from '../test/support/server';
import { type Credentials, expect, openSettings, type TestServer, test } from './support/app';

function as(server: TestServer, who: DemoUser): Credentials {
  return { email: server.demo.users[who], password: server.demo.password };
}

test('user groups follow user_group_edit_policy and group membership, live', async ({
  server,
  openSignedIn,
}) => {
  const bob = await openSignedIn({ serverUrl: server.url }, as(server, 'bob'));
  const alice = await openSignedIn({ serverUrl: server.url }, as(server, 'alice'));
  for (const page of [bob, alice]) await openSettings(page, 'User groups');

  // Alice is in engineering-team: she may edit it. Bob is not: locked, with the reason.
  await expect(alice.getByRole('button', { name: 'Create group' })).toBeEnabled();
  await expect(alice.getByRole('button', { name: 'Edit engineering-team' })).toBeEnabled();
  await expect(bob.getByRole('button', { name: 'Create group' })).toBeEnabled();
  const membersOnly = 'Only a group’s own members, moderators and administrators can edit it.';
  await expect(bob.getByText(membersOnly)).toBeVisible();
  for (const action of ['Edit', 'Deactivate']) {
    const button = bob.getByRole('button', { name: `${action} engineering-team` });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(membersOnly);
  }
  // The server says the same.
  const bobClient = await loginAs(server, 'bob');
  const { user_groups } = (await bobClient.request('GET', '/user_groups', {})) as {
    user_groups: { id: number; name: string }[];
  };
  const team = user_groups.find((g) => g.name === 'engineering-team');
  await expect(
    bobClient.request('PATCH', `/user_groups/${team?.id}`, { description: 'Taken over' }),
  ).rejects.toThrow('Insufficient permission');

  // Only administrators from now on: both members see why, at once.
  const owner = await loginAs(server, 'owner');
  await owner.request('PATCH', '/realm', { user_group_edit_policy: 2 });
  const adminsOnly = 'Only administrators can create and edit user groups here.';
  for (const page of [alice, bob]) {
    await expect(page.getByText(adminsOnly)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create group' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Create group' })).toHaveAccessibleDescription(adminsOnly);
  }
  await expect(alice.getByRole('button', { name: 'Edit engineering-team' })).toBeDisabled();
});
