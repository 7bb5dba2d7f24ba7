/**
 * Which message is being edited in place: one at a time in the window. A row shows
 * MessageEditForm instead of its content while useIsEditing(its id) is true.
 */
import { create } from 'zustand';

interface EditingState {
  editingMessageId: number | null;
}

const useEditingStore = create<EditingState>()(() => ({ editingMessageId: null }));

/** Whether this message is being edited. */
export const useIsEditing = (messageId: number): boolean =>
  useEditingStore((s) => s.editingMessageId === messageId);

export const editing = {
  start: (messageId: number): void => useEditingStore.setState({ editingMessageId: messageId }),
  /** Stops editing this message (another one being edited stays so). */
  stop: (messageId: number): void =>
    useEditingStore.setState((s) => (s.editingMessageId === messageId ? { editingMessageId: null } : s)),
  current: (): number | null => useEditingStore.getState().editingMessageId,
};
