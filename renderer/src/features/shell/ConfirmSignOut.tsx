/**
 * The question asked before a sign-out that would leave drafts off the server (the main
 * process refused it with UNSYNCED_DRAFTS). Only the dialog: the sign-out itself is
 * useSignOutFlow's, so there is one sign-out in the app. The drafts stay on this computer
 * either way.
 */
import { useEffect, useId, useRef } from 'react';

export interface SignOutQuestion {
  /** The main process's words: "You have N drafts not yet saved to the server." */
  message: string;
  /** The sign-out anyway is under way. */
  busy: boolean;
  /** Why the sign-out anyway failed. */
  error: string | null;
  confirm(): void;
  cancel(): void;
}

export function ConfirmSignOut({ question }: { question: SignOutQuestion }) {
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();

  // The safe choice has the focus.
  useEffect(() => cancel.current?.focus(), []);

  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      className="confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') question.cancel();
      }}
    >
      <h2 id={titleId}>Sign out?</h2>
      <p id={textId}>{question.message} Sign out anyway?</p>
      <p className="hint">They stay on this computer and are sent when you sign in to this account again.</p>
      {question.error && (
        <p role="alert" className="alert">
          {question.error}
        </p>
      )}
      <div className="actions">
        <button type="button" ref={cancel} onClick={question.cancel} disabled={question.busy}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={question.confirm} disabled={question.busy}>
          {question.busy ? 'Signing out…' : 'Sign out anyway'}
        </button>
      </div>
    </div>
  );
}
