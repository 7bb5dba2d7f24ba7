/**
 * The app's primitives: every screen builds from these (and the tokens in tokens.css), so a
 * button, a switch or a dialog looks and behaves the same everywhere. Headless behaviour
 * (focus, keyboard, ARIA) comes from react-aria-components; the look is ours (ui.css).
 */
export { Avatar, initials, PresenceDot, type PresenceState } from './Avatar';
export { Button, type ButtonProps, type ButtonVariant, cx, IconButton } from './Button';
export { ConfirmDialog, Dialog } from './Dialog';
export { Emoji, type EmojiProps, useSheetIndex } from './Emoji';
export {
  Banner,
  CountBadge,
  EmptyState,
  InlineError,
  LockNote,
  Progress,
  SaveMark,
  type SaveState,
  Tag,
} from './Feedback';
export { SearchField, TextField } from './Field';
export { ScreenHeader, Section, SettingRow } from './Layout';
export { type MenuAction, MenuButton } from './Menu';
export { useRealmEmojiImage } from './RealmEmojiImage';
export { Select, type SelectOption } from './Select';
export { Switch } from './Switch';
export { Tooltip } from './Tooltip';
