/** --demo: the demo organization and demo-credentials.json. */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { RegisterResponse } from '../../shared/protocol';
import { makeTempDir, removeDir } from '../../test/support/server';
import { DB_FILE_NAME } from '../db';
import { call, serviceWith, startTestService } from './support/service';

const { svc, admin, alice, bob } = await serviceWith(['admin', 'alice', 'bob']);
const aliceState = (await alice.registerQueue({ include_subscribers: true })) as RegisterResponse &
  Record<string, unknown>;

const users = {
  owner: 'owner@demo.confab.example',
  admin: 'admin@demo.confab.example',
  moderator: 'moderator@demo.confab.example',
  alice: 'alice@demo.confab.example',
  bob: 'bob@demo.confab.example',
  guest: 'guest@demo.confab.example',
};

describe('demo-credentials.json', () => {
  it('has the issue’s shape with the listening URL', () => {
    const file = JSON.parse(readFileSync(join(svc.dataDir, 'demo-credentials.json'), 'utf8'));
    expect(file).toEqual({
      url: svc.url,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      users,
      webhook_bot: {
        email: 'webhook-bot@demo.confab.example',
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      },
    });
    expect(Object.keys(file)).toEqual(['url', 'password', 'users', 'webhook_bot']);
  });

  it('is readable by its owner only', () => {
    expect(statSync(join(svc.dataDir, 'demo-credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('lets every human sign in with the one password', async () => {
    for (const email of Object.values(users)) {
      const r = await call(svc.url, 'POST', '/fetch_api_key', {
        params: { username: email, password: svc.demo.password },
      });
      expect(r.status, email).toBe(200);
    }
  });

  it('stores passwords as scrypt hashes and keys as random strings', () => {
    const db = new Database(join(svc.dataDir, DB_FILE_NAME), { readonly: true });
    try {
      const rows = db.prepare('SELECT email, password_hash, api_key FROM users').all() as {
        email: string;
        password_hash: string | null;
        api_key: string;
      }[];
      for (const row of rows) {
        if (row.email.startsWith('webhook-bot')) expect(row.password_hash).toBeNull();
        else expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
        expect(row.password_hash ?? '').not.toContain(svc.demo.password);
        expect(row.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
      }
      expect(new Set(rows.map((r) => r.api_key)).size).toBe(rows.length);
    } finally {
      db.close();
    }
  });
});

describe('the demo organization', () => {
  const byEmail = () => new Map((aliceState.realm_users ?? []).map((u) => [u.email, u]));

  it('has the roles of the issue and an incoming-webhook bot owned by the administrator', () => {
    const people = byEmail();
    expect(
      Object.fromEntries(Object.entries(users).map(([k, email]) => [k, people.get(email)?.role])),
    ).toEqual({
      owner: 100,
      admin: 200,
      moderator: 300,
      alice: 400,
      bob: 400,
      guest: 600,
    });
    const bot = people.get('webhook-bot@demo.confab.example');
    expect(bot).toMatchObject({ is_bot: true, bot_type: 2, bot_owner_id: people.get(users.admin)?.user_id });
  });

  it('lets the administrator create users', async () => {
    const state = (await admin.registerQueue({ fetch_event_types: ['realm_user'] })) as Record<
      string,
      unknown
    >;
    expect(state.can_create_users).toBe(true);
    expect(aliceState.can_create_users).toBe(false);
  });

  it('has the four streams with the right subscribers and policies', async () => {
    const ids = Object.fromEntries([...byEmail()].map(([email, u]) => [email, u.user_id]));
    const humans = Object.values(users).map((e) => ids[e]);
    const subs = new Map((aliceState.subscriptions ?? []).map((s) => [s.name, s]));
    expect([...subs.keys()]).toEqual(['general', 'engineering', 'design', 'announce']);
    expect(subs.get('general')).toMatchObject({ invite_only: false, subscribers: humans });
    expect(subs.get('engineering')).toMatchObject({
      invite_only: false,
      subscribers: [ids[users.admin], ids[users.alice]],
    });
    expect(subs.get('design')).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
      subscribers: [ids[users.admin], ids[users.alice]],
    });
    expect(subs.get('announce')).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });

    const bobs = (await bob.registerQueue({ fetch_event_types: ['subscription', 'stream'] })) as Record<
      string,
      unknown
    >;
    const names = (list: unknown) => (list as { name: string }[]).map((s) => s.name);
    expect(names(bobs.subscriptions)).toEqual(['general', 'announce']);
    expect(names(bobs.never_subscribed)).toEqual(['engineering']);
    expect(names(bobs.streams)).toEqual(['general', 'engineering', 'announce']);
  });

  it('has at least 30 messages over several topics, some unread for alice', () => {
    expect(aliceState.max_message_id).toBeGreaterThanOrEqual(30);
    const unread = aliceState.unread_msgs as { count: number; streams: { topic: string }[] };
    expect(unread.count).toBeGreaterThan(0);
    expect(new Set(unread.streams.map((s) => s.topic)).size).toBeGreaterThanOrEqual(3);
  });

  it('has a user group, three profile fields with values, a playground, a status and a draft', () => {
    const groups = aliceState.realm_user_groups as {
      name: string;
      members: number[];
      is_system_group: boolean;
    }[];
    expect(groups.filter((g) => !g.is_system_group)).toEqual([
      expect.objectContaining({ name: 'engineering-team', members: [2, 3, 4] }),
    ]);
    const fields = aliceState.custom_profile_fields as { id: number; type: number; name: string }[];
    expect(fields.map((f) => [f.type, f.name])).toEqual([
      [1, 'Job title'],
      [3, 'Favorite editor'],
      [8, 'Pronouns'],
    ]);
    const aliceUser = byEmail().get(users.alice);
    expect(Object.keys(aliceUser?.profile_data ?? {})).toEqual(fields.map((f) => String(f.id)));
    expect(aliceState.realm_playgrounds).toEqual([
      {
        id: 1,
        name: 'Rust playground',
        highlighter_language: 'Rust',
        url_prefix: expect.stringMatching(/^https:/),
      },
    ]);
    const bobId = byEmail().get(users.bob)?.user_id;
    expect(aliceState.user_status).toEqual({
      [String(bobId)]: {
        status_text: 'On vacation',
        emoji_name: 'palm_tree',
        emoji_code: '1f334',
        reaction_type: 'unicode_emoji',
      },
    });
    expect(aliceState.drafts).toEqual([
      expect.objectContaining({ type: 'stream', topic: 'release 1.0', to: [subsId('engineering')] }),
    ]);
  });

  function subsId(name: string): number {
    return (aliceState.subscriptions ?? []).find((s) => s.name === name)?.stream_id ?? -1;
  }
});

