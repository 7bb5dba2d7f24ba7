/**
 * Who is signed in, at the bottom of the sidebar: the person, their status, whether the
 * account is connected, and the account's actions (status, settings, shortcuts, add an
 * account, sign out). Sign-out asks first when drafts have not reached the server.
 */
import { Keyboard, LogOut, MoreVertical, Settings, Smile, UserPlus } from 'lucide-react';
import type { AccountSummary } from '../../../../shared/ipc';
import { useActiveAccount, useOwnUserId, useUserStatus } from '../../stores/hooks';
import { Avatar, InlineError, MenuButton } from '../../ui';
import { Emoji } from '../../ui/Emoji';
import { ConfirmSignOut } from './ConfirmSignOut';
import { ConnectionIndicator } from './Connection';
import { useShowDialog } from './dialogs';
import { useNavigate } from './navigation';
import { useSignOutFlow } from './useSignOutFlow';

export function AccountMenu({ onAddAccount }: { onAddAccount: () => void }) {
  const account = useActiveAccount();
  if (!account) return null;
  return <AccountMenuOf account={account} onAddAccount={onAddAccount} />;
}

function AccountMenuOf({ account, onAddAccount }: { account: AccountSummary; onAddAccount: () => void }) {
  const navigate = useNavigate();
  const showDialog = useShowDialog();
  const signOut = useSignOutFlow(account.id);
  const ownId = useOwnUserId();
  const status = useUserStatus(ownId ?? -1);
  const name = account.fullName ?? account.email;
  const statusText = (status?.status_text ?? '').trim();
  const emoji = status?.emoji_name ? (
    <Emoji name={status.emoji_name} code={status.emoji_code} type={status.reaction_type} />
  ) : null;
  const hasStatus = statusText !== '' || emoji !== null;
  return (
    <div className="account-menu">
      <Avatar name={name} userId={account.userId ?? 0} />
      <div className="account-menu-text">
        <span className="account-menu-name">{name}</span>
        <span className="account-menu-sub" title={`${account.email} · ${hostOf(account.serverUrl)}`}>
          {hasStatus ? (
            <>
              {emoji} {statusText}
              <span className="visually-hidden"> ({account.email})</span>
            </>
          ) : (
            `${account.email} · ${hostOf(account.serverUrl)}`
          )}
        </span>
        <ConnectionIndicator />
      </div>
      <MenuButton
        label="Account menu"
        icon={<MoreVertical size={16} aria-hidden="true" />}
        actions={[
          {
            id: 'status',
            label: 'Set status…',
            icon: <Smile size={15} aria-hidden="true" />,
            onAction: () => showDialog('status'),
          },
          {
            id: 'settings',
            label: 'Settings',
            icon: <Settings size={15} aria-hidden="true" />,
            onAction: () => navigate({ name: 'settings', section: 'profile' }),
          },
          {
            id: 'shortcuts',
            label: 'Keyboard shortcuts',
            icon: <Keyboard size={15} aria-hidden="true" />,
            onAction: () => showDialog('shortcuts'),
          },
          {
            id: 'add-account',
            label: 'Add account',
            icon: <UserPlus size={15} aria-hidden="true" />,
            onAction: onAddAccount,
            separatorBefore: true,
          },
          {
            id: 'sign-out',
            label: signOut.pending ? 'Signing out…' : 'Sign out',
            icon: <LogOut size={15} aria-hidden="true" />,
            isDisabled: signOut.pending,
            onAction: signOut.start,
          },
        ]}
      />
      {signOut.question && <ConfirmSignOut question={signOut.question} />}
      {signOut.error && <InlineError>{signOut.error.message}</InlineError>}
    </div>
  );
}

export function hostOf(serverUrl: string): string {
  try {
    return new URL(serverUrl).host;
  } catch {
    return serverUrl;
  }
}
