/**
 * Request/response data from the main process, through TanStack Query: cached, shared by
 * every component that shows it, and retried/refetched by one set of rules.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { AppInfo, AppState, InvokeRequest } from '../../../shared/ipc';
import { getBridge } from '../bridge';
import { unwrap } from '../bridge/result';
import { useReceiveAppState } from '../stores/hooks';

export const appInfoQueryKey = ['app', 'info'] as const;

/** What the app is (mode, version) and what the sign-in screen offers. Fixed for a run. */
export function useAppInfo() {
  return useQuery<AppInfo>({
    queryKey: appInfoQueryKey,
    queryFn: async () => unwrap(await getBridge().invoke('app.getInfo', {})),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Sign in; the new account becomes the active one. */
export function useSignIn() {
  const receiveAppState = useReceiveAppState();
  return useMutation({
    mutationFn: async (request: InvokeRequest<'accounts.signIn'>) => {
      const bridge = getBridge();
      const account = unwrap(await bridge.invoke('accounts.signIn', request));
      // Make the new account active and show it now rather than when the push comes.
      receiveAppState(unwrap(await bridge.invoke('accounts.setActive', { accountId: account.id })));
      return account;
    },
  });
}

export function useSignOut() {
  const receiveAppState = useReceiveAppState();
  return useMutation({
    mutationFn: async (accountId: string): Promise<AppState> =>
      unwrap(await getBridge().invoke('accounts.signOut', { accountId })),
    onSuccess: receiveAppState,
  });
}

export function useSetActiveAccount() {
  const receiveAppState = useReceiveAppState();
  return useMutation({
    mutationFn: async (accountId: string): Promise<AppState> =>
      unwrap(await getBridge().invoke('accounts.setActive', { accountId })),
    onSuccess: receiveAppState,
  });
}
