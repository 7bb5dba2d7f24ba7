/**
 * The service's REST API as TanStack Query data: `useApiQuery` reads an endpoint through the
 * main process (`api.call`, which holds the key), `useApiMutation` and `useApiUpload` write,
 * and event batches refresh what they make stale (`invalidateOnEvents`): a query shows the
 * server's answer, and the events the server sends after any change, by this window or by
 * anyone, mark the queries whose answer it changed as stale, so what is on screen refetches.
 * No screen needs a reload, and none has to remember what to refresh after its own writes.
 *
 * Query keys: `['api', accountId, path, params]` (apiQueryKey), params `{}` when none.
 */
import {
  type QueryClient,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ServerEvent } from '../../../shared/protocol';
import { getBridge } from '../bridge';
import {
  type ApiBody,
  type ApiMethod,
  type ApiParams,
  callApi,
  type IpcCallError,
  type UploadSource,
  uploadApi,
} from '../bridge/api';
import { useAccountId, useOnEventBatches } from '../stores/hooks';
import type { EventBatchListener } from '../stores/sync';

export type { ApiBody, ApiMethod, ApiParams, UploadSource } from '../bridge/api';
export { IpcCallError } from '../bridge/api';

export type ApiQueryKey = readonly ['api', string, string, ApiParams];

export const apiQueryKey = (accountId: string, path: string, params: ApiParams = {}): ApiQueryKey => [
  'api',
  accountId,
  path,
  params,
];

/**
 * Whether a write's answer says it stopped early (the service's `partially_completed`, e.g.
 * mark_all_as_read or delete_topic after their time budget): send it again until it does not.
 */
export const isPartiallyCompleted = (body: ApiBody): boolean => body.code === 'REQUEST_TIMEOUT';

// ---- which queries an event makes stale ------------------------------------------------------

/**
 * Path patterns per event type: `{name}` is any one segment, a final `**` the path itself and
 * everything below it. What the event's change can alter, generously: a refetch too many
 * costs one request, one too few shows a stale screen.
 */
export const EVENT_INVALIDATIONS: Readonly<Partial<Record<ServerEvent['type'], readonly string[]>>> = {
  stream: [
    '/streams/**',
    '/users/me/subscriptions/**',
    '/users/{user_id}/subscriptions/{stream_id}',
    '/get_stream_id',
    '/default_streams',
    '/users/me/{stream_id}/topics',
  ],
  subscription: ['/streams/**', '/users/me/subscriptions/**', '/users/{user_id}/subscriptions/{stream_id}'],
  default_streams: ['/default_streams', '/streams'],
  realm_user: ['/users', '/users/{user}', '/streams/{stream_id}/members', '/user_groups/**', '/bots'],
  realm_bot: ['/bots', '/users', '/users/{user}'],
  user_group: ['/user_groups/**'],
  custom_profile_fields: ['/realm/profile_fields', '/users', '/users/{user}'],
  realm_emoji: ['/realm/emoji'],
  realm_linkifiers: ['/realm/linkifiers', '/realm/filters'],
  realm: ['/server_settings'],
  attachment: ['/attachments'],
  alert_words: ['/users/me/alert_words'],
  user_status: ['/users/{user_id}/status'],
  presence: ['/realm/presence', '/users/{user}/presence'],
  scheduled_messages: ['/scheduled_messages'],
  user_topic: ['/users/me/{stream_id}/topics'],
  message: ['/users/me/{stream_id}/topics'],
  delete_message: ['/users/me/{stream_id}/topics', '/messages/{message_id}/**'],
  update_message: ['/users/me/{stream_id}/topics', '/messages/{message_id}/**'],
};

/** Whether a path fits a pattern of EVENT_INVALIDATIONS. */
export function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const have = path.split('/');
  const below = want[want.length - 1] === '**';
  if (below) want.pop();
  if (below ? have.length < want.length : have.length !== want.length) return false;
  return want.every((part, i) =>
    part.startsWith('{') && part.endsWith('}') ? have[i] !== '' : part === have[i],
  );
}

/**
 * Marks stale (and refetches, where shown) the account's api queries that the events may have
 * changed. Returns the patterns it invalidated by, for tests and logs.
 */
export function invalidateOnEvents(
  queryClient: QueryClient,
  accountId: string,
  events: readonly ServerEvent[],
): string[] {
  const patterns = [...new Set(events.flatMap((e) => EVENT_INVALIDATIONS[e.type] ?? []))];
  if (patterns.length === 0) return patterns;
  void queryClient.invalidateQueries({
    predicate: ({ queryKey }) =>
      queryKey[0] === 'api' &&
      queryKey[1] === accountId &&
      typeof queryKey[2] === 'string' &&
      patterns.some((pattern) => pathMatches(pattern, queryKey[2] as string)),
  });
  return patterns;
}

