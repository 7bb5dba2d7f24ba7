/**
 * Signing out, as the top bar offers it: one sign-out mutation (queries/accounts), tried
 * without force first. When the main process refuses because drafts have not reached the
 * server, the user is asked (ConfirmSignOut) and may sign out anyway with the same mutation.
 */
import { useState } from 'react';
import { UNSYNCED_DRAFTS } from '../../../../shared/ipc';
import { IpcCallError } from '../../bridge/result';
import { useSignOut } from '../../queries/accounts';
import type { SignOutQuestion } from './ConfirmSignOut';

export interface SignOutFlow {
  start(): void;
  pending: boolean;
  /** The question to answer before signing out anyway, while it is open. */
  question: SignOutQuestion | null;
  /** A failure for the top bar to show (the question shows its own). */
  error: Error | null;
}

const isUnsyncedDrafts = (error: unknown): error is IpcCallError =>
  error instanceof IpcCallError && error.code === UNSYNCED_DRAFTS;

export function useSignOutFlow(accountId: string): SignOutFlow {
  const signOut = useSignOut();
  // The main process's refusal, while the user has not answered it.
  const [refusal, setRefusal] = useState<string | null>(null);

  const start = () =>
    signOut.mutate(
      { accountId },
      {
        onError: (error) => {
          if (isUnsyncedDrafts(error)) setRefusal(error.message);
        },
      },
    );
  const close = () => {
    setRefusal(null);
    signOut.reset();
  };
  const forced = signOut.variables?.force === true;

  const question: SignOutQuestion | null =
    refusal === null
      ? null
      : {
          message: refusal,
          busy: signOut.isPending,
          error: forced ? (signOut.error?.message ?? null) : null,
          confirm: () => signOut.mutate({ accountId, force: true }, { onSuccess: () => setRefusal(null) }),
          cancel: close,
        };
  const error = refusal === null && !isUnsyncedDrafts(signOut.error) ? signOut.error : null;
  return { start, pending: signOut.isPending, question, error };
}
