import { useId } from 'react';
import type { SettingValue } from '../../../../shared/protocol';
import { useAccountActions, useSetting, useSettingError, useSettingPending } from '../../stores/hooks';
import {
  type Choice,
  DISPLAY_SETTINGS,
  formatExampleTime,
  type SettingControl,
  settingLabel,
} from './catalog';

/** The display settings of the active account, as labelled controls. */
export function SettingsScreen() {
  const headingId = useId();
  return (
    <main className="screen" aria-labelledby={headingId}>
      <h1 id={headingId}>Display settings</h1>
      <p className="lede">Changes are saved as you make them and show on all your devices.</p>
      <SettingErrorAlert />
      {DISPLAY_SETTINGS.map((group) => (
        <fieldset key={group.title} className="setting-group">
          <legend>{group.title}</legend>
          {group.controls.map((control) =>
            control.kind === 'checkbox' ? (
              <CheckboxSetting key={control.name} control={control} />
            ) : (
              <SelectSetting key={control.name} control={control} />
            ),
          )}
        </fieldset>
      ))}
    </main>
  );
}

function SettingErrorAlert() {
  const error = useSettingError();
  const { dismissSettingError } = useAccountActions();
  if (!error) return null;
  return (
    <div role="alert" className="alert alert-row">
      <span>
        Could not change “{settingLabel(error.property)}”: {error.message}
      </span>
      <button type="button" onClick={dismissSettingError}>
        Dismiss
      </button>
    </div>
  );
}

function Saving({ name }: { name: string }) {
  const pending = useSettingPending(name);
  // Visual only: the control already shows the new value, and failures are announced.
  return pending ? (
    <span className="saving" aria-hidden="true">
      Saving…
    </span>
  ) : null;
}

function CheckboxSetting({ control }: { control: Extract<SettingControl, { kind: 'checkbox' }> }) {
  const id = useId();
  const value = useSetting(control.name);
  const { updateSetting } = useAccountActions();
  // A setting this server does not have is not offered.
  if (typeof value !== 'boolean') return null;
  const isTime = control.name === 'twenty_four_hour_time';
  const hintId = control.hint || isTime ? `${id}-hint` : undefined;
  return (
    <div className="setting setting-checkbox">
      <input
        id={id}
        type="checkbox"
        checked={value}
        aria-describedby={hintId}
        onChange={(e) => void updateSetting(control.name, e.target.checked)}
      />
      <div className="setting-text">
        <label htmlFor={id}>{control.label}</label>
        {hintId && (
          <p id={hintId} className="hint">
            {isTime ? `Time format example: ${formatExampleTime(value)}` : control.hint}
          </p>
        )}
      </div>
      <Saving name={control.name} />
    </div>
  );
}

function SelectSetting({ control }: { control: Extract<SettingControl, { kind: 'select' }> }) {
  const id = useId();
  const value = useSetting(control.name);
  const offeredEmojisets = useSetting('emojiset_choices');
  const { updateSetting } = useAccountActions();
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const choices: Choice[] = [...control.choices({ emojiset_choices: offeredEmojisets })];
  // A value newer than this app knows is still shown, not silently replaced.
  if (!choices.some((c) => c.value === value)) choices.push({ value, label: String(value) });
  const onChange = (text: string) => {
    const choice = choices.find((c) => String(c.value) === text);
    if (choice) void updateSetting(control.name, choice.value as SettingValue);
  };
  return (
    <div className="setting setting-select">
      <label htmlFor={id}>{control.label}</label>
      <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)}>
        {choices.map((c) => (
          <option key={String(c.value)} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
      <Saving name={control.name} />
    </div>
  );
}
