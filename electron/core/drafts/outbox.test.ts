/**
 * The outbox against a scripted server (an injected fetch) and an instrumented log file: it
 * survives a log that cannot be written, an edit costs one fsync and only the pushes the user
 * can see, typing through an outage leaves the back-off alone, and a refusal because
 * synchronization is off is told from the draft's own by the account's setting.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type FetchLike, type RequestInitLike } from '../../../shared/client';
import type { LocalDraft } from '../../../shared/ipc';
import type { RegisterState } from '../../../shared/protocol';
import { waitFor } from '../../../test/support/core';
import { makeTempDir, removeDir } from '../../../test/support/server';
import { defaultSleep, type Sleep } from '../update-machine';
import { type LogFile, openLogFile } from './log';
import { DraftsService } from './service';

let root: string;
beforeAll(async () => {
  root = await makeTempDir('confab-drafts-outbox-');
});
afterAll(async () => {
  if (root) await removeDir(root);
});

const opened: DraftsService[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

let counter = 0;
const freshFile = () => join(root, `p${++counter}`, 'drafts', 'acct-test.jsonl');

/** Back-off waits shortened to a few milliseconds (still cut short by a kick). */
const fastSleep: Sleep = (ms, signal) => defaultSleep(Math.min(ms, 5), signal);

const SYNC_ON = {
  user_settings: { enable_drafts_synchronization: true },
  drafts: [],
} as unknown as RegisterState;

/** The log file, counting its writes and fsyncs, and failing writes while `failing`. */
function instrumentedLog() {
  const stats = { appends: 0, syncs: 0, failing: false };
  const open = async (file: string): Promise<LogFile> => {
    const handle = await openLogFile(file);
    return {
      appendFile: async (data, encoding) => {
        if (stats.failing)
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        stats.appends++;
        await handle.appendFile(data, encoding);
      },
      datasync: async () => {
        if (stats.failing) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        stats.syncs++;
        await handle.datasync();
      },
      close: () => handle.close(),
    };
  };
  return { stats, open };
}

type Reply = { status: number; body: Record<string, unknown> };

/** A scripted server: `answer` gets "METHOD /path" (after /api/v1) and the request. */
function scriptedClient(answer: (call: string, init: RequestInitLike) => Reply) {
  const calls: string[] = [];
  const fetch: FetchLike = async (url, init) => {
    const call = `${init.method} ${new URL(url).pathname.replace(/^\/api\/v1/, '')}`;
    calls.push(call);
    const { status, body } = answer(call, init);
    return { status, headers: { get: () => null }, text: async () => JSON.stringify(body) };
  };
  return { client: new ApiClient({ serverUrl: 'http://drafts.invalid', fetch }), calls };
}

const ok = (extra: Record<string, unknown> = {}): Reply => ({
  status: 200,
  body: { result: 'success', msg: '', ...extra },
});

const refusal = (status: number, msg: string, code: string): Reply => ({
  status,
  body: { result: 'error', msg, code },
});

const NOT_FOUND = refusal(404, 'Not found', 'NOT_FOUND');

const text = (content: string, localId?: string) => ({
  type: '' as const,
  to: [],
  topic: '',
  content,
  ...(localId ? { localId } : {}),
});

