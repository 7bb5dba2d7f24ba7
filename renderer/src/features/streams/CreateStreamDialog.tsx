/** Create a stream with every option the server takes; an option that cannot be had says why. */
import { useState } from 'react';
import { Checkbox, CheckboxGroup, Label } from 'react-aria-components';
import { useApiMutation } from '../../queries/api';
import { useOwnUserId, useRealm } from '../../stores/hooks';
import { Button, Dialog, InlineError, SearchField, Select, TextField } from '../../ui';
import { PrivacyChoice } from './PrivacyChoice';
import { RetentionFields } from './RetentionFields';
import {
  createPrivacyReason,
  flagsOf,
  POST_POLICIES,
  PRIVACY_ORDER,
  type Privacy,
  parseRetentionDays,
  type RetentionChoice,
  retentionReason,
} from './streamsModel';
import { errorText, usePeople, usePrivacyContext } from './useStreams';

export function CreateStreamDialog({
  isOpen,
  onClose,
  onCreated,
}: {
  isOpen: boolean;
  onClose: () => void;
  onCreated: (streamId: number) => void;
}) {
  return (
    <Dialog title="Create stream" isOpen={isOpen} onClose={onClose} size="lg">
      {isOpen && <CreateStreamForm onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function CreateStreamForm({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (streamId: number) => void;
}) {
  const ctx = usePrivacyContext();
  const ownId = useOwnUserId();
  const realmRetention = useRealm('message_retention_days') as number | null | undefined;
  const announcementStream = useRealm('notifications_stream_id');
  const people = usePeople().map((u) => ({ id: u.user_id, name: u.full_name, email: u.email }));
  const firstAllowed = PRIVACY_ORDER.find((p) => p !== 'web-public' && createPrivacyReason(p, ctx) === null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [privacy, setPrivacy] = useState<Privacy>(firstAllowed ?? 'public');
  const [postPolicy, setPostPolicy] = useState<number>(1);
  const [retention, setRetention] = useState<RetentionChoice>('realm_default');
  const [retentionDays, setRetentionDays] = useState('30');
  const [members, setMembers] = useState<string[]>(ownId === null ? [] : [String(ownId)]);
  const [memberFilter, setMemberFilter] = useState('');
  const [announce, setAnnounce] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useApiMutation();

  const retentionLocked = retentionReason(ctx.role);
  const announceReason = flagsOf(privacy).invite_only
    ? 'Private streams are not announced.'
    : announcementStream === -1
      ? 'This organization has no stream for announcements.'
      : null;
  const days = retention === 'days' ? parseRetentionDays(retentionDays) : null;
  const noCreate = createPrivacyReason(privacy, ctx);

  const submit = async () => {
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Choose a name for the stream.');
      return;
    }
    if (days && 'error' in days) return;
    const flags = flagsOf(privacy);
    const params: Record<string, unknown> = {
      subscriptions: [{ name: trimmed, description: description.trim() }],
      invite_only: flags.invite_only,
      is_web_public: flags.is_web_public,
      history_public_to_subscribers: flags.history_public_to_subscribers,
      stream_post_policy: postPolicy,
      principals: members.map(Number),
      announce: announceReason === null && announce,
    };
    if (!retentionLocked && retention !== 'realm_default')
      params.message_retention_days = days && 'days' in days ? days.days : 'unlimited';
    try {
      await create.mutateAsync({ method: 'POST', path: '/users/me/subscriptions', params });
      const found = await create.mutateAsync({
        method: 'GET',
        path: '/get_stream_id',
        params: { stream: trimmed },
      });
      onClose();
      if (typeof found.stream_id === 'number') onCreated(found.stream_id);
    } catch {
      // shown below from create.error
    }
  };

  const shownPeople = people.filter(
    (p) =>
      memberFilter.trim() === '' ||
      `${p.name} ${p.email}`.toLocaleLowerCase().includes(memberFilter.trim().toLocaleLowerCase()),
  );

  return (
    <form
      className="create-stream"
      aria-label="New stream"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="create-stream-grid">
        <div className="create-stream-col">
          <TextField
            label="Stream name"
            value={name}
            onChange={(v) => {
              setName(v);
              setNameError(null);
            }}
            maxLength={60}
            isRequired
            autoFocus
            error={nameError ?? undefined}
          />
          <TextField
            label="Description"
            value={description}
            onChange={setDescription}
            multiline
            rows={3}
            maxLength={1024}
            description="Markdown works here; it shows under the stream's name."
          />
          <PrivacyChoice
            value={privacy}
            onChange={setPrivacy}
            reasonOf={(p) => createPrivacyReason(p, ctx)}
          />
        </div>
        <div className="create-stream-col">
          <Select
            label="Who can post"
            options={POST_POLICIES}
            value={postPolicy}
            onChange={(v) => setPostPolicy(Number(v))}
          />
          <RetentionFields
            choice={retention}
            onChoice={setRetention}
            days={retentionDays}
            onDays={setRetentionDays}
            realmRetention={realmRetention}
            lockedReason={retentionLocked}
          />
          <div className="create-stream-members">
            <SearchField label="Find people to subscribe" value={memberFilter} onChange={setMemberFilter} />
            <CheckboxGroup value={members} onChange={setMembers} className="member-checks">
              <Label className="field-label">Subscribers ({members.length})</Label>
              <div className="member-checks-list">
                {shownPeople.map((p) => (
                  <Checkbox key={p.id} value={String(p.id)} className="streams-check">
                    <span className="streams-check-box" aria-hidden="true" />
                    <span>
                      {p.name}
                      {p.id === ownId ? ' (you)' : ''}
                    </span>
                  </Checkbox>
                ))}
                {shownPeople.length === 0 && <p className="streams-muted">No one matches.</p>}
              </div>
            </CheckboxGroup>
          </div>
          <Checkbox
            isSelected={announceReason === null && announce}
            onChange={setAnnounce}
            isDisabled={announceReason !== null}
            className="streams-check"
            aria-describedby={announceReason ? 'announce-reason' : undefined}
          >
            <span className="streams-check-box" aria-hidden="true" />
            <span>Announce the new stream</span>
          </Checkbox>
          {announceReason && (
            <p id="announce-reason" className="disabled-reason">
              {announceReason}
            </p>
          )}
        </div>
      </div>
      {create.error && <InlineError>{errorText(create.error)}</InlineError>}
      <div className="create-stream-footer">
        <Button onPress={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" isDisabled={create.isPending || noCreate !== null}>
          {create.isPending ? 'Creating…' : 'Create stream'}
        </Button>
      </div>
    </form>
  );
}
