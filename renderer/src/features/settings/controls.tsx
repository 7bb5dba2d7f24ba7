/**
 * The controls of personal settings: each reads the setting as the user should see it (a
 * pending local change, else the server's value), saves at once through the store (which
 * rolls back on refusal), and shows a "saving / saved" mark.
 */
import { Play } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import { NOTIFICATION_SOUNDS, type SettingValue } from '../../../../shared/protocol';
import { useAccountActions, useSetting, useSettingError } from '../../stores/hooks';
import { Banner, Button, ConfirmDialog, IconButton, SaveMark, Select, Switch } from '../../ui';
import {
  type Choice,
  choicesWith,
  formatExampleTime,
  LANGUAGES,
  languageLabel,
  type SettingControl,
  settingLabel,
} from './catalog';
import { playSound, soundLabel } from './sounds';
import { filterZones, formatOffset, timeZoneList, utcOffsetMinutes, zoneLabel } from './timezones';
import { useSaveState } from './useSaveState';

/** The store's refusal of the last change, with the server's message (the value is rolled back). */
export function SettingErrorBanner() {
  const error = useSettingError();
  const { dismissSettingError } = useAccountActions();
  if (!error) return null;
  return (
    <Banner
      tone="danger"
      role="alert"
      action={
        <Button size="sm" variant="ghost" onPress={dismissSettingError}>
          Dismiss
        </Button>
      }
    >
      Could not change “{settingLabel(error.property)}”: {error.message}
    </Banner>
  );
}

/** One control of the catalog, marked with its setting's name (for jumping to it). */
export function SettingControlView({ control }: { control: SettingControl }) {
  return (
    <div className="setting-anchor" data-setting={control.name}>
      <ControlOfKind control={control} />
    </div>
  );
}

function ControlOfKind({ control }: { control: SettingControl }) {
  switch (control.kind) {
    case 'switch':
      return control.name === 'enable_drafts_synchronization' ? (
        <DraftsSyncSwitch control={control} />
      ) : (
        <SettingSwitch name={control.name} label={control.label} hint={control.hint} />
      );
    case 'select':
      return <SettingSelect control={control} />;
    case 'timezone':
      return <TimeZonePicker label={control.label} hint={control.hint} />;
    case 'language':
      return <LanguagePicker label={control.label} />;
    case 'sound':
      return <SoundPicker label={control.label} />;
  }
}

export function SettingSwitch({
  name,
  label,
  hint,
  disabledReason,
  className,
  onChange,
}: {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  disabledReason?: string | null;
  className?: string;
  /** Instead of saving at once (a confirmation first). */
  onChange?: (value: boolean) => void;
}) {
  const value = useSetting(name);
  const { updateSetting } = useAccountActions();
  const state = useSaveState(name);
  // A setting this server does not have is not offered.
  if (typeof value !== 'boolean') return null;
  const description =
    name === 'twenty_four_hour_time' ? `Time format example: ${formatExampleTime(value)}` : hint;
  return (
    <Switch
      className={className}
      label={label}
      isSelected={value}
      onChange={(next) => (onChange ? onChange(next) : void updateSetting(name, next))}
      description={description}
      disabledReason={disabledReason}
      trailing={<SaveMark state={state} />}
    />
  );
}

/** Turning drafts synchronization off deletes the server's copies: asked first. */
function DraftsSyncSwitch({ control }: { control: Extract<SettingControl, { kind: 'switch' }> }) {
  const [asking, setAsking] = useState(false);
  const { updateSetting } = useAccountActions();
  return (
    <>
      <SettingSwitch
        name={control.name}
        label={control.label}
        hint={control.hint}
        onChange={(next) => (next ? void updateSetting(control.name, true) : setAsking(true))}
      />
      <ConfirmDialog
        title="Stop synchronizing drafts?"
        isOpen={asking}
        message={
          <>
            <p>The copies of your drafts on the server will be deleted, on all your devices.</p>
            <p>The drafts on this computer are kept, and stay here only.</p>
          </>
        }
        confirmLabel="Stop synchronizing"
        danger
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          void updateSetting(control.name, false);
        }}
      />
    </>
  );
}

function SettingSelect({ control }: { control: Extract<SettingControl, { kind: 'select' }> }) {
  const value = useSetting(control.name);
  const offeredEmojisets = useSetting('emojiset_choices');
  const { updateSetting } = useAccountActions();
  const state = useSaveState(control.name);
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const choices = choicesWith(
    control.choices({ emojiset_choices: offeredEmojisets }),
    value,
    control.name === 'email_notifications_batching_period_seconds' ? undefined : String,
  );
  return (
    <ChoiceSelect
      label={control.label}
      description={control.hint}
      choices={choices}
      value={value}
      onChange={(next) => void updateSetting(control.name, next)}
      trailing={<SaveMark state={state} />}
    />
  );
}

