/**
 * One stream's settings (the streams screen's right pane): personal (color, pin, mute,
 * notification overrides), administration (name, description, privacy, posting, retention,
 * archive) and subscribers (adding and removing them as the organization's policies allow).
 * What the user may not change says why.
 */
import { ArrowRight, Check, UserMinus } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Radio, RadioGroup, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useApiMutation, useApiQuery } from '../../queries/api';
import {
  useAccountActions,
  useAccountState,
  useDefaultStreamIds,
  useIsAdmin,
  useRealm,
  useSetting,
  useSubscription,
  useSubscriptionError,
  useSubscriptionProperty,
  useUser,
} from '../../stores/hooks';
import {
  Avatar,
  Button,
  ConfirmDialog,
  EmptyState,
  IconButton,
  InlineError,
  LockNote,
  SaveMark,
  type SaveState,
  Section,
  Select,
  Switch,
  TextField,
} from '../../ui';
import { type StreamsTab, useNavigate } from '../shell/navigation';
import { RichText } from '../shell/richText';
import { streamColorRef } from '../shell/streamColor';
import { PrivacyChoice } from './PrivacyChoice';
import { RetentionFields } from './RetentionFields';
import { StreamDescription } from './StreamDescription';
import { PrivacyIcon } from './StreamsScreen';
import {
  changePrivacyReason,
  flagsOf,
  NOTIFICATION_OVERRIDES,
  normalizeHex,
  type OverrideChoice,
  overrideChoiceOf,
  overrideOptions,
  POST_POLICIES,
  PRIVACY_LABELS,
  type Privacy,
  parseRetentionDays,
  privacyOf,
  type RetentionChoice,
  retentionChoiceOf,
  retentionReason,
  STREAM_PALETTE,
} from './streamsModel';
import { errorText, usePeople, usePrivacyContext, useStreamItem, useSubscriberRules } from './useStreams';

export function StreamSettings({ streamId, tab }: { streamId: number; tab: StreamsTab }) {
  const stream = useStreamItem(streamId);
  const sub = useSubscription(streamId);
  const navigate = useNavigate();
  const toggle = useApiMutation();
  if (!stream)
    return (
      <EmptyState title="This stream is not available.">
        It may have been archived, or you may no longer have access to it.
      </EmptyState>
    );
  const name = String(stream.name);
  const flags = { invite_only: stream.invite_only === true, is_web_public: stream.is_web_public === true };
  return (
    <div className="stream-settings">
      <header className="stream-settings-head">
        <span className="stream-settings-swatch" ref={streamColorRef(sub?.color)} aria-hidden="true" />
        <div className="stream-settings-title">
          <h2>
            <PrivacyIcon stream={flags} size={16} /> {name}
          </h2>
          <StreamDescription stream={stream} className="stream-settings-description" />
        </div>
        <div className="stream-settings-actions">
          <Button
            size="sm"
            onPress={() =>
              toggle.mutate(
                sub
                  ? { method: 'DELETE', path: '/users/me/subscriptions', params: { subscriptions: [name] } }
                  : {
                      method: 'POST',
                      path: '/users/me/subscriptions',
                      params: { subscriptions: [{ name }] },
                    },
              )
            }
            isDisabled={toggle.isPending}
          >
            {sub ? 'Unsubscribe' : 'Subscribe'}
          </Button>
          <Button size="sm" variant="ghost" onPress={() => navigate({ name: 'stream', streamId })}>
            Open stream <ArrowRight size={14} aria-hidden="true" />
          </Button>
        </div>
      </header>
      {toggle.error && <InlineError>{errorText(toggle.error)}</InlineError>}
      <Tabs defaultSelectedKey={sub ? 'personal' : 'general'}>
        <TabList aria-label={`Settings of ${name}`} className="streams-tabs">
          <Tab id="personal" className="streams-tab">
            Personal
          </Tab>
          <Tab id="general" className="streams-tab">
            General
          </Tab>
          <Tab id="subscribers" className="streams-tab">
            Subscribers
          </Tab>
        </TabList>
        <TabPanel id="personal" className="stream-settings-panel">
          {sub ? (
            <PersonalSettings streamId={streamId} />
          ) : (
            <EmptyState title="Subscribe to set your own color, pin and notifications for this stream." />
          )}
        </TabPanel>
        <TabPanel id="general" className="stream-settings-panel">
          <Administration streamId={streamId} stream={stream} tab={tab} />
        </TabPanel>
        <TabPanel id="subscribers" className="stream-settings-panel">
          <Members streamId={streamId} name={name} stream={stream} />
        </TabPanel>
      </Tabs>
    </div>
  );
}

