/**
 * Per-account sessions: for every signed-in account whose key could be read, one UpdateMachine
 * and the API client it was made with. The session pushes what its machine reports (snapshots,
 * event batches, connection states) and tells `onStart` listeners about each new machine, so
 * that other services (the account list, drafts) follow it without this module knowing them.
 */
import type { ApiClient } from '../../shared/client';
import type { AccountSummary, ConnectionState } from '../../shared/ipc';
import type { Accounts } from './accounts';
import { CoreError } from './errors';
import type { Push } from './push';
import { UpdateMachine } from './update-machine';

/** What account.getConnection says for an account with no key to start a machine with. */
export const NO_CREDENTIALS: ConnectionState = {
  status: 'offline',
  nextRetryAt: null,
  lastError: 'No stored credentials for this account: sign in again.',
};

export type SessionListener = (accountId: string, machine: UpdateMachine, client: ApiClient) => void;

export class Sessions {
  private readonly machines = new Map<string, UpdateMachine>();
  /**
   * Each running machine's API client (credentials included), made once when the machine
   * starts and shared by its machine, its drafts outbox and the writes, so a write does not
   * read and decrypt the secrets file again. Dropped with the machine.
   */
  private readonly clients = new Map<string, ApiClient>();
  /** Accounts whose machine could not start (no key): why, for account.getConnection. */
  private readonly unstarted = new Map<string, ConnectionState>();
  /** Next snapshot generation per account, so it keeps rising across sign-ins. */
  private readonly nextGeneration = new Map<string, number>();
  private readonly startListeners: SessionListener[] = [];

  constructor(
    private readonly accounts: Accounts,
    private readonly push: Push,
  ) {}

  /** Called with every machine as it starts, before its first report. */
  onStart(listener: SessionListener): void {
    this.startListeners.push(listener);
  }

  /** Starts a machine for every stored account that has none, with the key the store holds. */
  async startStored(): Promise<void> {
    await this.accounts.load();
    for (const account of this.accounts.list()) {
      if (this.machines.has(account.id)) continue;
      let apiKey: string | null;
      try {
        apiKey = await this.accounts.apiKey(account.id);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        this.unstarted.set(account.id, { status: 'offline', nextRetryAt: null, lastError: why });
        continue;
      }
      if (apiKey === null) this.unstarted.set(account.id, NO_CREDENTIALS);
      else this.start(account, apiKey);
    }
  }

  start(account: AccountSummary, apiKey: string): void {
    const id = account.id;
    const client = this.accounts.client(account, apiKey);
    const machine = new UpdateMachine({
      accountId: id,
      client,
      firstGeneration: this.nextGeneration.get(id) ?? 0,
    });
    machine.on('snapshot', (snapshot) => {
      this.nextGeneration.set(id, snapshot.generation + 1);
      this.push('account.snapshot', snapshot);
    });
    machine.on('events', (batch) => this.push('account.events', batch));
    machine.on('connection', (state) => this.push('account.connection', { accountId: id, state }));
    for (const listener of this.startListeners) listener(id, machine, client);
    // Two sign-ins of one account racing must not leave a machine running unseen.
    void this.machines.get(id)?.stop({ deleteQueue: true });
    this.machines.set(id, machine);
    this.clients.set(id, client);
    this.unstarted.delete(id);
    machine.start();
  }

  /** Stops the account's machine; `deleteQueue` on sign-out and on a new sign-in. */
  async stop(id: string, deleteQueue: boolean): Promise<void> {
    const machine = this.machines.get(id);
    if (!machine) return;
    this.machines.delete(id);
    this.clients.delete(id);
    await machine.stop({ deleteQueue });
  }

  /** Quit: every machine stops, the server keeps the queues for the next start. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.machines.keys()].map((id) => this.stop(id, false)));
  }

  /** Signed out: nothing is remembered about why the account had no machine. */
  forget(id: string): void {
    this.unstarted.delete(id);
  }

  wakeAll(): void {
    for (const machine of this.machines.values()) machine.wake();
  }

  snapshot(id: string) {
    return this.machines.get(id)?.snapshot() ?? null;
  }

  connection(id: string): ConnectionState {
    return this.machines.get(id)?.connection() ?? this.unstarted.get(id) ?? NO_CREDENTIALS;
  }

  accountState(id: string) {
    return this.machines.get(id)?.accountState() ?? null;
  }

  /** The running machine's client; without one (no key, or an unreadable one) says why. */
  client(id: string): ApiClient {
    const client = this.clients.get(id);
    if (client) return client;
    const why = this.unstarted.get(id)?.lastError ?? NO_CREDENTIALS.lastError;
    throw new CoreError('SIGNED_OUT', why as string);
  }
}
