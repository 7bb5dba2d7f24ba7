/**
 * The question asked before a sign-out that would leave drafts off the server (the main
 * process refused it with UNSYNCED_DRAFTS). Only the dialog: the sign-out itself is
 * useSignOutFlow's, so there is one sign-out in the app. The drafts stay on this computer
 * either way. The safe choice, Cancel, has the focus.
 */
import { Button, Dialog, InlineError } from '../../ui';

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
  return (
    <Dialog
      title="Sign out?"
      isOpen
      onClose={question.cancel}
      size="sm"
      role="alertdialog"
      footer={
        <>
          <Button onPress={question.cancel} isDisabled={question.busy} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onPress={question.confirm} isDisabled={question.busy}>
            {question.busy ? 'Signing out…' : 'Sign out anyway'}
          </Button>
        </>
      }
    >
      <p>{question.message} Sign out anyway?</p>
      <p className="muted">They stay on this computer and are sent when you sign in to this account again.</p>
      {question.error && <InlineError>{question.error}</InlineError>}
    </Dialog>
  );
}
