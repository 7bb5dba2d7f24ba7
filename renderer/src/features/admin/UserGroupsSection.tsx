/**
 * User groups: the list with member counts; create with a member picker, edit the name and
 * description, add and remove members, deactivate. Groups follow user_group events. Who may do
 * what follows the organization's user_group_edit_policy and the server's rule that a group is
 * edited by its own members, moderators and administrators; what the user may not do is
 * disabled, with the reason.
 */
import { Plus } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import type { UserGroup } from '../../../../shared/domain';
import { useApiMutation } from '../../queries/api';
import { useOwnRole, useOwnUserId, useRealm, useUserGroups } from '../../stores/hooks';
import {
  Avatar,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  InlineError,
  LockNote,
  SearchField,
  TextField,
} from '../../ui';
import { GROUP_MEMBERS_ONLY, groupCreateReason, groupEditReason, matchesPerson } from './adminModel';
import { errorText, useAllUsers } from './common';
import './admin.css';

/** System groups (role groups) the family names with a "role:" prefix: not edited here. */
const isSystemGroup = (g: UserGroup) => g.is_system_group === true || g.name.startsWith('role:');

export function UserGroupsSection() {
  const policy = useRealm('user_group_edit_policy');
  const role = useOwnRole();
  const userId = useOwnUserId();
  const groups = useUserGroups().filter((g) => !isSystemGroup(g) && g.deactivated !== true);
  const [editing, setEditing] = useState<UserGroup | 'new' | null>(null);
  const [deactivating, setDeactivating] = useState<UserGroup | null>(null);
  const createReason = groupCreateReason(policy, role);
  const reasonOf = (g: UserGroup) => groupEditReason(policy, role, userId, g);
  const someLocked = groups.some((g) => reasonOf(g) !== null);
  const noteId = useId();
  return (
    <div className="admin-section">
      {createReason ? (
        <LockNote>
          <span id={noteId}>{createReason}</span> You can see the groups and who is in them.
        </LockNote>
      ) : (
        someLocked && (
          <LockNote>
            <span id={noteId}>{GROUP_MEMBERS_ONLY}</span>
          </LockNote>
        )
      )}
      <p className="admin-intro">Mention a whole group with @*group name*.</p>
      <div className="admin-toolbar">
        <span className="admin-count">{groups.length === 1 ? '1 group' : `${groups.length} groups`}</span>
        <Button
          variant="primary"
          icon={<Plus size={16} aria-hidden="true" />}
          onPress={() => setEditing('new')}
          isDisabled={createReason !== null}
          aria-describedby={createReason ? noteId : undefined}
        >
          Create group
        </Button>
      </div>
      {groups.length === 0 ? (
        <EmptyState title="No user groups yet">
          {createReason
            ? 'Someone who may create groups can add one.'
            : 'Create one to mention a team at once.'}
        </EmptyState>
      ) : (
        <ul className="admin-list" aria-label="User groups">
          {groups.map((g) => {
            const locked = reasonOf(g) !== null;
            return (
              <li key={g.id} className="admin-row">
                <div className="admin-row-main">
                  <span className="admin-row-title">{g.name}</span>
                  <span className="admin-row-sub">{g.description || 'No description'}</span>
                </div>
                <span className="admin-count">
                  {g.members.length === 1 ? '1 member' : `${g.members.length} members`}
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setEditing(g)}
                  aria-label={`Edit ${g.name}`}
                  isDisabled={locked}
                  aria-describedby={locked ? noteId : undefined}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onPress={() => setDeactivating(g)}
                  aria-label={`Deactivate ${g.name}`}
                  isDisabled={locked}
                  aria-describedby={locked ? noteId : undefined}
                >
                  Deactivate
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {editing && <GroupDialog group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deactivating && <DeactivateDialog group={deactivating} onClose={() => setDeactivating(null)} />}
    </div>
  );
}

function DeactivateDialog({ group, onClose }: { group: UserGroup; onClose: () => void }) {
  const change = useApiMutation({ onSuccess: onClose });
  return (
    <ConfirmDialog
      isOpen
      title={`Deactivate ${group.name}?`}
      message="No one can mention it any more; its members stay in the organization."
      confirmLabel="Deactivate"
      danger
      pending={change.isPending}
      error={change.error ? errorText(change.error) : null}
      onCancel={onClose}
      onConfirm={() => change.mutate({ method: 'POST', path: `/user_groups/${group.id}/deactivate` })}
    />
  );
}

function GroupDialog({ group, onClose }: { group: UserGroup | null; onClose: () => void }) {
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [members, setMembers] = useState<string[]>((group?.members ?? []).map(String));
  const save = useApiMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    try {
      if (!group) {
        await save.mutateAsync({
          method: 'POST',
          path: '/user_groups/create',
          params: { name: name.trim(), description: description.trim(), members: members.map(Number) },
        });
      } else {
        if (name.trim() !== group.name || description.trim() !== group.description) {
          const params: Record<string, string> = {};
          if (name.trim() !== group.name) params.name = name.trim();
          if (description.trim() !== group.description) params.description = description.trim();
          await save.mutateAsync({ method: 'PATCH', path: `/user_groups/${group.id}`, params });
        }
        const before = new Set(group.members.map(String));
        const after = new Set(members);
        const add = members.filter((m) => !before.has(m)).map(Number);
        const del = [...before].filter((m) => !after.has(m)).map(Number);
        if (add.length > 0 || del.length > 0)
          await save.mutateAsync({
            method: 'POST',
            path: `/user_groups/${group.id}/members`,
            params: { add, delete: del },
          });
      }
      onClose();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <Dialog
      title={group ? `Edit ${group.name}` : 'Create a user group'}
      isOpen
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" isDisabled={!name.trim() || save.isPending} onPress={() => void submit()}>
            {group ? 'Save group' : 'Create group'}
          </Button>
        </>
      }
    >
      <div className="admin-form">
        <TextField label="Name" value={name} onChange={setName} isRequired autoFocus maxLength={100} />
        <TextField label="Description" value={description} onChange={setDescription} />
        <MemberPicker selected={members} onChange={setMembers} />
        {error && <InlineError>Could not save the group: {error}</InlineError>}
      </div>
    </Dialog>
  );
}

/** A searchable list of people with checkboxes; the chosen ones stay listed while searching. */
function MemberPicker({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const users = useAllUsers();
  const [query, setQuery] = useState('');
  const candidates = useMemo(
    () =>
      users.filter(
        (u) => u.is_active && !u.is_bot && (matchesPerson(u, query) || selected.includes(String(u.user_id))),
      ),
    [users, query, selected],
  );
  return (
    <div className="admin-picker">
      <div className="admin-picker-head">
        <SearchField label="Search people" value={query} onChange={setQuery} />
        <span className="admin-count" role="status">
          {selected.length === 1 ? '1 member chosen' : `${selected.length} members chosen`}
        </span>
      </div>
      <CheckboxGroup className="admin-picker-list" value={selected} onChange={onChange}>
        <Label className="field-label">Members</Label>
        {candidates.map((u) => (
          <Checkbox key={u.user_id} value={String(u.user_id)} className="admin-checkbox">
            <span className="admin-checkbox-box" aria-hidden="true" />
            <Avatar name={u.full_name} userId={u.user_id} size="sm" />
            <span>{u.full_name}</span>
            <span className="admin-row-muted">{u.delivery_email ?? u.email}</span>
          </Checkbox>
        ))}
      </CheckboxGroup>
    </div>
  );
}
