/**
 * The keyboard: one listener on the window for the app's shortcuts (hotkeys.ts says which key
 * is which), and the dialog that lists them all. A shortcut does what the same control in the
 * sidebar or a menu does: navigate, or open an app dialog.
 */
import { useEffect } from 'react';
import { useSetting } from '../../stores/hooks';
import { Dialog } from '../../ui';
import { appDialogs, useOpenDialog } from './dialogs';
import { isTypingTarget, keyLabel, matchShortcut, SHORTCUTS, type ShortcutId } from './hotkeys';
import { defaultRouteFor, navigation, type Route } from './navigation';

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Focuses the search box of the top bar (features/search marks it); false when there is none. */
function focusSearch(): boolean {
  const box = document.querySelector<HTMLInputElement>('[data-search-box] input');
  if (!box) return false;
  box.focus();
  box.select();
  return true;
}

/**
 * Listens for the shortcuts while mounted. `nextUnread` answers where `n` goes (null: nothing
 * unread). Nothing fires while a dialog is open (it has its own keys) or while typing in a field.
 */
export function useGlobalShortcuts(nextUnread: () => Route | null) {
  const open = useOpenDialog();
  const escapeHome = useSetting('escape_navigates_to_default_view') !== false;
  const defaultView = useSetting('default_view');
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      // A modal (ours or another screen's) owns the keyboard while it is open.
      if (open !== null || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      // The focus counts as well as the target: a field with suggestions (react-aria's
      // Autocomplete) replays its keys on the suggestion list, outside the field.
      const typing = isTypingTarget(event.target) || isTypingTarget(document.activeElement);
      const id = matchShortcut(event, typing);
      if (!id) return;
      if (run(id)) event.preventDefault();
    };
    const run = (id: ShortcutId): boolean => {
      switch (id) {
        case 'palette':
          appDialogs.show('palette');
          return true;
        case 'search':
          if (!focusSearch()) appDialogs.show('palette');
          return true;
        case 'shortcuts':
          appDialogs.show('shortcuts');
          return true;
        case 'next-unread': {
          const next = nextUnread();
          if (next) navigation.navigate(next);
          return true;
        }
        case 'compose':
          navigation.navigate({ name: 'compose' });
          return true;
        case 'drafts':
          navigation.navigate({ name: 'drafts' });
          return true;
        case 'inbox':
          navigation.navigate({ name: 'inbox' });
          return true;
        case 'recent':
          navigation.navigate({ name: 'recent' });
          return true;
        case 'settings':
          navigation.navigate({ name: 'settings', section: 'profile' });
          return true;
        case 'escape':
          // Escape in a menu or popover closes that; here only when nothing else took it.
          if (!escapeHome || document.querySelector('[data-trigger], .popover')) return false;
          navigation.navigate(defaultRouteFor(defaultView));
          return true;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, escapeHome, defaultView, nextUnread]);
}

export function ShortcutsDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const groups = ['Navigation', 'Actions', 'Help'] as const;
  return (
    <Dialog title="Keyboard shortcuts" isOpen={isOpen} onClose={onClose} size="md">
      <div className="shortcut-groups">
        {groups.map((group) => (
          <section key={group} aria-labelledby={`shortcuts-${group}`}>
            <h3 id={`shortcuts-${group}`} className="shortcut-heading">
              {group}
            </h3>
            <dl className="shortcut-list">
              {SHORTCUTS.filter((s) => s.group === group).map((s) => (
                <div key={s.id} className="shortcut-row">
                  <dt className="shortcut-keys">
                    {s.keys.map((k) => (
                      <kbd key={k}>{keyLabel(k, IS_MAC)}</kbd>
                    ))}
                  </dt>
                  <dd>{s.description}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
        <p className="muted shortcut-foot">
          Shortcuts work on any keyboard layout and never fire while you type in a field.
        </p>
      </div>
    </Dialog>
  );
}
