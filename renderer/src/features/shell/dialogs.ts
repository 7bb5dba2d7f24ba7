/**
 * The app-wide dialogs any place may open (the status editor, the shortcut list, the command
 * palette, a person's profile): one open at a time, rendered once by the shell. Opening one
 * from a menu, a shortcut or the palette is the same call.
 */
import { create } from 'zustand';

export type AppDialog = 'status' | 'shortcuts' | 'palette' | 'dnd' | 'profile';

interface DialogState {
  open: AppDialog | null;
  /** Whose profile the 'profile' dialog shows. */
  profileUserId: number | null;
  show: (dialog: AppDialog) => void;
  showProfile: (userId: number) => void;
  close: () => void;
}

const useDialogStore = create<DialogState>()((set) => ({
  open: null,
  profileUserId: null,
  show: (dialog) => set({ open: dialog }),
  showProfile: (userId) => set({ open: 'profile', profileUserId: userId }),
  close: () => set({ open: null }),
}));

export const useOpenDialog = (): AppDialog | null => useDialogStore((s) => s.open);
export const useShowDialog = (): ((dialog: AppDialog) => void) => useDialogStore((s) => s.show);
export const useCloseDialog = (): (() => void) => useDialogStore((s) => s.close);
/** The user id the profile dialog shows (null: none). */
export const useProfileUserId = (): number | null => useDialogStore((s) => s.profileUserId);
export const appDialogs = {
  show: (dialog: AppDialog): void => useDialogStore.getState().show(dialog),
  showProfile: (userId: number): void => useDialogStore.getState().showProfile(userId),
  close: (): void => useDialogStore.getState().close(),
};
