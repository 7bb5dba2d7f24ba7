/**
 * All signed-in accounts, when there is more than one: a narrow rail left of the sidebar,
 * each account with its initials and its unread count (live for every account: each has its
 * own store, kept in step even while another is shown), the active one marked. Every account
 * stays connected, so switching is instant.
 */
import { Plus } from 'lucide-react';
import { Button as AriaButton } from 'react-aria-components';
import type { AccountSummary } from '../../../../shared/ipc';
import { useSetActiveAccount } from '../../queries/accounts';
import { AccountProvider, useAccounts, useActiveAccountId, useUnreadTotal } from '../../stores/hooks';
import { CountBadge, cx, IconButton, InlineError, initials, Tooltip } from '../../ui';
import { hostOf } from './AccountMenu';

export function AccountSwitcher({ onAddAccount }: { onAddAccount: () => void }) {
  const accounts = useAccounts();
  const activeId = useActiveAccountId();
  const setActive = useSetActiveAccount();
  if (accounts.length < 2) return null;
  return (
    <nav className="account-rail" aria-label="Accounts">
      <ul>
        {accounts.map((account) => (
          <li key={account.id}>
            <AccountButton
              account={account}
              active={account.id === activeId}
              onSelect={() => setActive.mutate({ accountId: account.id })}
            />
          </li>
        ))}
      </ul>
      <IconButton label="Add account" icon={<Plus size={18} aria-hidden="true" />} onPress={onAddAccount} />
      {setActive.error && <InlineError>{setActive.error.message}</InlineError>}
    </nav>
  );
}

function AccountButton({
  account,
  active,
  onSelect,
}: {
  account: AccountSummary;
  active: boolean;
  onSelect: () => void;
}) {
  const name = `${account.fullName ?? account.email} (${hostOf(account.serverUrl)})`;
  return (
    <Tooltip text={name}>
      <AriaButton
        className={cx('account-rail-item', active && 'account-rail-item-active')}
        aria-current={active ? 'true' : undefined}
        onPress={onSelect}
      >
        <span aria-hidden="true">{initials(account.fullName ?? account.email)}</span>
        <span className="visually-hidden">{name}</span>
        {/* Each account's own store: its count, live, whether or not it is the one shown. */}
        <AccountProvider accountId={account.id} fallback={null}>
          <AccountUnread />
        </AccountProvider>
      </AriaButton>
    </Tooltip>
  );
}

function AccountUnread() {
  const count = useUnreadTotal();
  return <CountBadge count={count} />;
}