// ---- personal ----------------------------------------------------------------------------------

function PersonalSettings({ streamId }: { streamId: number }) {
  const actions = useAccountActions();
  const color = String(useSubscriptionProperty(streamId, 'color') ?? '');
  const pinned = useSubscriptionProperty(streamId, 'pin_to_top') === true;
  const muted = useSubscriptionProperty(streamId, 'is_muted') === true;
  const error = useSubscriptionError();
  return (
    <>
      {error && error.streamId === streamId && (
        <InlineError>
          Could not save {error.property.replaceAll('_', ' ')}: {error.message}
        </InlineError>
      )}
      <Section title="Appearance" headingLevel={3}>
        <ColorPicker
          value={color}
          onChange={(c) => actions.updateSubscriptionProperty(streamId, 'color', c)}
        />
        <Switch
          label="Pin to the top of the sidebar"
          isSelected={pinned}
          onChange={(v) => actions.updateSubscriptionProperty(streamId, 'pin_to_top', v)}
        />
        <Switch
          label="Mute"
          description="Muted streams are dimmed in the sidebar and their messages do not count as unread."
          isSelected={muted}
          onChange={(v) => actions.updateSubscriptionProperty(streamId, 'is_muted', v)}
        />
      </Section>
      <Section
        title="Notifications"
        headingLevel={3}
        description="Override your general notification settings for this stream."
      >
        {NOTIFICATION_OVERRIDES.map((o) => (
          <NotificationOverride key={o.property} streamId={streamId} {...o} />
        ))}
      </Section>
    </>
  );
}