describe('restarting with --demo', () => {
  it('keeps the data and the password and rewrites the URL; a lost file gets a new password', async () => {
    const dataDir = await makeTempDir('confab-demo-');
    try {
      const first = await startTestService({ dataDir });
      const { password } = first.demo;
      const client = await first.login('alice');
      await client.updateSettings({ twenty_four_hour_time: true });
      await first.close();

      const second = await startTestService({ dataDir });
      expect(second.demo.url).toBe(second.url);
      expect(second.demo.password).toBe(password);
      expect(second.demo.webhook_bot).toEqual(first.demo.webhook_bot);
      const again = await second.login('alice');
      const state = await again.registerQueue({ fetch_event_types: ['user_settings', 'realm_user'] });
      expect(state.user_settings?.twenty_four_hour_time).toBe(true);
      expect(state.realm_users).toHaveLength(7);
      await second.close();

      rmSync(join(dataDir, 'demo-credentials.json'));
      const third = await startTestService({ dataDir });
      expect(third.demo.password).not.toBe(password);
      await third.login('bob');
      const old = await call(third.url, 'POST', '/fetch_api_key', {
        params: { username: users.bob, password },
      });
      expect(old.status).toBe(401);
      await third.close();
    } finally {
      await removeDir(dataDir);
    }
  });

  it('creates no organization content and no credentials without --demo', async () => {
    const dataDir = await makeTempDir('confab-plain-');
    try {
      const { startService } = await import('../service');
      const service = await startService({ host: '127.0.0.1', port: 0, dataDir });
      await service.close();
      expect(() => statSync(join(dataDir, 'demo-credentials.json'))).toThrow();
      const db = new Database(join(dataDir, DB_FILE_NAME), { readonly: true });
      expect(db.prepare('SELECT COUNT(*) AS n FROM users').get()).toEqual({ n: 0 });
      db.close();
    } finally {
      await removeDir(dataDir);
    }
  });
});
