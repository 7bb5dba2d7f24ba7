/**
 * Users: everyone in the organization with a role badge, deactivated people marked, a search;
 * administrators create users (with the server's permission), change roles, and deactivate
 * or reactivate after a confirmation. Every change arrives by realm_user events.
 */
import { MoreHorizontal, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { User } from '../../../../shared/protocol';
import { useApiMutation } from '../../queries/api';
import { useAccountState, useIsAdmin, useOwnRole, useOwnUserId } from '../../stores/hooks';
import {
  Avatar,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  InlineError,
  LockNote,
  MenuButton,
  SearchField,
  Select,
  Tag,
  TextField,
} from '../../ui';
import { ADMIN_ONLY, assignableRoles, matchesPerson, roleChangeReason, roleLabel } from './adminModel';
import { errorText, useAllUsers } from './common';
import './admin.css';

const ROLE_TONE: Record<number, 'accent' | 'warn' | 'ok' | 'neutral'> = {
  100: 'accent',
  200: 'accent',
  300: 'ok',
  400: 'neutral',
  600: 'warn',
};

export function UsersSection() {
  const isAdmin = useIsAdmin();
  const users = useAllUsers();
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState(false);
  const [roleFor, setRoleFor] = useState<User | null>(null);
  const [confirmFor, setConfirmFor] = useState<User | null>(null);
  const canCreate = useAccountState((a) => {
    const self =
      a.userId === null ? undefined : (a.users.active[a.userId] as Record<string, unknown> | undefined);
    const flag = self?.can_create_users ?? (a.realm as Record<string, unknown>).can_create_users;
    return typeof flag === 'boolean' ? flag : null;
  });
  const shown = useMemo(() => users.filter((u) => matchesPerson(u, query)), [users, query]);
  const createReason = !isAdmin
    ? ADMIN_ONLY
    : canCreate === false
      ? 'Your account lacks the server’s permission to create users; invite people instead.'
      : null;

  return (
    <div className="admin-section">
      {!isAdmin && <LockNote>{ADMIN_ONLY} You can see who is here and their roles.</LockNote>}
      <div className="admin-toolbar">
        <SearchField
          label="Search users"
          value={query}
          onChange={setQuery}
          placeholder="Search by name or email"
        />
        <span className="admin-count" role="status">
          {shown.length === users.length ? `${users.length} users` : `${shown.length} of ${users.length}`}
        </span>
        <Button
          variant="primary"
          icon={<UserPlus size={16} aria-hidden="true" />}
          isDisabled={createReason !== null}
          onPress={() => setCreating(true)}
          aria-describedby={createReason ? 'admin-create-user-reason' : undefined}
        >
          Create user
        </Button>
      </div>
      {createReason && isAdmin && (
        <p id="admin-create-user-reason" className="admin-reason">
          {createReason}
        </p>
      )}
      {shown.length === 0 ? (
        <EmptyState title="No one matches">Try part of a name or an email address.</EmptyState>
      ) : (
        <ul className="admin-list" aria-label="Users">
          {shown.map((user) => (
            <UserRow
              key={user.user_id}
              user={user}
              isAdmin={isAdmin}
              onChangeRole={() => setRoleFor(user)}
              onToggleActive={() => setConfirmFor(user)}
            />
          ))}
        </ul>
      )}
      {creating && <CreateUserDialog onClose={() => setCreating(false)} />}
      {roleFor && <RoleDialog user={roleFor} onClose={() => setRoleFor(null)} />}
      {confirmFor && <ActivationDialog user={confirmFor} onClose={() => setConfirmFor(null)} />}
    </div>
  );
}

function UserRow({
  user,
  isAdmin,
  onChangeRole,
  onToggleActive,
}: {
  user: User;
  isAdmin: boolean;
  onChangeRole: () => void;
  onToggleActive: () => void;
}) {
  const viewerRole = useOwnRole();
  const viewerId = useOwnUserId();
  const roleReason = roleChangeReason(viewerRole, user, viewerId);
  const self = user.user_id === viewerId;
  const activeReason = self
    ? 'You cannot deactivate yourself here.'
    : user.role === 100 && viewerRole !== 100
      ? 'Only owners can deactivate an owner.'
      : null;
  return (
    <li className={user.is_active ? 'admin-row' : 'admin-row admin-row-inactive'}>
      <Avatar name={user.full_name} userId={user.user_id} size="sm" />
      <div className="admin-row-main">
        <span className="admin-row-title">
          {user.full_name}
          {self && <span className="admin-row-muted"> (you)</span>}
        </span>
        <span className="admin-row-sub">{user.delivery_email ?? user.email}</span>
      </div>
      <div className="admin-row-tags">
        {user.is_bot ? (
          <Tag>Bot</Tag>
        ) : (
          <Tag tone={ROLE_TONE[user.role] ?? 'neutral'}>{roleLabel(user.role)}</Tag>
        )}
        {!user.is_active && <Tag tone="danger">Deactivated</Tag>}
      </div>
      {isAdmin && (
        <MenuButton
          label={`Actions for ${user.full_name}`}
          icon={<MoreHorizontal size={16} aria-hidden="true" />}
          actions={[
            { id: 'role', label: 'Change role…', isDisabled: roleReason !== null, onAction: onChangeRole },
            user.is_active
              ? {
                  id: 'deactivate',
                  label: 'Deactivate…',
                  danger: true,
                  isDisabled: activeReason !== null,
                  onAction: onToggleActive,
                  separatorBefore: true,
                }
              : { id: 'reactivate', label: 'Reactivate…', onAction: onToggleActive, separatorBefore: true },
          ]}
        />
      )}
    </li>
  );
}

function RoleDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const viewerRole = useOwnRole();
  const [role, setRole] = useState<number>(user.role);
  const save = useApiMutation({ onSuccess: onClose });
  return (
    <Dialog
      title={`Change role of ${user.full_name}`}
      isOpen
      onClose={onClose}
      size="sm"
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button
            variant="primary"
            isDisabled={save.isPending || role === user.role}
            onPress={() => save.mutate({ method: 'PATCH', path: `/users/${user.user_id}`, params: { role } })}
          >
            Save role
          </Button>
        </>
      }
    >
      <Select
        label="Role"
        options={assignableRoles(viewerRole)}
        value={role}
        onChange={setRole}
        description="Administrators manage the organization; moderators manage topics and streams; guests see only the streams they are added to."
      />
      {save.error && <InlineError>Could not change the role: {errorText(save.error)}</InlineError>}
    </Dialog>
  );
}

function ActivationDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const change = useApiMutation({ onSuccess: onClose });
  const deactivate = user.is_active;
  return (
    <ConfirmDialog
      isOpen
      title={deactivate ? `Deactivate ${user.full_name}?` : `Reactivate ${user.full_name}?`}
      message={
        deactivate
          ? `${user.full_name} will be signed out everywhere and can no longer sign in. Their messages stay. You can reactivate them later.`
          : `${user.full_name} will be able to sign in again, with the role and streams they had.`
      }
      confirmLabel={deactivate ? 'Deactivate' : 'Reactivate'}
      danger={deactivate}
      pending={change.isPending}
      error={change.error ? errorText(change.error) : null}
      onCancel={onClose}
      onConfirm={() =>
        change.mutate(
          deactivate
            ? { method: 'DELETE', path: `/users/${user.user_id}` }
            : { method: 'POST', path: `/users/${user.user_id}/reactivate` },
        )
      }
    />
  );
}

function CreateUserDialog({ onClose }: { onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const create = useApiMutation({ onSuccess: onClose });
  const ready = email.includes('@') && fullName.trim() !== '' && password.length >= 6;
  return (
    <Dialog
      title="Create a user"
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button
            variant="primary"
            isDisabled={!ready || create.isPending}
            onPress={() =>
              create.mutate({
                method: 'POST',
                path: '/users',
                params: { email: email.trim(), full_name: fullName.trim(), password },
              })
            }
          >
            Create user
          </Button>
        </>
      }
    >
      <div className="admin-form">
        <TextField label="Email" type="email" value={email} onChange={setEmail} isRequired autoFocus />
        <TextField label="Full name" value={fullName} onChange={setFullName} isRequired maxLength={60} />
        <TextField
          label="Initial password"
          type="password"
          value={password}
          onChange={setPassword}
          isRequired
          autoComplete="new-password"
          description="Share it privately; they can change it after signing in."
        />
        {create.error && <InlineError>Could not create the user: {errorText(create.error)}</InlineError>}
      </div>
    </Dialog>
  );
}
