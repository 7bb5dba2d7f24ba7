/**
 * The app's accounts as requests to the main process, through TanStack Query: what the app is
 * and offers at sign-in, signing in, switching and signing out. The account list itself is not
 * request/response data: it lives in the app store, kept by the `app.state` push (stores/sync).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { AppInfo, InvokeRequest } from '../../../shared/ipc';
import { call } from '../bridge';
import { useReceiveAppState } from '../stores/hooks';

export const appInfoQueryKey = ['app', 'info'] as const;

/** What the app is (mode, version) and what the sign-in screen offers. Fixed for a run. */
export function useAppInfo() {
  return useQuery<AppInfo>({
    queryKey: appInfoQueryKey,
    queryFn: () => call('app.getInfo', {}),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Sign in; the new account becomes the active one. */
export function useSignIn() {
  const receiveAppState = useReceiveAppState();
  return useMutation({
    mutationFn: async (request: InvokeRequest<'accounts.signIn'>) => {
      const account = await call('accounts.signIn', request);
      // Make the new account active and show it now rather than when the push comes.
      receiveAppState(await call('accounts.setActive', { accountId: account.id }));
      return account;
    },
  });
}

/** The requests whose answer is the app's new AppState. */
type AppStateChannel = 'accounts.signOut' | 'accounts.setActive';

/** A request answered with the new AppState, which is shown at once rather than when the push comes. */
function useAppStateMutation<C extends AppStateChannel>(channel: C) {
  const receiveAppState = useReceiveAppState();
  return useMutation({
    mutationFn: (request: InvokeRequest<C>) => call(channel, request),
    onSuccess: receiveAppState,
  });
}

/**
 * The one sign-out. Without `force` the main process refuses (UNSYNCED_DRAFTS) while drafts
 * have not reached the server; features/shell asks the user and then signs out with `force`.
 */
export const useSignOut = () => useAppStateMutation('accounts.signOut');

export const useSetActiveAccount = () => useAppStateMutation('accounts.setActive');
