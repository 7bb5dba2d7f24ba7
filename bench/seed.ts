/**
 * A large organization for the benchmarks, written straight into a stopped server's database
 * with the server's own db/ functions (creating 10 000 users through the API would spend most
 * of an hour hashing passwords). The demo organization stays as it is; the seeded people and
 * streams join it.
 */
import { generateApiKey } from '../server/auth';
import { openDatabase } from '../server/db';
import { realmUserSettingsDefaults, requireRealm, SYSTEM_GROUPS, systemGroupId } from '../server/db/realm';
import { insertStream, subscribe } from '../server/db/streams';
import { insertUser } from '../server/db/users';
import { ROLES } from '../shared/protocol/users';
import { type StartedServer, startServerProcess } from '../test/support/server';
import { progress } from './support';

export interface SeedPlan {
  /** People to add, each with an API key (they have no password). */
  users: number;
  /** Public streams to add. */
  streams: number;
  /** How many of the new streams each new person is subscribed to (round robin). */
  subscriptionsPerUser: number;
}

export interface SeededUser {
  id: number;
  email: string;
  apiKey: string;
}

export interface Seeded {
  users: SeededUser[];
  /** The new streams' ids, in creation order. */
  streamIds: number[];
  /** Their names (`bench-stream-<i>`). */
  streamNames: string[];
}

/** Adds the plan's people and streams to the data directory's organization, in one transaction. */
export function seedInto(dataDir: string, plan: SeedPlan): Seeded {
  const db = openDatabase(dataDir);
  try {
    const realm = requireRealm(db);
    const defaults = realmUserSettingsDefaults(realm);
    const admins = systemGroupId(db, realm.id, SYSTEM_GROUPS.administrators);
    const now = Date.now();
    const seeded: Seeded = { users: [], streamIds: [], streamNames: [] };
    db.transaction(() => {
      for (let s = 0; s < plan.streams; s++) {
        const name = `bench-stream-${s}`;
        seeded.streamNames.push(name);
        seeded.streamIds.push(
          insertStream(db, {
            realmId: realm.id,
            name,
            description: `Benchmark stream ${s}`,
            renderedDescription: `<p>Benchmark stream ${s}</p>`,
            dateCreated: Math.floor(now / 1000),
            canRemoveSubscribersGroupId: admins,
          }),
        );
      }
      for (let u = 0; u < plan.users; u++) {
        const email = `bench-${u}@bench.confab.example`;
        const apiKey = generateApiKey();
        const id = insertUser(db, {
          realmId: realm.id,
          email,
          fullName: `Bench Person ${u}`,
          passwordHash: null,
          apiKey,
          role: ROLES.member,
          dateJoinedMs: now,
          settings: { ...defaults },
        });
        seeded.users.push({ id, email, apiKey });
        for (let k = 0; k < Math.min(plan.subscriptionsPerUser, plan.streams); k++) {
          const streamId = seeded.streamIds[(u + k) % plan.streams];
          if (streamId !== undefined) subscribe(db, id, streamId);
        }
      }
    }).immediate();
    return seeded;
  } finally {
    db.close();
  }
}

/**
 * A server process (rate limits off, demo organization) whose organization holds the plan's
 * people and streams: started once to create the organization, stopped, seeded, started again.
 */
export async function startSeededServer(
  plan: SeedPlan,
  args: string[] = [],
): Promise<{ server: StartedServer; seeded: Seeded }> {
  const server = await startServerProcess({
    demo: true,
    args: ['--rate-limit-user', '0', '--rate-limit-ip', '0', ...args],
  });
  await server.stop();
  progress(`seeding ${plan.users} people and ${plan.streams} streams`);
  const seeded = seedInto(server.dataDir, plan);
  await server.restart();
  return { server, seeded };
}
