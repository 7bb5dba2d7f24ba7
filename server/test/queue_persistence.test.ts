/** Event queues over a graceful restart: dumped on SIGTERM, restored with a restart event. */

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loginAs, makeTempDir, removeDir, startServerProcess } from '../../test/support/server';
import { QUEUES_FILE } from '../events/persistence';
import { EventQueue } from '../events/queue';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';
import { authOf, call, startTestService } from './support/service';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('confab-queues-');
  dirs.push(dir);
  return dir;
}

const restartShape = {
  type: 'restart',
  service_version: SERVICE_VERSION,
  service_feature_level: SERVICE_FEATURE_LEVEL,
  service_merge_base: SERVICE_MERGE_BASE,
  server_generation: expect.any(Number),
};

describe('queues over a restart', () => {
  it('keeps queues, their events and ids over SIGTERM, and adds a restart event', async () => {
    const server = await startServerProcess({ demo: true });
    try {
      const alice = await loginAs(server, 'alice');
      // event_types without restart: the restart event reaches every queue all the same.
      const q = await alice.registerQueue({
        event_types: ['user_settings'],
        client_capabilities: { user_settings_object: true },
      });
      const queueId = q.queue_id as string;
      await alice.updateSettings({ enter_sends: true });
      const before = Math.floor(Date.now() / 1000);
      await server.restart();
      expect(existsSync(join(server.dataDir, QUEUES_FILE))).toBe(false); // read once, then removed

      const after = await alice.getEvents({ queue_id: queueId, last_event_id: -1, dont_block: true });
      expect(after.events).toEqual([
        { type: 'user_settings', op: 'update', property: 'enter_sends', value: true, id: 0 },
        { ...restartShape, id: 1 },
      ]);
      expect(after.events[1]?.server_generation).toBeGreaterThanOrEqual(before);
      // Ids go on where they were.
      await alice.updateSettings({ enter_sends: false });
      const next = await alice.getEvents({ queue_id: queueId, last_event_id: 1, dont_block: true });
      expect(next.events.map((e) => [e.id, e.type])).toEqual([[2, 'user_settings']]);
    } finally {
      await server.dispose();
    }
  }, 90_000);

  it('forgets queues after kill -9 (nothing was written): BAD_EVENT_QUEUE_ID', async () => {
    const server = await startServerProcess({ demo: true });
    try {
      const alice = await loginAs(server, 'alice');
      const q = await alice.registerQueue({ event_types: ['user_settings'] });
      await server.kill9();
      await server.restart();
      const r = await call(server.url, 'GET', '/events', {
        auth: authOf(alice),
        params: { queue_id: q.queue_id as string, dont_block: true },
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: `Bad event queue ID: ${q.queue_id}`,
        code: 'BAD_EVENT_QUEUE_ID',
        queue_id: q.queue_id,
      });
    } finally {
      await server.dispose();
    }
  }, 90_000);

  it('restores queue settings: event_types and capabilities still filter', async () => {
    const dataDir = await tempDir();
    let svc = await startTestService({ dataDir });
    const alice = await svc.login('alice');
    const q = await alice.registerQueue({
      event_types: ['user_settings', 'update_display_settings'],
      client_capabilities: { user_settings_object: true },
    });
    await svc.close();
    svc = await startTestService({ dataDir });
    try {
      const again = await svc.login('alice'); // the new port
      await again.updateSettings({ twenty_four_hour_time: true });
      await again.updateSettings({ full_name: 'Alice Restored' }); // realm_user: not asked for
      const r = await again.getEvents({ queue_id: q.queue_id as string, dont_block: true });
      // Legacy events stay off for a user_settings_object client.
      expect(r.events.map((e) => e.type)).toEqual(['restart', 'user_settings']);
    } finally {
      await svc.close();
    }
  });

  it('drops queues of users deactivated while the service was down', async () => {
    const dataDir = await tempDir();
    let svc = await startTestService({ dataDir });
    const bob = await svc.login('bob');
    const q = await bob.registerQueue({ event_types: ['user_settings'] });
    await svc.close();
    svc.sql('UPDATE users SET is_active = 0 WHERE email = ?', svc.demo.users.bob);
    svc = await startTestService({ dataDir });
    try {
      svc.sql('UPDATE users SET is_active = 1 WHERE email = ?', svc.demo.users.bob);
      const r = await call(svc.url, 'GET', '/events', {
        auth: authOf(bob),
        params: { queue_id: q.queue_id as string, dont_block: true },
      });
      expect(r.body.code).toBe('BAD_EVENT_QUEUE_ID');
    } finally {
      await svc.close();
    }
  });

  it('starts with no queues when queues.json is unreadable, and removes it', async () => {
    const dataDir = await tempDir();
    let svc = await startTestService({ dataDir });
    await svc.close();
    writeFileSync(join(dataDir, QUEUES_FILE), '{"version":1,"queues":[{"id":');
    svc = await startTestService({ dataDir });
    try {
      expect(existsSync(join(dataDir, QUEUES_FILE))).toBe(false);
      const alice = await svc.login('alice');
      const q = await alice.registerQueue({ event_types: ['user_settings'] });
      expect(q.last_event_id).toBe(-1);
    } finally {
      await svc.close();
    }
  });
});

describe('EventQueue dump and restore', () => {
  const settings = {
    userId: 4,
    realmId: 1,
    eventTypes: new Set(['message']),
    capabilities: { bulk_message_deletion: true },
    allPublicStreams: false,
    narrow: [['is', 'private']] as [string, string][],
    applyMarkdown: true,
    clientExtavatar: false,
  };

  it('counts idle time before the shutdown, not the downtime', () => {
    const queue = new EventQueue(settings, 1_000);
    queue.push({ type: 'message', message: {}, flags: [] });
    const dump = JSON.parse(JSON.stringify(queue.dump(61_000)));
    expect(dump.idleMs).toBe(60_000);
    const back = EventQueue.restore(dump, 5_000_000);
    expect(back.id).toBe(queue.id);
    expect(back.lastConnectedMs).toBe(5_000_000 - 60_000);
    expect(back.lastEventId).toBe(0);
    expect(back.pending()).toEqual([{ type: 'message', message: {}, flags: [], id: 0 }]);
    expect(back.settings).toEqual(settings);
  });

  it('counts a queue with a waiting poll as connected at the shutdown', () => {
    const queue = new EventQueue(settings, 1_000);
    queue.waiter = { finish: () => {}, fail: () => {} };
    expect(queue.dump(100_000).idleMs).toBe(0);
  });
});
