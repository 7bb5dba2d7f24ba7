/** What the actions read from the account: who is acting, the organization's rules, names. */
import { useCallback } from 'react';
import { ownUser } from '../../../../../shared/domain';
import { getBridge } from '../../../bridge';
import { type ApiParams, callApi } from '../../../bridge/api';
import { useAccountId, useAccountStateShallow, useAccounts } from '../../../stores/hooks';
import type { MessagePolicies } from './model';

const POLICY_FIELDS = [
  'allow_message_editing',
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'delete_own_message_policy',
  'edit_topic_policy',
  'move_messages_between_streams_policy',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'allow_edit_history',
] as const;

/** The organization's message rules (fields the server did not send stay undefined). */
export function usePolicies(): MessagePolicies {
  return useAccountStateShallow((a) =>
    Object.fromEntries(POLICY_FIELDS.filter((f) => f in a.realm).map((f) => [f, a.realm[f]])),
  ) as MessagePolicies;
}

/** The user's id and role (a member until the users are known). */
export function useSelf(): { userId: number; role: number } {
  return useAccountStateShallow((a) => ({ userId: a.userId ?? -1, role: ownUser(a)?.role ?? 400 }));
}

/** A function naming users by id (active or deactivated), for lists of who did something. */
export function useNameOf(userIds: readonly number[]): (userId: number) => string {
  const names = useAccountStateShallow((a) =>
    userIds.map((id) => (a.users.active[id] ?? a.users.nonActive[id])?.full_name ?? 'Unknown user'),
  );
  return useCallback((userId: number) => names[userIds.indexOf(userId)] ?? 'Unknown user', [names, userIds]);
}

/** The account's server address (the base of links to messages). */
export function useServerUrl(): string {
  const accountId = useAccountId();
  return useAccounts().find((a) => a.id === accountId)?.serverUrl ?? '';
}

/** The account's REST API through the main process. */
export function useCall(): <T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  params?: ApiParams,
) => Promise<T> {
  const accountId = useAccountId();
  return useCallback(
    <T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, params?: ApiParams) =>
      callApi<T>(getBridge(), accountId, method, path, params),
    [accountId],
  );
}

/** A failure's message, as the service or the network said it. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** GET /messages/{id} with the raw Markdown. */
export interface RawMessageAnswer {
  raw_content: string;
}
