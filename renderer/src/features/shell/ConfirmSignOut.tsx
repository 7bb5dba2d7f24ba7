import { useEffect, useId, useRef, useState } from 'react';
import { getBridge } from '../../bridge';
import { unwrap } from '../../bridge/result';
import { useReceiveAppState } from '../../stores/hooks';

/**
 * Asks before a sign-out that would leave drafts off the server (the main process refused it
 * with UNSYNCED_DRAFTS). The drafts stay on this computer either way.
 */
export function ConfirmSignOut({
  accountId,
  message,
  onDone,
}: {
  accountId: string;
  /** The main process's words: "You have N drafts not yet saved to the server." */
  message: string;
  onDone: () => void;
}) {
  const receiveAppState = useReceiveAppState();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();

  // The safe choice has the focus.
  useEffect(() => cancel.current?.focus(), []);

  const signOut = async () => {
    setBusy(true);
    try {
      receiveAppState(unwrap(await getBridge().invoke('accounts.signOut', { accountId, force: true })));
      onDone();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };

  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      className="confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
    >
      <h2 id={titleId}>Sign out?</h2>
      <p id={textId}>{message} Sign out anyway?</p>
      <p className="hint">They stay on this computer and are sent when you sign in to this account again.</p>
      {error && (
        <p role="alert" className="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" ref={cancel} onClick={onDone} disabled={busy}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => void signOut()} disabled={busy}>
          {busy ? 'Signing out…' : 'Sign out anyway'}
        </button>
      </div>
    </div>
  );
}
