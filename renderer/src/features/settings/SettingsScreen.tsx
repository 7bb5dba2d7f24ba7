/**
 * Settings: a two-pane screen, the sections listed on the left (personal, then the
 * organization's), the chosen one on the right. Personal settings save at once; the
 * organization's collect changes per subsection with Save / Discard.
 */
import { type ReactNode, useRef } from 'react';
import { useIsAdmin } from '../../stores/hooks';
import { cx, ScreenHeader, Section } from '../../ui';
import {
  CustomEmojiSection,
  PlaygroundsSection,
  ProfileFieldsSection,
  UserGroupsSection,
  UsersSection,
} from '../admin';
import { type SettingsSection, useNavigate } from '../shell/navigation';
import { AccountSection, ProfileSection } from './AccountSections';
import { PREFERENCES, PRIVACY, type SettingGroup } from './catalog';
import { SettingControlView, SettingErrorBanner } from './controls';
import { NotificationsSection } from './NotificationsSection';
import { OrgDefaultsSection, OrgProfileSection, OrgSettingsSection } from './OrgSections';
import { useSettingFocus } from './settingFocus';
import './settings.css';

interface SectionEntry {
  id: SettingsSection;
  label: string;
  description?: string;
  render: () => ReactNode;
}

const PERSONAL: SectionEntry[] = [
  { id: 'profile', label: 'Profile', render: () => <ProfileSection /> },
  { id: 'account', label: 'Account & security', render: () => <AccountSection /> },
  {
    id: 'preferences',
    label: 'Preferences',
    description: 'Changes are saved as you make them and show on all your devices.',
    render: () => <Groups groups={PREFERENCES} />,
  },
  {
    id: 'notifications',
    label: 'Notifications',
    description: 'Changes are saved as you make them.',
    render: () => <NotificationsSection />,
  },
  {
    id: 'privacy',
    label: 'Privacy',
    description: 'What others can see about you.',
    render: () => <Groups groups={PRIVACY} />,
  },
];

const ORGANIZATION: SectionEntry[] = [
  { id: 'org-profile', label: 'Organization profile', render: () => <OrgProfileSection /> },
  { id: 'org-settings', label: 'Organization settings', render: () => <OrgSettingsSection /> },
  { id: 'org-defaults', label: 'Default user settings', render: () => <OrgDefaultsSection /> },
  { id: 'profile-fields', label: 'Custom profile fields', render: () => <ProfileFieldsSection /> },
  { id: 'users', label: 'Users', render: () => <UsersSection /> },
  { id: 'groups', label: 'User groups', render: () => <UserGroupsSection /> },
  { id: 'playgrounds', label: 'Code playgrounds', render: () => <PlaygroundsSection /> },
  { id: 'emoji', label: 'Custom emoji', render: () => <CustomEmojiSection /> },
];

/** Sections that are forms of settings (a readable width); the administration lists take the full width. */
const FORM_SECTIONS: ReadonlySet<SettingsSection> = new Set([
  ...PERSONAL.map((s) => s.id),
  'org-profile',
  'org-settings',
  'org-defaults',
]);

/** The sections of the settings screen, in the navigation's order. */
export const SETTINGS_SECTIONS: readonly { id: SettingsSection; label: string }[] = [
  ...PERSONAL,
  ...ORGANIZATION,
];

export function SettingsScreen({ section }: { section: SettingsSection }) {
  const entry = [...PERSONAL, ...ORGANIZATION].find((s) => s.id === section) ?? PERSONAL[2];
  const content = useRef<HTMLDivElement>(null);
  useSettingFocus(content, entry?.id);
  if (!entry) return null;
  return (
    <div className="screen settings-screen">
      <ScreenHeader title="Settings" />
      <div className="settings-panes">
        <SettingsNav current={entry.id} />
        <div className="settings-content" ref={content}>
          <h2 className="settings-section-title">{entry.label}</h2>
          {entry.description && <p className="settings-section-description">{entry.description}</p>}
          <SettingErrorBanner />
          <div
            className="settings-section-body"
            key={entry.id}
            data-form={FORM_SECTIONS.has(entry.id) ? '' : undefined}
          >
            {entry.render()}
          </div>
        </div>
      </div>
    </div>
  );
}

function SettingsNav({ current }: { current: SettingsSection }) {
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const item = (s: SectionEntry) => (
    <li key={s.id}>
      <button
        type="button"
        className={cx('settings-nav-item', s.id === current && 'settings-nav-current')}
        aria-current={s.id === current ? 'page' : undefined}
        onClick={() => navigate({ name: 'settings', section: s.id })}
      >
        {s.label}
      </button>
    </li>
  );
  return (
    <nav aria-label="Settings" className="settings-nav">
      <h2 className="settings-nav-heading">Personal</h2>
      <ul>{PERSONAL.map(item)}</ul>
      <h2 className="settings-nav-heading">
        Organization
        {!isAdmin && <span className="visually-hidden"> (read-only for you)</span>}
      </h2>
      <ul>{ORGANIZATION.map(item)}</ul>
    </nav>
  );
}

function Groups({ groups }: { groups: SettingGroup[] }) {
  return (
    <>
      {groups.map((group) => (
        <Section key={group.title} title={group.title} description={group.description} headingLevel={3}>
          {group.controls.map((control) => (
            <SettingControlView key={control.name} control={control} />
          ))}
        </Section>
      ))}
    </>
  );
}
