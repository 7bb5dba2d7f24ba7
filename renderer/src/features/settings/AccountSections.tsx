/**
 * Profile (name, the user's own custom profile fields) and Account & security (email,
 * password). These go through api.call: the main process sends them with the account's key,
 * which never reaches this window.
 */
import { useEffect, useState } from 'react';
import type { CustomProfileField } from '../../../../shared/protocol';
import { call } from '../../bridge';
import { useAccountId, useCustomProfileFields, useIsAdmin, useOwnUser, useRealm } from '../../stores/hooks';
import { Avatar, Banner, Button, InlineError, LockNote, Section, Select, TextField } from '../../ui';
import { setPendingEmail, usePendingEmail } from './pendingEmail';
import { passwordProblem, passwordRules, passwordStrength } from './strength';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** One write through api.call, with its pending state and the server's refusal. */
function useWrite() {
  const accountId = useAccountId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (
    method: 'PATCH' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, unknown>,
  ): Promise<boolean> => {
    setPending(true);
    setError(null);
    try {
      await call('api.call', { accountId, method, path, params });
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, run, setError };
}

export const MAX_NAME_LENGTH = 100;

function NameForm() {
  const user = useOwnUser();
  const isAdmin = useIsAdmin();
  const disabled = useRealm('name_changes_disabled') === true && !isAdmin;
  const current = user?.full_name ?? '';
  const [name, setName] = useState(current);
  const [saved, setSaved] = useState(false);
  const write = useWrite();
  // The name changed elsewhere (another window): show the new one.
  useEffect(() => setName(current), [current]);
  const changed = name.trim() !== current && name.trim() !== '';
  const save = async () => {
    setSaved(false);
    if (await write.run('PATCH', '/settings', { full_name: name.trim() })) setSaved(true);
  };
  return (
    <form
      className="settings-form"
      aria-label="Name"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) void save();
      }}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(v) => {
          setName(v);
          setSaved(false);
          write.setError(null);
        }}
        maxLength={MAX_NAME_LENGTH}
        isDisabled={disabled}
        error={write.error}
        autoComplete="name"
        description={disabled ? undefined : 'How everyone in the organization sees you.'}
      />
      {disabled ? (
        <LockNote>Your organization does not allow changing names. Ask an administrator.</LockNote>
      ) : (
        <div className="form-actions">
          <Button type="submit" variant="primary" isDisabled={!changed || write.pending}>
            {write.pending ? 'Saving…' : 'Save name'}
          </Button>
          <span role="status" className="muted">
            {saved ? 'Name saved.' : ''}
          </span>
        </div>
      )}
    </form>
  );
}

export function ProfileSection() {
  const user = useOwnUser();
  const fields = useCustomProfileFields();
  return (
    <>
      <Section headingLevel={3} title="Your profile">
        <div className="profile-head">
          {user && <Avatar name={user.full_name} userId={user.user_id} size="lg" />}
          <div>
            <p className="profile-name">{user?.full_name}</p>
            <p className="muted">{user?.email}</p>
          </div>
        </div>
        <NameForm />
      </Section>
      <Section
        headingLevel={3}
        title="Profile details"
        description="The fields your organization asks for; everyone can see them on your profile card."
      >
        {fields.length === 0 ? (
          <p className="muted">Your organization has no profile fields.</p>
        ) : (
          fields.map((field) => <ProfileFieldEditor key={field.id} field={field} />)
        )}
      </Section>
    </>
  );
}

const FIELD_TYPES = {
  short: 1,
  long: 2,
  choice: 3,
  date: 4,
  url: 5,
  user: 6,
  external: 7,
  pronouns: 8,
} as const;

/** The choices of a choice field, in their order. */
export function fieldChoices(field: Pick<CustomProfileField, 'field_data'>): { id: string; label: string }[] {
  try {
    const data = JSON.parse(field.field_data) as Record<string, { text: string; order: string | number }>;
    return Object.entries(data)
      .sort((a, b) => Number(a[1].order) - Number(b[1].order))
      .map(([id, c]) => ({ id, label: c.text }));
  } catch {
    return [];
  }
}