/** A Select over typed values (numbers or strings) with human labels. */
export function ChoiceSelect({
  label,
  description,
  choices,
  value,
  onChange,
  trailing,
  disabledReason,
  isDisabled,
}: {
  label: ReactNode;
  description?: ReactNode;
  choices: readonly Choice[];
  value: SettingValue;
  onChange: (value: SettingValue) => void;
  trailing?: ReactNode;
  disabledReason?: string | null;
  isDisabled?: boolean;
}) {
  const options = choices.map((c) => ({ id: String(c.value), label: c.label }));
  return (
    <Select
      className="settings-select"
      label={label}
      description={description}
      options={options}
      value={String(value)}
      trailing={trailing}
      disabledReason={disabledReason}
      isDisabled={isDisabled}
      onChange={(key) => {
        const choice = choices.find((c) => String(c.value) === key);
        if (choice && choice.value !== value) onChange(choice.value);
      }}
    />
  );
}

function LanguagePicker({ label }: { label: string }) {
  const value = useSetting('default_language');
  const { updateSetting } = useAccountActions();
  const state = useSaveState('default_language');
  if (typeof value !== 'string') return null;
  const choices = choicesWith(
    LANGUAGES.map((l) => ({ value: l.code, label: languageLabel(l.code) })),
    value,
  );
  return (
    <ChoiceSelect
      label={label}
      choices={choices}
      value={value}
      onChange={(next) => void updateSetting('default_language', next)}
      trailing={<SaveMark state={state} />}
    />
  );
}

const NOT_SET = '';

/** The IANA time zone: a searchable list (by city, region or offset), with the current offset. */
export function TimeZonePicker({ label, hint }: { label: string; hint?: string }) {
  const value = useSetting('timezone');
  const { updateSetting } = useAccountActions();
  const state = useSaveState('timezone');
  const zones = useMemo(() => timeZoneList(), []);
  const current = typeof value === 'string' ? value : NOT_SET;
  const currentLabel = current === NOT_SET ? '' : zoneLabel(current);
  const [input, setInput] = useState(currentLabel);
  // Follow changes made elsewhere (another window, a rollback).
  useEffect(() => setInput(currentLabel), [currentLabel]);

  const items = useMemo(() => {
    const query = input === currentLabel ? '' : input;
    return filterZones(zones, query).map((zone) => ({ id: zone, label: zoneLabel(zone) }));
  }, [zones, input, currentLabel]);

  if (typeof value !== 'string') return null;
  const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset =
    current === NOT_SET
      ? `Not set: times follow this computer (${device}).`
      : `Current offset ${formatOffset(utcOffsetMinutes(current))}, local time ${new Intl.DateTimeFormat(
          undefined,
          {
            timeZone: current,
            hour: 'numeric',
            minute: '2-digit',
          },
        ).format(new Date())}.`;
  return (
    <ComboBox
      className="field timezone-picker"
      items={items}
      inputValue={input}
      onInputChange={setInput}
      selectedKey={current === NOT_SET ? null : current}
      onSelectionChange={(key) => {
        if (typeof key !== 'string' || key === current) return;
        setInput(zoneLabel(key));
        void updateSetting('timezone', key);
      }}
      onBlur={() => setInput(currentLabel)}
      menuTrigger="focus"
      allowsEmptyCollection
    >
      <div className="field-head">
        <Label className="field-label">{label}</Label>
        <SaveMark state={state} />
      </div>
      <div className="combobox-control">
        <Input className="input" placeholder="Search by city or offset (e.g. Berlin, +5:30)" />
        <AriaButton className="combobox-button" aria-label="Show time zones">
          ▾
        </AriaButton>
      </div>
      <Text slot="description" className="field-description">
        {offset} {hint}
      </Text>
      <Popover className="popover combobox-popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => <p className="combobox-empty">No time zone matches “{input}”.</p>}
        >
          {(item: { id: string; label: string }) => (
            <ListBoxItem id={item.id} className="listbox-item" textValue={item.label}>
              {item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}

/** The notification sound, with a button that plays it. */
function SoundPicker({ label }: { label: string }) {
  const value = useSetting('notification_sound');
  const available = useSetting('available_notification_sounds');
  const audibleStreams = useSetting('enable_stream_audible_notifications');
  const audiblePrivate = useSetting('enable_sounds');
  const { updateSetting } = useAccountActions();
  const state = useSaveState('notification_sound');
  if (typeof value !== 'string') return null;
  const names = new Set<string>(
    Array.isArray(available) ? available.filter((s) => typeof s === 'string') : [],
  );
  for (const s of NOTIFICATION_SOUNDS) names.add(s);
  names.delete('none');
  const choices = choicesWith(
    [...[...names].sort().map((n) => ({ value: n, label: soundLabel(n) })), { value: 'none', label: 'None' }],
    value,
  );
  const silent = audibleStreams !== true && audiblePrivate !== true;
  return (
    <div className="sound-picker">
      <ChoiceSelect
        label={label}
        choices={choices}
        value={value}
        onChange={(next) => void updateSetting('notification_sound', next)}
        trailing={<SaveMark state={state} />}
        description={silent ? 'No notification plays a sound: turn on an “Audible” column above.' : undefined}
      />
      <IconButton
        label={value === 'none' ? 'Play sound (no sound chosen)' : `Play ${soundLabel(value)}`}
        icon={<Play size={16} aria-hidden="true" />}
        isDisabled={value === 'none'}
        onPress={() => playSound(value)}
        className="sound-play"
      />
    </div>
  );
}
