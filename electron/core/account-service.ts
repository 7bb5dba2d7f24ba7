/**
 * Accounts as the renderer uses them: sign in (a new session), sign out (its session and
 * drafts closed, after asking about unsynced drafts; its message cache and outbox deleted), the active account, and the account
 * list kept in step with what each server reports (name, version), every change pushed as
 * app.state. The list on disk is Accounts' (accounts.ts); the sessions are Sessions'.
 */
import type { AccountSummary, AppState } from '../../shared/ipc';
import { UNSYNCED_DRAFTS } from '../../shared/ipc';
import type { RegisterState } from '../../shared/protocol';
import { type Accounts, unknownAccount } from './accounts';
import type { DraftStores } from './drafts';
import { CoreError } from './errors';
import type { MessageServices } from './messages';
import type { Push } from './push';
import type { Sessions } from './sessions';
import type { UpdateMachine } from './update-machine';

type SummaryPatch = Parameters<Accounts['update']>[1];

export interface AccountServiceOptions {
  store: Accounts;
  sessions: Sessions;
  drafts: DraftStores;
  messages: MessageServices;
  push: Push;
}

export class AccountService {
  private readonly store: Accounts;
  private readonly sessions: Sessions;
  private readonly drafts: DraftStores;
  private readonly messages: MessageServices;
  private readonly push: Push;

  constructor(options: AccountServiceOptions) {
    ({
      store: this.store,
      sessions: this.sessions,
      drafts: this.drafts,
      messages: this.messages,
      push: this.push,
    } = options);
  }

  async appState(): Promise<AppState> {
    await this.store.load();
    return this.store.appState();
  }

  /** The stored account, or UNKNOWN_ACCOUNT: every per-account request checks this first. */
  async require(id: string): Promise<AccountSummary> {
    await this.store.load();
    const account = this.store.get(id);
    if (!account) throw unknownAccount(id);
    return account;
  }

  async signIn(serverUrl: string, email: string, password: string): Promise<AccountSummary> {
    const { account, apiKey } = await this.store.signIn(serverUrl, email, password);
    // Signing in again replaces the old key: its machine goes, a new one starts.
    await this.sessions.stop(account.id, true);
    // The list first, so that the renderer knows the account its machine reports on.
    this.pushAppState();
    this.sessions.start(account, apiKey);
    return account;
  }

  async signOut(id: string, force: boolean): Promise<AppState> {
    await this.require(id);
    // Nothing typed is lost: drafts the server lacks stay on disk, but ask first.
    const unsynced = (await this.drafts.of(id)).unsyncedCount();
    if (unsynced > 0 && !force) {
      const drafts = unsynced === 1 ? 'draft' : 'drafts';
      throw new CoreError(UNSYNCED_DRAFTS, `You have ${unsynced} ${drafts} not yet saved to the server.`);
    }
    await this.sessions.stop(id, true);
    await this.drafts.close(id);
    // The offline cache and the outbox go with the account (unsent messages included).
    await this.messages.drop(id);
    this.sessions.forget(id);
    await this.store.remove(id);
    this.pushAppState();
    return this.store.appState();
  }

  async setActive(id: string): Promise<AppState> {
    await this.store.load();
    await this.store.setActive(id);
    this.pushAppState();
    return this.store.appState();
  }

  /** Keeps the account's name and server version in step with its machine's reports. */
  follow(id: string, machine: UpdateMachine): void {
    machine.on('snapshot', (snapshot) => void this.refresh(id, summaryOf(snapshot.state)));
    machine.on('events', (batch) => {
      // A restored queue after a server restart: the account list shows the new version.
      const restart = batch.events.findLast((e) => e.type === 'restart');
      if (restart) {
        const { service_version: serviceVersion, service_feature_level: featureLevel } = restart;
        void this.refresh(id, { serviceVersion, featureLevel });
      }
    });
  }

  private async refresh(id: string, patch: SummaryPatch): Promise<void> {
    try {
      if (await this.store.update(id, patch)) this.pushAppState();
    } catch (error) {
      console.error('Could not save the account list:', error);
    }
  }

  private pushAppState(): void {
    this.push('app.state', this.store.appState());
  }
}

/** What the account list shows of a register snapshot: the user's name, the server's version. */
function summaryOf(state: RegisterState): SummaryPatch {
  const self = state.realm_users?.find((u) => u.user_id === state.user_id);
  return {
    serviceVersion: state.service_version,
    featureLevel: state.service_feature_level,
    ...(state.user_id !== undefined && { userId: state.user_id }),
    ...(self && { fullName: self.full_name }),
  };
}
