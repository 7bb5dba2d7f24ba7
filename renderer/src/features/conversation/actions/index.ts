/**
 * What one can do to a message: the row's actions (reactions, the actions menu with its
 * dialogs), its reaction chips, and editing in place.
 */
export { useIsEditing } from './editing';
export { MessageActions } from './MessageActions';
export { MessageEditForm } from './MessageEditForm';
export { Reactions } from './Reactions';
export { releaseReads, useReadsHeld } from './readHold';