/** Which (query client, event source) pairs are already followed: one subscription each. */
const following = new WeakMap<QueryClient, Map<(listener: EventBatchListener) => () => void, () => void>>();

/**
 * Refreshes the client's api queries from every event batch (stores/sync's onEvents), once per
 * pair however often it is called. main.tsx may call it at start; useApiQuery does it anyway.
 */
export function followApiInvalidations(
  queryClient: QueryClient,
  onEvents: (listener: EventBatchListener) => () => void,
): () => void {
  let pairs = following.get(queryClient);
  if (!pairs) {
    pairs = new Map();
    following.set(queryClient, pairs);
  }
  const known = pairs.get(onEvents);
  if (known) return known;
  const unsubscribe = onEvents((batch) => {
    invalidateOnEvents(queryClient, batch.accountId, batch.events);
  });
  const stop = () => {
    unsubscribe();
    pairs.delete(onEvents);
  };
  pairs.set(onEvents, stop);
  return stop;
}

/** Makes sure the events reach the query cache (for the app's lifetime: never undone here). */
function useFollowEvents(): void {
  const queryClient = useQueryClient();
  const onEvents = useOnEventBatches();
  useEffect(() => {
    followApiInvalidations(queryClient, onEvents);
  }, [queryClient, onEvents]);
}

// ---- hooks -----------------------------------------------------------------------------------

export type ApiQueryOptions<T, S = T> = Omit<
  UseQueryOptions<T, IpcCallError, S, ApiQueryKey>,
  'queryKey' | 'queryFn'
>;

/**
 * GET `path` (relative to /api/v1, e.g. `/streams/12/members`) of the surrounding
 * AccountProvider's account. `T` is the answer's body (without result and msg); a failure is
 * an IpcCallError with the service's message and `code`. Kept current by events (see
 * EVENT_INVALIDATIONS); options are TanStack Query's (enabled, select, staleTime ...).
 */
export function useApiQuery<T = ApiBody, S = T>(
  path: string,
  params?: ApiParams,
  options: ApiQueryOptions<T, S> = {},
) {
  const accountId = useAccountId();
  useFollowEvents();
  return useQuery<T, IpcCallError, S, ApiQueryKey>({
    queryKey: apiQueryKey(accountId, path, params),
    queryFn: () => callApi<T>(getBridge(), accountId, 'GET', path, params),
    ...options,
  });
}

/** One write: method, path (relative to /api/v1) and params. */
export interface ApiRequest {
  method: ApiMethod;
  path: string;
  params?: ApiParams;
}

export type ApiMutationOptions<T> = Omit<UseMutationOptions<T, IpcCallError, ApiRequest>, 'mutationFn'> & {
  /**
   * Path patterns (as in EVENT_INVALIDATIONS) to refresh once the write succeeded, for
   * answers no event announces. Most writes need none: their events refresh what they change.
   */
  invalidates?: readonly string[];
};

/**
 * A write to the account's server: `mutate({method, path, params})` resolves with the answer's
 * body; a failure is an IpcCallError with the service's message and code, to show as it is.
 */
export function useApiMutation<T = ApiBody>({
  invalidates = [],
  onSuccess,
  ...options
}: ApiMutationOptions<T> = {}) {
  const accountId = useAccountId();
  const queryClient = useQueryClient();
  useFollowEvents();
  return useMutation<T, IpcCallError, ApiRequest>({
    mutationFn: ({ method, path, params }) => callApi<T>(getBridge(), accountId, method, path, params),
    onSuccess: (...args) => {
      if (invalidates.length > 0) {
        void queryClient.invalidateQueries({
          predicate: ({ queryKey }) =>
            queryKey[0] === 'api' &&
            queryKey[1] === accountId &&
            invalidates.some((pattern) => pathMatches(pattern, String(queryKey[2]))),
        });
      }
      return onSuccess?.(...args);
    },
    ...options,
  });
}

/** One upload: `/user_uploads` (answers `{uri, url, filename}`) or `/realm/emoji/{name}`. */
export interface UploadRequest {
  path: string;
  file: UploadSource;
}

/** Uploads a file (a DOM File) as multipart/form-data, at most 25 MiB. */
export function useApiUpload<T = ApiBody>(
  options: Omit<UseMutationOptions<T, IpcCallError, UploadRequest>, 'mutationFn'> = {},
) {
  const accountId = useAccountId();
  return useMutation<T, IpcCallError, UploadRequest>({
    mutationFn: ({ path, file }) => uploadApi<T>(getBridge(), accountId, path, file),
    ...options,
  });
}
