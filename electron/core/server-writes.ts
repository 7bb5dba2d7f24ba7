/**
 * The renderer's writes to an account's server (settings, subscription properties), sent with
 * the client of the account's running session. The new values come back through the event
 * queue, like a change from any other client; the answer here only says the server took it.
 * Only the drafts cannot wait for that event (see SettingsWritten's use in createCore).
 */
import type { ApiClient, CallOptions } from '../../shared/client';
import type { InvokeRequest, InvokeResponses } from '../../shared/ipc';
import type { AccountService } from './account-service';
import type { Sessions } from './sessions';

/** A write that hangs must not hold the renderer's promise forever. */
const WRITE_TIMEOUT_MS = 30_000;

type SettingsChanges = InvokeRequest<'settings.update'>['changes'];

/** Told of every settings write the server acknowledged, before the renderer is answered. */
export type SettingsWritten = (
  accountId: string,
  changes: SettingsChanges,
  ignored: string[],
) => Promise<void>;

export class ServerWrites {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessions: Sessions,
    private readonly settingsWritten: SettingsWritten,
  ) {}

  async updateSettings(
    accountId: string,
    changes: SettingsChanges,
  ): Promise<InvokeResponses['settings.update']> {
    const answer = await this.write(accountId, (client, call) => client.updateSettings(changes, call));
    await this.settingsWritten(accountId, changes, answer.ignored_parameters_unsupported);
    return answer;
  }

  async updateSubscriptionProperties(
    accountId: string,
    updates: InvokeRequest<'subscriptions.updateProperties'>['updates'],
  ): Promise<void> {
    await this.write(accountId, (client, call) => client.updateSubscriptionProperties(updates, call));
  }

  private async write<T>(
    accountId: string,
    send: (client: ApiClient, call: CallOptions) => Promise<T>,
  ): Promise<T> {
    await this.accounts.require(accountId);
    const client = this.sessions.client(accountId);
    return send(client, { signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
  }
}