function ProfileFieldEditor({ field }: { field: CustomProfileField }) {
  const user = useOwnUser();
  const current = user?.profile_data?.[String(field.id)]?.value ?? '';
  const [value, setValue] = useState(current);
  const [saved, setSaved] = useState(false);
  const write = useWrite();
  useEffect(() => setValue(current), [current]);
  const save = async (next: string) => {
    setSaved(false);
    const ok =
      next === ''
        ? await write.run('DELETE', '/users/me/profile_data', { data: [field.id] })
        : await write.run('PATCH', '/users/me/profile_data', { data: [{ id: field.id, value: next }] });
    if (ok) setSaved(true);
  };
  if (field.type === FIELD_TYPES.user || field.type === FIELD_TYPES.external) {
    return (
      <div className="profile-field-readonly">
        <span className="field-label">{field.name}</span>
        <span>{current || '—'}</span>
      </div>
    );
  }
  if (field.type === FIELD_TYPES.choice) {
    const choices = fieldChoices(field);
    return (
      <div className="profile-field">
        <Select
          label={field.name}
          description={field.hint || undefined}
          options={choices}
          value={current || null}
          placeholder="Not set"
          onChange={(key) => void save(String(key))}
          trailing={saved ? <span className="save-mark save-mark-saved">Saved</span> : undefined}
        />
        {write.error && <InlineError>{write.error}</InlineError>}
      </div>
    );
  }
  const changed = value !== current;
  return (
    <form
      className="profile-field"
      aria-label={field.name}
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) void save(value.trim());
      }}
    >
      <TextField
        label={field.name}
        description={
          field.hint || (field.type === FIELD_TYPES.date ? 'A date such as 2024-05-31.' : undefined)
        }
        value={value}
        onChange={(v) => {
          setValue(v);
          setSaved(false);
          write.setError(null);
        }}
        multiline={field.type === FIELD_TYPES.long}
        type={field.type === FIELD_TYPES.url ? 'url' : 'text'}
        error={write.error}
      />
      <div className="form-actions">
        <Button type="submit" size="sm" isDisabled={!changed || write.pending}>
          Save
        </Button>
        <span role="status" className="muted">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}

export function AccountSection() {
  return (
    <>
      <Section headingLevel={3} title="Your name">
        <NameForm />
      </Section>
      <EmailForm />
      <PasswordForm />
      <Section headingLevel={3} title="API key">
        <p className="muted">
          Confab keeps your API key to itself: it is never shown here. Signing out of this account removes it
          from this computer.
        </p>
      </Section>
    </>
  );
}

function EmailForm() {
  const user = useOwnUser();
  const isAdmin = useIsAdmin();
  const disabled = useRealm('email_changes_disabled') === true && !isAdmin;
  const current = user?.delivery_email ?? user?.email ?? '';
  const accountId = useAccountId();
  const [email, setEmail] = useState('');
  // Kept per account while the link waits: leaving the section or opening another window keeps it.
  const pending = usePendingEmail(accountId, current);
  const sentTo = pending?.address ?? null;
  const write = useWrite();
  const valid =
    /^[^\s@]+@[^\s@]+$/.test(email.trim()) && email.trim().toLowerCase() !== current.toLowerCase();
  const submit = async () => {
    const address = email.trim();
    if (await write.run('PATCH', '/settings', { email: address })) {
      setPendingEmail(accountId, { address, from: current, sentAt: Date.now() });
      setEmail('');
    }
  };
  return (
    <Section headingLevel={3} title="Email address" description={`You sign in with ${current}.`}>
      {sentTo && (
        <Banner tone="info" role="status">
          Confirmation sent to {sentTo}. Your address changes once you follow the link in that email; until
          then it stays {current}.
        </Banner>
      )}
      {disabled ? (
        <LockNote>Your organization does not allow changing email addresses. Ask an administrator.</LockNote>
      ) : (
        <form
          className="settings-form"
          aria-label="Change email"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) void submit();
          }}
        >
          <TextField
            label="New email address"
            type="email"
            value={email}
            onChange={(v) => {
              setEmail(v);
              write.setError(null);
            }}
            error={write.error}
            autoComplete="email"
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" isDisabled={!valid || write.pending}>
              {write.pending ? 'Sending…' : 'Change email'}
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}

function PasswordForm() {
  const [old, setOld] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const write = useWrite();
  const minLength = useRealm('password_min_length');
  const minGuesses = useRealm('password_min_guesses');
  const rules = passwordRules(minLength, minGuesses);
  const strength = passwordStrength(next);
  const problem = next === '' ? null : passwordProblem(next, rules);
  const ready = old !== '' && next !== '' && problem === null;
  const submit = async () => {
    setDone(false);
    if (await write.run('PATCH', '/settings', { old_password: old, new_password: next })) {
      setOld('');
      setNext('');
      setDone(true);
    }
  };
  return (
    <Section headingLevel={3} title="Password">
      <form
        className="settings-form"
        aria-label="Change password"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) void submit();
        }}
      >
        <TextField
          label="Current password"
          type="password"
          value={old}
          onChange={(v) => {
            setOld(v);
            write.setError(null);
          }}
          autoComplete="current-password"
        />
        <TextField
          label="New password"
          type="password"
          value={next}
          onChange={(v) => {
            setNext(v);
            setDone(false);
            write.setError(null);
          }}
          autoComplete="new-password"
          description={
            next ? (problem ?? undefined) : `At least ${rules.minLength} characters; longer is stronger.`
          }
        />
        {next && (
          <div className="strength" data-level={strength.level}>
            <meter
              className="strength-meter"
              min={0}
              max={4}
              low={2}
              high={3}
              optimum={4}
              value={strength.level}
              aria-label="Password strength"
            />
            <span>
              Strength: {strength.label} (about {strength.bits} bits)
            </span>
          </div>
        )}
        {write.error && <InlineError>{write.error}</InlineError>}
        <div className="form-actions">
          <Button type="submit" variant="primary" isDisabled={!ready || write.pending}>
            {write.pending ? 'Changing…' : 'Change password'}
          </Button>
          <span role="status" className="muted">
            {done ? 'Password changed.' : ''}
          </span>
        </div>
      </form>
    </Section>
  );
}