describe('the drafts outbox', () => {
  it('keeps running when the log cannot be written, with no unhandled rejection, and closes', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const log = instrumentedLog();
      let posts = 0;
      const { client, calls } = scriptedClient((call) => {
        if (call === 'GET /drafts') return ok({ count: 0, drafts: [] });
        if (call === 'POST /drafts') {
          // The server refuses the draft, and from the first refusal on the disk is full:
          // recording the refusal (the draft's syncError) fails.
          if (++posts === 1) log.stats.failing = true;
          return refusal(400, 'Invalid stream ID', 'BAD_REQUEST');
        }
        return NOT_FOUND;
      });
      const drafts = await DraftsService.open({
        file: freshFile(),
        openLogFile: log.open,
        sleep: fastSleep,
        random: () => 0.5,
      });
      opened.push(drafts);
      await drafts.onSnapshot(SYNC_ON);
      await drafts.save({ type: 'stream', to: [999], topic: 't', content: 'to nowhere' });
      drafts.connect(client);

      // The outbox goes on retrying (with the back-off) while the disk is full...
      await waitFor('retries on a full disk', () => calls.length >= 4, 10_000);
      expect(posts).toBe(1);
      expect(rejections).toEqual([]);
      // ...and once it has room again, the refusal is recorded.
      log.stats.failing = false;
      await waitFor(
        'the refusal recorded',
        () => drafts.list()[0]?.syncError === 'Invalid stream ID',
        10_000,
      );
      expect(drafts.list()).toMatchObject([{ content: 'to nowhere', status: 'local-only', serverId: null }]);
      expect(posts).toBe(2);

      // A full disk at close time does not make close() throw (sign-out must go on).
      log.stats.failing = true;
      await expect(drafts.close()).resolves.toBeUndefined();
      // Let any stray rejection surface before looking.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('costs an edit one fsync, two appends and two pushes; a create two fsyncs', async () => {
    const log = instrumentedLog();
    const server = new Map<number, Record<string, unknown>>();
    let nextId = 1;
    const { client, calls } = scriptedClient((call, init) => {
      const form = new URLSearchParams((init.body as string | undefined) ?? '');
      if (call === 'GET /drafts') return ok({ count: server.size, drafts: [...server.values()] });
      if (call === 'POST /drafts') {
        const [draft] = JSON.parse(form.get('drafts') ?? '[]') as Record<string, unknown>[];
        const id = nextId++;
        server.set(id, { ...draft, id });
        return ok({ ids: [id] });
      }
      const patch = /^PATCH \/drafts\/(\d+)$/.exec(call);
      if (patch) {
        const id = Number(patch[1]);
        server.set(id, { ...(JSON.parse(form.get('draft') ?? '{}') as Record<string, unknown>), id });
        return ok();
      }
      return NOT_FOUND;
    });
    const pushes: LocalDraft[][] = [];
    const file = freshFile();
    const drafts = await DraftsService.open({ file, openLogFile: log.open, onChange: (l) => pushes.push(l) });
    opened.push(drafts);
    await drafts.onSnapshot(SYNC_ON);
    drafts.connect(client);
    await drafts.whenIdle();

    const reset = () => {
      log.stats.appends = 0;
      log.stats.syncs = 0;
      pushes.length = 0;
      calls.length = 0;
    };

    // A create: the save and the create's `sent` marker are fsynced (a lost answer must not
    // create it twice); the confirmation is not. The marker is not shown: no push for it.
    reset();
    const draft = await drafts.save({ type: '', to: [], topic: '', content: 'first' });
    await drafts.whenIdle();
    expect(calls).toEqual(['POST /drafts']);
    expect(log.stats).toMatchObject({ appends: 3, syncs: 2 });
    expect(pushes.map((l) => l.map((d) => d.status))).toEqual([['pending'], ['synced']]);

    // An edit: only the save is fsynced; the `sent` marker stays in memory.
    for (const content of ['first, edited', 'first, edited twice']) {
      reset();
      await drafts.save({ type: '', to: [], topic: '', content, localId: draft.localId });
      await drafts.whenIdle();
      expect(calls).toEqual(['PATCH /drafts/1']);
      expect(log.stats).toMatchObject({ appends: 2, syncs: 1 });
      expect(pushes.map((l) => l.map((d) => `${d.content}: ${d.status}`))).toEqual([
        [`${content}: pending`],
        [`${content}: synced`],
      ]);
    }
    // Saving the same text again writes and pushes nothing.
    reset();
    await drafts.save({
      type: '',
      to: [],
      topic: '',
      content: 'first, edited twice',
      localId: draft.localId,
    });
    expect(log.stats).toMatchObject({ appends: 0, syncs: 0 });
    expect(pushes).toEqual([]);
    expect([...server.values()].map((d) => d.content)).toEqual(['first, edited twice']);

    // The writes that skipped their fsync are on disk after a clean close.
    await drafts.close();
    const again = await DraftsService.open({ file });
    opened.push(again);
    expect(again.list()).toMatchObject([{ content: 'first, edited twice', serverId: 1, status: 'synced' }]);
  });

  it('keeps its back-off through local edits during an outage; only wake() cuts it short', async () => {
    let down = true;
    const { client, calls } = scriptedClient((call) => {
      if (down) return refusal(503, 'Service unavailable', 'SERVICE_UNAVAILABLE');
      if (call === 'GET /drafts') return ok({ count: 0, drafts: [] });
      if (call === 'POST /drafts') return ok({ ids: [1] });
      return NOT_FOUND;
    });
    // Every back-off lasts until something cuts it short (its length is not what is tested).
    let backOffs = 0;
    const sleep: Sleep = (ms, signal) => {
      if (ms < 24 * 3600_000) backOffs++;
      return defaultSleep(24 * 3600_000, signal);
    };
    const drafts = await DraftsService.open({ file: freshFile(), sleep });
    opened.push(drafts);
    await drafts.onSnapshot(SYNC_ON);
    drafts.connect(client);
    await waitFor('the first back-off', () => backOffs === 1);
    let idle = false;
    void drafts.whenIdle().then(() => {
      idle = true;
    });

    // Typing on: every edit is saved here, none is an attempt to reach the server.
    const draft = await drafts.save(text('typed during the outage'));
    await drafts.save(text('typed during the outage, edited', draft.localId));
    await drafts.save(text('typed during the outage, edited twice', draft.localId));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toEqual(['GET /drafts']);
    expect(backOffs).toBe(1);
    expect(idle).toBe(false);

    // The connection is back: the outbox tries at once, and settles.
    down = false;
    drafts.wake();
    await drafts.whenIdle();
    expect(idle).toBe(true);
    expect(calls).toEqual(['GET /drafts', 'GET /drafts', 'POST /drafts']);
    expect(drafts.list()).toMatchObject([
      { content: 'typed during the outage, edited twice', serverId: 1, status: 'synced' },
    ]);
  });

  it("tells a refusal for synchronization off by the account's setting, not by the server's text", async () => {
    // The same code and text for both refusals: only the setting tells them apart.
    const REFUSED = 'Refused.';
    let setting: boolean | null = true;
    const { client, calls } = scriptedClient((call) => {
      if (call === 'GET /drafts') return ok({ count: 0, drafts: [] });
      if (call === 'POST /drafts') return refusal(400, REFUSED, 'BAD_REQUEST');
      return NOT_FOUND;
    });
    const drafts = await DraftsService.open({
      file: freshFile(),
      sleep: fastSleep,
      syncSetting: () => setting,
    });
    opened.push(drafts);
    await drafts.onSnapshot(SYNC_ON);
    drafts.connect(client);

    // Synchronization is on: the server refused this draft; it stays here, saying why.
    await drafts.save(text('refused draft'));
    await drafts.whenIdle();
    expect(drafts.list()).toMatchObject([
      { content: 'refused draft', status: 'local-only', syncError: REFUSED },
    ]);

    // Turned off in another client: the account's state says so before this service's event.
    setting = false;
    calls.length = 0;
    const draft = await drafts.save(text('written once it was off'));
    await drafts.whenIdle();
    expect(calls).toEqual(['POST /drafts']);
    expect(drafts.list().map((d) => [d.content, d.status, d.syncError])).toEqual([
      ['written once it was off', 'local-only', null],
      ['refused draft', 'local-only', null],
    ]);
    // Local only from now on: an edit sends nothing.
    await drafts.save(text('written once it was off, edited', draft.localId));
    await drafts.whenIdle();
    expect(calls).toEqual(['POST /drafts']);
  });
});
