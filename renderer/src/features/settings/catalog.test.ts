import { describe, expect, it } from 'vitest';
import { SHARED_SETTINGS } from '../../../../shared/protocol';
import { DISPLAY_SETTINGS, formatExampleTime, settingLabel } from './catalog';

const controls = DISPLAY_SETTINGS.flatMap((g) => g.controls);

describe('display settings catalog', () => {
  it('offers exactly the display settings of the issue', () => {
    expect(controls.map((c) => c.name).sort()).toEqual(
      [
        'twenty_four_hour_time',
        'dense_mode',
        'starred_message_counts',
        'fluid_layout_width',
        'high_contrast_mode',
        'translate_emoticons',
        'display_emoji_reaction_users',
        'escape_navigates_to_default_view',
        'left_side_userlist',
        'enter_sends',
        'color_scheme',
        'default_view',
        'emojiset',
        'demote_inactive_streams',
        'user_list_style',
      ].sort(),
    );
  });

  it('uses checkboxes for booleans and offers every value the server accepts in selects', () => {
    for (const control of controls) {
      const type = SHARED_SETTINGS[control.name].type;
      if (control.kind === 'checkbox') {
        expect(type.kind, control.name).toBe('bool');
      } else {
        expect(type.kind === 'int-enum' || type.kind === 'str-enum', control.name).toBe(true);
        if (type.kind === 'int-enum' || type.kind === 'str-enum') {
          const values = control.choices({}).map((c) => c.value);
          expect(values, control.name).toEqual([...type.values]);
        }
      }
    }
  });

  it('takes the emoji sets from the snapshot when it has them', () => {
    const emojiset = controls.find((c) => c.name === 'emojiset');
    if (emojiset?.kind !== 'select') throw new Error('emojiset is a select');
    expect(emojiset.choices({ emojiset_choices: [{ key: 'text', text: 'Plain text' }] })).toEqual([
      { value: 'text', label: 'Plain text' },
    ]);
  });

  it('labels and time example', () => {
    expect(settingLabel('twenty_four_hour_time')).toBe('24-hour time');
    expect(settingLabel('color_scheme')).toBe('Color scheme');
    expect(settingLabel('unknown_setting')).toBe('unknown_setting');
    expect(formatExampleTime(true)).toBe('14:05');
    expect(formatExampleTime(false)).toBe('2:05 PM');
  });
});
