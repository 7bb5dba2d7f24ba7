/**
 * The organization's administration sections, shown inside the settings screen's
 * "Organization" group: each a component without props that reads the account's state.
 */
export { CustomEmojiSection } from './CustomEmojiSection';
export { PlaygroundsSection } from './PlaygroundsSection';
export { ProfileFieldsSection } from './ProfileFieldsSection';
export { UserGroupsSection } from './UserGroupsSection';
export { UsersSection } from './UsersSection';