function ColorPicker({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  const [hex, setHex] = useState(value);
  useEffect(() => setHex(value), [value]);
  const parsed = normalizeHex(hex);
  const inPalette = (STREAM_PALETTE as readonly string[]).includes(value.toLowerCase());
  return (
    <div className="color-picker">
      <RadioGroup
        aria-label="Stream color"
        orientation="horizontal"
        className="color-swatches"
        value={inPalette ? value.toLowerCase() : null}
        onChange={onChange}
      >
        {STREAM_PALETTE.map((c) => (
          <Radio key={c} value={c} aria-label={c} className="color-swatch">
            {({ isSelected }) => (
              <span className="color-swatch-fill" ref={streamColorRef(c)}>
                {isSelected && <Check size={12} aria-hidden="true" />}
              </span>
            )}
          </Radio>
        ))}
      </RadioGroup>
      <form
        className="color-hex"
        onSubmit={(e) => {
          e.preventDefault();
          if (parsed && parsed !== value) onChange(parsed);
        }}
      >
        <span className="color-hex-preview" ref={streamColorRef(parsed ?? undefined)} aria-hidden="true" />
        <TextField
          label="Hex color"
          value={hex}
          onChange={setHex}
          error={hex.trim() !== '' && !parsed ? 'Enter a color like #4f8de4.' : undefined}
        />
        <Button type="submit" size="sm" isDisabled={!parsed || parsed === value}>
          Apply color
        </Button>
      </form>
    </div>
  );
}

function NotificationOverride({
  streamId,
  property,
  setting,
  label,
}: {
  streamId: number;
  property: (typeof NOTIFICATION_OVERRIDES)[number]['property'];
  setting: string;
  label: string;
}) {
  const actions = useAccountActions();
  const value = useSubscriptionProperty(streamId, property);
  const fallback = useSetting(setting) === true;
  const reset = useApiMutation();
  const choice = overrideChoiceOf(value);
  const effective = choice === 'default' ? fallback : choice === 'on';
  return (
    <div className="override-row">
      <Select<OverrideChoice>
        label={label}
        options={overrideOptions(fallback)}
        value={choice}
        description={`Now ${effective ? 'on' : 'off'} for this stream.`}
        onChange={(next) => {
          if (next === 'default')
            reset.mutate({
              method: 'POST',
              path: '/users/me/subscriptions/properties',
              params: { subscription_data: [{ stream_id: streamId, property, value: null }] },
            });
          else actions.updateSubscriptionProperty(streamId, property, next === 'on');
        }}
      />
      {reset.error && <InlineError>{errorText(reset.error)}</InlineError>}
    </div>
  );
}

// ---- administration ------------------------------------------------------------------------

function useSaveState() {
  const [state, setState] = useState<SaveState>('idle');
  const [error, setError] = useState<string | null>(null);
  const patch = useApiMutation();
  const save = async (streamId: number, params: Record<string, unknown>) => {
    setState('saving');
    setError(null);
    try {
      await patch.mutateAsync({ method: 'PATCH', path: `/streams/${streamId}`, params });
      setState('saved');
      return true;
    } catch (e) {
      setState('error');
      setError(errorText(e));
      return false;
    }
  };
  return { state, error, save };
}

function Administration({
  streamId,
  stream,
  tab,
}: {
  streamId: number;
  stream: Record<string, unknown>;
  tab: StreamsTab;
}) {
  const isAdmin = useIsAdmin();
  if (!isAdmin)
    return (
      <>
        <LockNote>
          Only organization administrators can rename this stream, change its description, privacy, who can
          post, message retention, or archive it.
        </LockNote>
        <ReadOnlySummary stream={stream} />
      </>
    );
  return <AdminForms streamId={streamId} stream={stream} tab={tab} />;
}

function ReadOnlySummary({ stream }: { stream: Record<string, unknown> }) {
  const privacy = privacyOf({
    invite_only: stream.invite_only === true,
    is_web_public: stream.is_web_public === true,
    history_public_to_subscribers: stream.history_public_to_subscribers !== false,
  });
  const policy = POST_POLICIES.find((p) => p.id === stream.stream_post_policy)?.label ?? 'Everyone';
  return (
    <dl className="stream-summary">
      <dt>Privacy</dt>
      <dd>{PRIVACY_LABELS[privacy].label}</dd>
      <dt>Who can post</dt>
      <dd>{policy}</dd>
    </dl>
  );
}

function AdminForms({
  streamId,
  stream,
  tab,
}: {
  streamId: number;
  stream: Record<string, unknown>;
  tab: StreamsTab;
}) {
  const navigate = useNavigate();
  const ctx = usePrivacyContext();
  const defaults = useDefaultStreamIds();
  const realmRetention = useRealm('message_retention_days') as number | null | undefined;
  const currentName = String(stream.name);
  const currentDescription = typeof stream.description === 'string' ? stream.description : '';
  const current = {
    invite_only: stream.invite_only === true,
    is_web_public: stream.is_web_public === true,
    history_public_to_subscribers: stream.history_public_to_subscribers !== false,
  };
  const currentPrivacy = privacyOf(current);
  const [name, setName] = useState(currentName);
  const [description, setDescription] = useState(currentDescription);
  const [privacy, setPrivacy] = useState<Privacy>(currentPrivacy);
  useEffect(() => setName(currentName), [currentName]);
  useEffect(() => setDescription(currentDescription), [currentDescription]);
  useEffect(() => setPrivacy(currentPrivacy), [currentPrivacy]);
  const nameSave = useSaveState();
  const descriptionSave = useSaveState();
  const privacySave = useSaveState();
  const policySave = useSaveState();
  const retentionSave = useSaveState();
  const retentionValue = stream.message_retention_days as number | null | undefined;
  const [retention, setRetention] = useState<RetentionChoice>(retentionChoiceOf(retentionValue));
  const [days, setDays] = useState(
    typeof retentionValue === 'number' && retentionValue > 0 ? String(retentionValue) : '30',
  );
  const parsedDays = retention === 'days' ? parseRetentionDays(days) : null;
  const retentionLocked = retentionReason(ctx.role);
  const [archiving, setArchiving] = useState(false);
  const archive = useApiMutation();
  const preview = useDescriptionPreview(description);
  const isDefaultStream = defaults.includes(streamId);

  return (
    <>
      <Section title="Name and description" headingLevel={3}>
        <form
          className="streams-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim() !== currentName) void nameSave.save(streamId, { new_name: name.trim() });
          }}
        >
          <TextField
            label="Stream name"
            value={name}
            onChange={setName}
            maxLength={60}
            error={nameSave.error ?? undefined}
          />
          <Button type="submit" size="sm" isDisabled={name.trim() === currentName || name.trim() === ''}>
            Rename
          </Button>
          <SaveMark state={nameSave.state === 'error' ? 'idle' : nameSave.state} />
        </form>
        <form
          className="description-form"
          onSubmit={(e) => {
            e.preventDefault();
            void descriptionSave.save(streamId, { description });
          }}
        >
          <TextField
            label="Description"
            value={description}
            onChange={setDescription}
            multiline
            rows={3}
            maxLength={1024}
            error={descriptionSave.error ?? undefined}
          />
          <section className="description-preview" aria-label="Description preview">
            <span className="description-preview-label">Preview</span>
            {preview.html === null ? (
              <p className="streams-muted">{description.trim() === '' ? 'No description.' : 'Rendering…'}</p>
            ) : (
              <RichText className="streams-rendered" html={preview.html} />
            )}
            {preview.error && <InlineError>{preview.error}</InlineError>}
          </section>
          <div className="streams-form-actions">
            <Button type="submit" size="sm" isDisabled={description === currentDescription}>
              Save description
            </Button>
            <SaveMark state={descriptionSave.state === 'error' ? 'idle' : descriptionSave.state} />
          </div>
        </form>
      </Section>

      <Section title="Privacy" headingLevel={3}>
        <PrivacyChoice
          value={privacy}
          onChange={setPrivacy}
          reasonOf={(p) => changePrivacyReason(current, p, { ...ctx, isDefaultStream })}
        />
        {privacySave.error && <InlineError>{privacySave.error}</InlineError>}
        <div className="streams-form-actions">
          <Button
            size="sm"
            isDisabled={privacy === currentPrivacy}
            onPress={() => {
              const f = flagsOf(privacy);
              void privacySave.save(streamId, {
                is_private: f.invite_only,
                is_web_public: f.is_web_public,
                history_public_to_subscribers: f.history_public_to_subscribers,
              });
            }}
          >
            Change privacy
          </Button>
          <SaveMark state={privacySave.state === 'error' ? 'idle' : privacySave.state} />
        </div>
      </Section>

      <Section title="Posting and retention" headingLevel={3}>
        <Select
          label="Who can post"
          options={POST_POLICIES}
          value={typeof stream.stream_post_policy === 'number' ? stream.stream_post_policy : 1}
          onChange={(v) => void policySave.save(streamId, { stream_post_policy: Number(v) })}
          trailing={<SaveMark state={policySave.state === 'error' ? 'idle' : policySave.state} />}
        />
        {policySave.error && <InlineError>{policySave.error}</InlineError>}
        <form
          className="streams-inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (parsedDays && 'error' in parsedDays) return;
            void retentionSave.save(streamId, {
              message_retention_days:
                retention === 'days' && parsedDays && 'days' in parsedDays ? parsedDays.days : retention,
            });
          }}
        >
          <RetentionFields
            choice={retention}
            onChoice={setRetention}
            days={days}
            onDays={setDays}
            realmRetention={realmRetention}
            lockedReason={retentionLocked}
          />
          {!retentionLocked && (
            <Button type="submit" size="sm">
              Save retention
            </Button>
          )}
          <SaveMark state={retentionSave.state === 'error' ? 'idle' : retentionSave.state} />
        </form>
        {retentionSave.error && <InlineError>{retentionSave.error}</InlineError>}
      </Section>

      <Section
        title="Archive"
        headingLevel={3}
        description="Archiving removes the stream for everyone; its messages are no longer shown."
        actions={
          <Button variant="danger" size="sm" onPress={() => setArchiving(true)}>
            Archive stream
          </Button>
        }
      >
        {null}
      </Section>
      <ConfirmDialog
        title={`Archive ${currentName}?`}
        isOpen={archiving}
        message={`Everyone will be unsubscribed from ${currentName} and its messages will no longer be shown. This cannot be undone here.`}
        confirmLabel="Archive"
        danger
        pending={archive.isPending}
        error={archive.error ? errorText(archive.error) : undefined}
        onCancel={() => setArchiving(false)}
        onConfirm={() =>
          archive.mutate(
            { method: 'DELETE', path: `/streams/${streamId}` },
            {
              onSuccess: () => {
                setArchiving(false);
                navigate({ name: 'streams', tab });
              },
            },
          )
        }
      />
    </>
  );
}

