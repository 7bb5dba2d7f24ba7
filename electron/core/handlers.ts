/**
 * The core's IPC surface: which service answers each invoke channel. Payloads arrive here
 * already validated by the router (router.ts, the one place that checks them); a handler only
 * hands them to its service. Per-account channels check that the account exists first.
 */
import type { AppInfo } from '../../shared/ipc';
import type { AccountService } from './account-service';
import type { ApiProxy } from './api-proxy';
import type { DoNotDisturb } from './dnd';
import type { DraftStores } from './drafts';
import type { MessageServices } from './messages';
import type { OpenRequests } from './open-requests';
import type { InvokeHandlers } from './router';
import type { ServerWrites } from './server-writes';
import type { Sessions } from './sessions';

export interface CoreServices {
  info: () => Promise<AppInfo>;
  accounts: AccountService;
  sessions: Sessions;
  drafts: DraftStores;
  messages: MessageServices;
  writes: ServerWrites;
  api: ApiProxy;
  dnd: DoNotDisturb;
  openRequests: OpenRequests;
}

export function invokeHandlers({
  info,
  accounts,
  sessions,
  drafts,
  messages,
  writes,
  api,
  dnd,
  openRequests,
}: CoreServices): InvokeHandlers {
  const draftsOf = async (accountId: string) => {
    await accounts.require(accountId);
    return drafts.of(accountId);
  };
  const outboxOf = async (accountId: string) => {
    await accounts.require(accountId);
    return messages.outbox(accountId);
  };
  return {
    'app.getInfo': () => info(),
    'app.getState': () => accounts.appState(),
    'app.networkChanged': async () => {
      // Up or down, a waiting poll or back-off may now be stale: try at once and learn which.
      sessions.wakeAll();
      return null;
    },
    'accounts.signIn': ({ serverUrl, email, password }) => accounts.signIn(serverUrl, email, password),
    'accounts.signOut': ({ accountId, force }) => accounts.signOut(accountId, force === true),
    'accounts.setActive': ({ accountId }) => accounts.setActive(accountId),
    'account.getSnapshot': async ({ accountId }) => {
      await accounts.require(accountId);
      // Until the session registers: the last known state, marked as such, once the first try failed.
      const live = sessions.snapshot(accountId);
      if (live) return live;
      // While the first register may still succeed, no saved state (the window waits for it).
      return sessions.connection(accountId).status === 'connecting'
        ? null
        : messages.cachedSnapshot(accountId);
    },
    'account.getConnection': async ({ accountId }) => {
      await accounts.require(accountId);
      return sessions.connection(accountId);
    },
    'settings.update': ({ accountId, changes }) => writes.updateSettings(accountId, changes),
    'subscriptions.updateProperties': async ({ accountId, updates }) => {
      await writes.updateSubscriptionProperties(accountId, updates);
      return null;
    },
    'drafts.list': async ({ accountId }) => (await draftsOf(accountId)).list(),
    'drafts.save': async ({ accountId, draft }) => (await draftsOf(accountId)).save(draft),
    'drafts.delete': async ({ accountId, localId }) => {
      const service = await draftsOf(accountId);
      await service.delete(localId);
      return service.list();
    },
    'messages.fetch': async (request) => {
      await accounts.require(request.accountId);
      return messages.fetch(request.accountId, request);
    },
    'outbox.send': async ({ accountId, message }) => (await outboxOf(accountId)).send(message),
    'outbox.list': async ({ accountId }) => (await outboxOf(accountId)).list(),
    'outbox.retry': async ({ accountId, localId }) => (await outboxOf(accountId)).retry(localId),
    'outbox.discard': async ({ accountId, localId }) => (await outboxOf(accountId)).discard(localId),
    'api.call': (request) => api.call(request),
    'api.upload': (request) => api.upload(request),
    'uploads.image': (request) => api.uploadImage(request),
    'app.takeOpenNarrow': async () => openRequests.take(),
    'dnd.get': async () => {
      await dnd.load();
      return dnd.state();
    },
    'dnd.set': ({ until }) => dnd.set(until),
  };
}
