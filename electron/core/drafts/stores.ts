/**
 * The drafts of every account of the profile: each account's DraftsService, opened once (also
 * without a key: drafts are local first), following the account's session (its snapshots and
 * events merge, its reconnects retry), and closed, never deleted, on sign-out and quit.
 */
import type { ApiClient } from '../../../shared/client';
import type { Push } from '../push';
import type { UpdateMachine } from '../update-machine';
import { draftsFileFor } from './log';
import { DraftsService } from './service';

export interface DraftStoresOptions {
  profileDir: string;
  push: Push;
  /** The account's enable_drafts_synchronization as its session knows it now (null: unknown). */
  syncSetting: (accountId: string) => boolean | null;
}

export class DraftStores {
  private readonly open = new Map<string, Promise<DraftsService>>();

  constructor(private readonly options: DraftStoresOptions) {}

  of(id: string): Promise<DraftsService> {
    let service = this.open.get(id);
    if (!service) {
      service = DraftsService.open({
        file: draftsFileFor(this.options.profileDir, id),
        onChange: (drafts) => this.options.push('drafts.changed', { accountId: id, drafts }),
        syncSetting: () => this.options.syncSetting(id),
      });
      this.open.set(id, service);
      // A failed open is retried by the next call rather than remembered.
      service.catch(() => this.open.delete(id));
    }
    return service;
  }

  /** The account's drafts follow its new machine, and its outbox sends with the machine's client. */
  follow(id: string, machine: UpdateMachine, client: ApiClient): void {
    const withDrafts = (what: string, task: (service: DraftsService) => Promise<void> | void) =>
      void this.of(id)
        .then(task)
        .catch((error) => console.error(`Drafts of ${id}: ${what} failed:`, error));
    withDrafts('connect', (service) => service.connect(client));
    machine.on('snapshot', (snapshot) => withDrafts('snapshot', (s) => s.onSnapshot(snapshot.state)));
    machine.on('events', (batch) => withDrafts('events', (s) => s.onEvents(batch.events)));
    let cutOff = false;
    machine.on('connection', (state) => {
      if (state.status !== 'connected') cutOff = true;
      else if (cutOff) {
        cutOff = false;
        withDrafts('reconnect', (s) => s.reconnected());
      }
    });
  }

  /**
   * The account's server acknowledged our write of these settings (`ignored`: the names it did
   * not apply). A change of enable_drafts_synchronization reaches the drafts at once; should
   * that fail, the setting's event brings it a moment later.
   */
  async settingsWritten(id: string, changes: object, ignored: readonly string[]): Promise<void> {
    const enabled = (changes as { enable_drafts_synchronization?: unknown }).enable_drafts_synchronization;
    if (typeof enabled !== 'boolean' || ignored.includes('enable_drafts_synchronization')) return;
    try {
      await (await this.of(id)).syncSettingWritten(enabled);
    } catch (error) {
      console.error(`Drafts of ${id}: applying the synchronization setting failed:`, error);
    }
  }

  /** Closes the account's drafts; `<profileDir>/drafts/<accountId>.jsonl` stays for the next sign-in. */
  async close(id: string): Promise<void> {
    const service = this.open.get(id);
    if (!service) return;
    this.open.delete(id);
    await (await service.catch(() => null))?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }
}
