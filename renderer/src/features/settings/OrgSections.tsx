/**
 * The organization's sections: its profile and settings (PATCH /realm) and the defaults of new
 * users (PATCH /realm/user_settings_defaults). As in the family's web app, each subsection
 * collects changes and has its own Save / Discard; members who are not administrators see the
 * values read-only, with the reason.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SettingValue } from '../../../../shared/protocol';
import { call } from '../../bridge';
import { useAccountId, useAccountState, useIsAdmin, useOwnRole } from '../../stores/hooks';
import { Banner, Button, InlineError, LockNote, Section, Switch, TextField } from '../../ui';
import {
  type Choice,
  choicesWith,
  defaultSettingGroups,
  LANGUAGES,
  languageLabel,
  type SettingControl,
} from './catalog';
import { ChoiceSelect } from './controls';
import {
  changedValues,
  initialValues,
  ORG_PROFILE,
  ORG_SETTINGS,
  type OrgControl,
  type OrgSubsection,
  orgChoicesWith,
} from './orgCatalog';

export const ADMIN_ONLY = 'Only organization administrators can edit these settings.';
export const OWNER_ONLY = 'Only organization owners can edit these settings.';

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A form over some values with Save / Discard: the draft, what changed, and the save's state. */
function useSubsectionForm(
  initial: Record<string, unknown>,
  save: (changes: Record<string, unknown>) => Promise<void>,
) {
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const values = { ...initial, ...draft };
  const changes = changedValues(initial, values);
  const dirty = Object.keys(changes).length > 0;
  // Once the server's values (events) equal the draft, the draft has nothing left to say.
  useEffect(() => {
    setDraft((d) => {
      const left = changedValues(initial, { ...initial, ...d });
      return Object.keys(left).length === Object.keys(d).length ? d : left;
    });
  }, [initial]);
  return {
    values,
    dirty,
    pending,
    error,
    saved,
    set: (name: string, value: unknown) => {
      setSaved(false);
      setDraft((d) => ({ ...d, [name]: value }));
    },
    discard: () => {
      setDraft({});
      setError(null);
    },
    save: async () => {
      setPending(true);
      setError(null);
      try {
        await save(changes);
        setSaved(true);
        setDraft({});
      } catch (e) {
        setError(errorText(e));
      } finally {
        setPending(false);
      }
    },
  };
}

function SaveDiscard({ title, form }: { title: string; form: ReturnType<typeof useSubsectionForm> }) {
  if (!form.dirty && !form.saved) return null;
  return (
    <fieldset className="save-discard" aria-label={`${title}: unsaved changes`}>
      {form.dirty ? (
        <>
          <Button size="sm" onPress={form.discard} isDisabled={form.pending}>
            Discard
          </Button>
          <Button size="sm" variant="primary" onPress={() => void form.save()} isDisabled={form.pending}>
            {form.pending ? 'Saving…' : 'Save changes'}
          </Button>
        </>
      ) : (
        <span role="status" className="save-mark save-mark-saved">
          Saved
        </span>
      )}
    </fieldset>
  );
}

function useRealmRecord(): Readonly<Record<string, unknown>> {
  return useAccountState((a) => a.realm);
}

/** Subsections of PATCH /realm settings. */
export function OrgRealmSections({ sections }: { sections: OrgSubsection[] }) {
  const isAdmin = useIsAdmin();
  return (
    <>
      {!isAdmin && <LockNote>{ADMIN_ONLY}</LockNote>}
      {sections.map((section) => (
        <RealmSubsection key={section.id} section={section} isAdmin={isAdmin} />
      ))}
    </>
  );
}

export const OrgProfileSection = () => <OrgRealmSections sections={ORG_PROFILE} />;
export const OrgSettingsSection = () => <OrgRealmSections sections={ORG_SETTINGS} />;

function RealmSubsection({ section, isAdmin }: { section: OrgSubsection; isAdmin: boolean }) {
  const realm = useRealmRecord();
  const role = useOwnRole();
  const accountId = useAccountId();
  const initial = useMemo(() => initialValues(section, realm), [section, realm]);
  const form = useSubsectionForm(initial, async (changes) => {
    await call('api.call', { accountId, method: 'PATCH', path: '/realm', params: changes });
  });
  const readOnlyReason = !isAdmin ? ADMIN_ONLY : section.ownersOnly && role !== 100 ? OWNER_ONLY : null;
  const controls = section.controls.filter((c) => realm[c.name] !== undefined || c.name.endsWith('_seconds'));
  return (
    <Section
      headingLevel={3}
      title={section.title}
      description={section.description}
      actions={<SaveDiscard title={section.title} form={form} />}
    >
      {readOnlyReason && isAdmin && <LockNote>{readOnlyReason}</LockNote>}
      {form.error && <InlineError>Could not save: {form.error}</InlineError>}
      <div className="org-controls">
        {controls.map((control) => (
          <OrgControlView
            key={control.name}
            control={control}
            value={form.values[control.name]}
            onChange={(v) => form.set(control.name, v)}
            disabledReason={readOnlyReason}
          />
        ))}
      </div>
    </Section>
  );
}

