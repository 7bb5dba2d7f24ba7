/**
 * The accounts of one profile directory: which (server, email) pairs are signed in and which
 * one is active. `<profileDir>/accounts.json` holds no secrets; each API key sits in the
 * SecretStore under its account's id.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { ApiClient, type FetchLike, NetworkError } from '../../shared/client';
import type { AccountSummary, AppState } from '../../shared/ipc';
import { InvalidServerUrlError, normalizeServerUrl } from '../../shared/url';
import { CoreError } from './errors';
import { readJsonOrSetAside, SerialQueue, writeFileAtomic } from './files';
import type { SecretStore } from './secrets';

// One spelling per server (see shared/url.ts); re-exported for the core's other modules.
export { normalizeServerUrl };

/** Stable local id of an account: the same server and email always give the same id. */
export function accountIdFor(serverUrl: string, email: string): string {
  const digest = createHash('sha256')
    .update(`${normalizeServerUrl(serverUrl)}\n${email.trim().toLowerCase()}`)
    .digest('hex');
  return `acct-${digest.slice(0, 20)}`;
}

const accountSchema = z.object({
  id: z.string(),
  serverUrl: z.string(),
  email: z.string(),
  userId: z.number().int().nullable(),
  fullName: z.string().nullable(),
  serviceVersion: z.string().nullable(),
  featureLevel: z.number().int().nullable(),
});

const fileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(accountSchema),
  activeAccountId: z.string().nullable(),
});
type AccountsFile = z.infer<typeof fileSchema>;

export interface AccountsOptions {
  profileDir: string;
  secretStore: SecretStore;
  fetch?: FetchLike;
  userAgent?: string;
}

export interface SignInResult {
  account: AccountSummary;
  apiKey: string;
}

export class Accounts {
  readonly filePath: string;
  private data: AccountsFile = { version: 1, accounts: [], activeAccountId: null };
  private loading: Promise<void> | null = null;
  private readonly queue = new SerialQueue();

  constructor(private readonly options: AccountsOptions) {
    this.filePath = join(options.profileDir, 'accounts.json');
  }

  /** Reads accounts.json once; later calls wait for the same read. */
  load(): Promise<void> {
    this.loading ??= this.read();
    return this.loading;
  }

  list(): AccountSummary[] {
    return this.data.accounts.map((a) => ({ ...a }));
  }

  get(id: string): AccountSummary | null {
    const found = this.data.accounts.find((a) => a.id === id);
    return found ? { ...found } : null;
  }

  appState(): AppState {
    return { accounts: this.list(), activeAccountId: this.data.activeAccountId };
  }

  apiKey(id: string): Promise<string | null> {
    return this.options.secretStore.get(id);
  }

  /** A client for the account's server, with its credentials. */
  client(account: AccountSummary, apiKey: string): ApiClient {
    return this.anonymousClient(account.serverUrl).withCredentials({ email: account.email, apiKey });
  }

  /**
   * Exchanges email and password for an API key, stores the key, adds (or refreshes) the
   * account and makes it active. Errors of the service keep their message and code.
   */
  async signIn(serverUrl: string, email: string, password: string): Promise<SignInResult> {
    await this.load();
    const url = serverUrlOrBadRequest(serverUrl);
    const anonymous = this.anonymousClient(url);
    const { api_key: apiKey, email: canonicalEmail } = await reachable(
      url,
      anonymous.fetchApiKey(email, password),
    );
    const user = await reachable(
      url,
      anonymous.withCredentials({ email: canonicalEmail, apiKey }).getOwnUser(),
    );
    const id = accountIdFor(url, canonicalEmail);
    const previous = this.get(id);
    const account: AccountSummary = {
      id,
      serverUrl: url,
      email: canonicalEmail,
      userId: user.user_id,
      fullName: user.full_name,
      serviceVersion: previous?.serviceVersion ?? null,
      featureLevel: previous?.featureLevel ?? null,
    };
    await this.queue.run(async () => {
      await this.options.secretStore.set(id, apiKey);
      const others = this.data.accounts.filter((a) => a.id !== id);
      // A refreshed account keeps its place in the list.
      const index = this.data.accounts.findIndex((a) => a.id === id);
      others.splice(index === -1 ? others.length : index, 0, account);
      this.data = { ...this.data, accounts: others, activeAccountId: id };
      await this.write();
    });
    return { account: { ...account }, apiKey };
  }

  /** Forgets the key and the account; the next account (if any) becomes active. */
  remove(id: string): Promise<void> {
    return this.queue.run(async () => {
      await this.options.secretStore.delete(id);
      const index = this.data.accounts.findIndex((a) => a.id === id);
      if (index === -1) return;
      const accounts = this.data.accounts.filter((a) => a.id !== id);
      let active = this.data.activeAccountId;
      if (active === id) active = (accounts[index] ?? accounts[index - 1] ?? null)?.id ?? null;
      this.data = { ...this.data, accounts, activeAccountId: active };
      await this.write();
    });
  }

  setActive(id: string): Promise<void> {
    return this.queue.run(async () => {
      if (!this.get(id)) throw unknownAccount(id);
      if (this.data.activeAccountId === id) return;
      this.data = { ...this.data, activeAccountId: id };
      await this.write();
    });
  }

  /** Refreshes what the account list shows (name, server version); true when it changed. */
  update(id: string, patch: Partial<Omit<AccountSummary, 'id' | 'serverUrl' | 'email'>>): Promise<boolean> {
    return this.queue.run(async () => {
      const current = this.data.accounts.find((a) => a.id === id);
      if (!current) return false;
      const next = { ...current, ...patch };
      if (JSON.stringify(next) === JSON.stringify(current)) return false;
      this.data = { ...this.data, accounts: this.data.accounts.map((a) => (a.id === id ? next : a)) };
      await this.write();
      return true;
    });
  }

  private anonymousClient(serverUrl: string): ApiClient {
    return new ApiClient({
      serverUrl,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.userAgent ? { userAgent: this.options.userAgent } : {}),
    });
  }

  private async read(): Promise<void> {
    // The list holds no secrets and can be rebuilt by signing in again.
    const file = await readJsonOrSetAside(this.filePath, fileSchema);
    if (file !== null) this.data = file;
  }

  private write(): Promise<void> {
    return writeFileAtomic(this.filePath, `${JSON.stringify(this.data, null, 2)}\n`);
  }
}

export function unknownAccount(id: string): CoreError {
  return new CoreError('UNKNOWN_ACCOUNT', `No account with id ${id}`);
}

/** The URL the renderer sent, normalized; an unusable one is the caller's error. */
function serverUrlOrBadRequest(serverUrl: string): string {
  try {
    return normalizeServerUrl(serverUrl);
  } catch (error) {
    if (error instanceof InvalidServerUrlError) throw new CoreError('BAD_REQUEST', error.message);
    throw error;
  }
}

/** Turns "fetch failed" into a sentence about the server the user typed. */
async function reachable<T>(serverUrl: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof NetworkError) {
      throw new CoreError('NETWORK_ERROR', `Could not reach the server at ${serverUrl}`);
    }
    throw error;
  }
}