/** The server's rendering of a description, a moment after typing stops. */
function useDescriptionPreview(text: string): { html: string | null; error: string | null } {
  const render = useApiMutation<{ rendered?: string }>();
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync } = render;
  useEffect(() => {
    if (text.trim() === '') {
      setHtml(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      mutateAsync({ method: 'POST', path: '/messages/render', params: { content: text } })
        .then((body) => {
          if (!live) return;
          setHtml(typeof body.rendered === 'string' ? body.rendered : '');
          setError(null);
        })
        .catch((e: unknown) => {
          if (live) setError(errorText(e));
        });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, mutateAsync]);
  return { html, error };
}

// ---- subscribers ---------------------------------------------------------------------------

function Members({
  streamId,
  name,
  stream,
}: {
  streamId: number;
  name: string;
  stream: Record<string, unknown>;
}) {
  const rules = useSubscriberRules(stream);
  const members = useApiQuery<{ subscribers: number[] }>(`/streams/${streamId}/members`);
  const write = useApiMutation();
  const ids = members.data?.subscribers ?? [];
  const candidates = usePeople()
    .filter((u) => !ids.includes(u.user_id))
    .map((u) => ({ id: u.user_id, label: u.full_name }));
  const [adding, setAdding] = useState<number | null>(null);
  const removeNoteId = useId();
  const lookup = useAccountState((a) => a.users.active);
  const removeReasons = ids.map((id) => rules.removeReason(lookup[id] ?? { user_id: id }));
  const removeReason = removeReasons.find((r) => r !== null) ?? null;
  if (members.isPending) return <p className="streams-muted">Loading subscribers…</p>;
  if (members.error) return <InlineError>{errorText(members.error)}</InlineError>;
  return (
    <>
      <form
        className="streams-inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (adding === null || rules.addReason) return;
          write.mutate(
            {
              method: 'POST',
              path: '/users/me/subscriptions',
              params: { subscriptions: [{ name }], principals: [adding] },
            },
            { onSuccess: () => setAdding(null) },
          );
        }}
      >
        <Select
          label="Add a subscriber"
          options={candidates}
          value={adding}
          onChange={(v) => setAdding(Number(v))}
          placeholder={candidates.length === 0 ? 'Everyone is subscribed' : 'Choose a person'}
          isDisabled={candidates.length === 0}
          disabledReason={rules.addReason}
        />
        <Button
          type="submit"
          size="sm"
          isDisabled={adding === null || write.isPending || rules.addReason !== null}
        >
          Add
        </Button>
      </form>
      {removeReason && (
        <LockNote>
          <span id={removeNoteId}>{removeReason}</span>
        </LockNote>
      )}
      {write.error && <InlineError>{errorText(write.error)}</InlineError>}
      <p className="streams-muted">
        {ids.length} subscriber{ids.length === 1 ? '' : 's'}
      </p>
      <ul className="member-list" aria-label={`Subscribers of ${name}`}>
        {ids.map((id, i) => (
          <MemberRow
            key={id}
            userId={id}
            removeReasonId={removeReasons[i] === null ? null : removeNoteId}
            pending={write.isPending}
            onRemove={() =>
              write.mutate({
                method: 'DELETE',
                path: '/users/me/subscriptions',
                params: { subscriptions: [name], principals: [id] },
              })
            }
          />
        ))}
      </ul>
    </>
  );
}

function MemberRow({
  userId,
  removeReasonId,
  pending,
  onRemove,
}: {
  userId: number;
  /** The id of the note that says why this person may not be removed; null: they may. */
  removeReasonId: string | null;
  pending: boolean;
  onRemove: () => void;
}) {
  const user = useUser(userId);
  const name = user?.full_name ?? `User ${userId}`;
  return (
    <li className="member-row">
      <Avatar name={name} userId={userId} size="sm" />
      <span className="member-name">{name}</span>
      <span className="member-email">{user?.email}</span>
      <IconButton
        label={`Remove ${name}`}
        icon={<UserMinus size={15} aria-hidden="true" />}
        onPress={onRemove}
        isDisabled={removeReasonId !== null || pending}
        aria-describedby={removeReasonId ?? undefined}
      />
    </li>
  );
}