function OrgControlView({
  control,
  value,
  onChange,
  disabledReason,
}: {
  control: OrgControl;
  value: unknown;
  onChange: (value: unknown) => void;
  disabledReason: string | null;
}) {
  switch (control.kind) {
    case 'switch':
      return (
        <Switch
          label={control.label}
          description={control.hint}
          isSelected={value === true}
          onChange={onChange}
          isDisabled={disabledReason !== null}
        />
      );
    case 'select': {
      const choices = orgChoicesWith(control.choices, value) as Choice[];
      return (
        <ChoiceSelect
          label={control.label}
          description={control.hint}
          choices={choices}
          value={(value ?? '') as SettingValue}
          onChange={onChange}
          isDisabled={disabledReason !== null}
        />
      );
    }
    case 'language': {
      const choices = choicesWith(
        LANGUAGES.map((l) => ({ value: l.code, label: languageLabel(l.code) })),
        value,
      );
      return (
        <ChoiceSelect
          label={control.label}
          choices={choices}
          value={String(value ?? '')}
          onChange={onChange}
          isDisabled={disabledReason !== null}
        />
      );
    }
    case 'text':
      return (
        <TextField
          label={control.label}
          description={control.hint}
          value={typeof value === 'string' ? value : ''}
          onChange={onChange}
          maxLength={control.maxLength}
          multiline={control.multiline}
          isReadOnly={disabledReason !== null}
        />
      );
  }
}

// ---- defaults for new users ----------------------------------------------------------------

export function OrgDefaultsSection() {
  const isAdmin = useIsAdmin();
  const groups = useMemo(defaultSettingGroups, []);
  return (
    <>
      <Banner tone="info" role="status">
        New members start with these settings; everyone can change their own afterwards.
      </Banner>
      {!isAdmin && <LockNote>{ADMIN_ONLY}</LockNote>}
      {groups.map((group) => (
        <DefaultsSubsection
          key={group.title}
          title={group.title}
          controls={group.controls}
          isAdmin={isAdmin}
        />
      ))}
    </>
  );
}

function DefaultsSubsection({
  title,
  controls,
  isAdmin,
}: {
  title: string;
  controls: SettingControl[];
  isAdmin: boolean;
}) {
  const defaults = useAccountState((a) => a.realmUserSettingsDefaults) as Readonly<Record<string, unknown>>;
  const accountId = useAccountId();
  const initial = useMemo(() => {
    const values: Record<string, unknown> = {};
    for (const c of controls) values[c.name] = defaults[c.name];
    return values;
  }, [controls, defaults]);
  const form = useSubsectionForm(initial, async (changes) => {
    await call('api.call', {
      accountId,
      method: 'PATCH',
      path: '/realm/user_settings_defaults',
      params: changes,
    });
  });
  const disabledReason = isAdmin ? null : ADMIN_ONLY;
  const shown = controls.filter((c) => initial[c.name] !== undefined);
  if (shown.length === 0) return null;
  return (
    <Section headingLevel={3} title={title} actions={<SaveDiscard title={title} form={form} />}>
      {form.error && <InlineError>Could not save: {form.error}</InlineError>}
      <div className="org-controls">
        {shown.map((control) => {
          const value = form.values[control.name];
          if (control.kind === 'switch') {
            return (
              <Switch
                key={control.name}
                label={control.label}
                description={control.hint}
                isSelected={value === true}
                onChange={(v) => form.set(control.name, v)}
                isDisabled={!isAdmin}
              />
            );
          }
          if (control.kind === 'select' || control.kind === 'sound') {
            const choices =
              control.kind === 'select'
                ? choicesWith(
                    control.choices(defaults),
                    value,
                    control.name.endsWith('_seconds') ? undefined : String,
                  )
                : choicesWith(
                    ['chime', 'ding', 'knock', 'none'].map((n) => ({
                      value: n,
                      label: n[0]?.toUpperCase() + n.slice(1),
                    })),
                    value,
                  );
            return (
              <ChoiceSelect
                key={control.name}
                label={control.label}
                description={control.hint}
                choices={choices}
                value={value as SettingValue}
                onChange={(v) => form.set(control.name, v)}
                isDisabled={disabledReason !== null}
              />
            );
          }
          return null;
        })}
      </div>
    </Section>
  );
}
