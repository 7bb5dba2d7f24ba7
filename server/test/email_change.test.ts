/** PATCH /settings `email`: a confirmation link by email, and nothing changes until it is followed. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../shared/client';
import { applyEventsToState } from './support/apply-events';
import { authOf, call, eventsAfter, sleep, startTestService, type TestService } from './support/service';
import { fakeRelay } from './support/smtp-relay';
import {
  DEFAULT_REGISTER_PARAMS,
  normalizeState,
  VOLATILE_KEYS,
  verifyAction,
} from './support/verify-action';

type Who = 'owner' | 'admin' | 'moderator' | 'alice' | 'bob' | 'guest';
let svc: TestService;
/** Signed in once: a confirmed change of a public address changes what signs in. */
const c = {} as Record<Who, ApiClient>;
beforeAll(async () => {
  // Several changes per user here; the hourly rule has its own test below.
  svc = await startTestService({ rateLimits: { user: 1e6, ip: 1e6, emailChangesPerHour: 100 } });
  for (const who of ['owner', 'admin', 'moderator', 'alice', 'bob', 'guest'] as const)
    c[who] = await svc.login(who);
});

function renamed(who: Who, email: string): ApiClient {
  c[who] = c[who].withCredentials({ email, apiKey: authOf(c[who])[1] });
  return c[who];
}
afterAll(() => svc.close());

interface Mail {
  name: string;
  raw: string;
  headers: Record<string, string>;
  body: string;
}

function outbox(): Mail[] {
  const dir = join(svc.dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const raw = readFileSync(join(dir, name), 'utf8');
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.slice(0, split);
    const body = raw.slice(split + 4);
    const headers = Object.fromEntries(
      head.split('\r\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
    );
    return { name, raw, headers, body };
  });
}

const linkIn = (mail: Mail | undefined): string => {
  const match = /(http\S+\/accounts\/confirm_new_email\/\S+)/.exec(mail?.body ?? '');
  if (!match?.[1]) throw new Error(`no link in ${mail?.raw}`);
  return match[1];
};

const patch = (client: ApiClient, params: Record<string, string>) =>
  call(svc.url, 'PATCH', '/settings', { auth: authOf(client), params });

async function follow(link: string) {
  const response = await fetch(link);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function ownEmail(client: ApiClient) {
  const me = await client.getOwnUser();
  return me.email;
}

describe('starting an email change', () => {
  it('mails a link to the new address and changes nothing yet', async () => {
    const aliceQueue = (await c.alice.registerQueue({})).queue_id as string;
    const bobQueue = (await c.bob.registerQueue({})).queue_id as string;
    const before = outbox().length;

    const r = await patch(c.alice, { email: 'alice.new@example.com' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: [] });

    expect(await ownEmail(c.alice)).toBe(svc.demo.users.alice);
    expect(await eventsAfter(c.alice, aliceQueue, -1)).toEqual([]);
    expect(await eventsAfter(c.bob, bobQueue, -1)).toEqual([]);
    const mails = outbox().slice(before);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as Mail;
    expect(mail.name).toMatch(/^\d{13}-[0-9a-f]{16}\.eml$/);
    expect(mail.headers.To).toBe('alice.new@example.com');
    expect(mail.headers.From).toBe('Confab <noreply@127.0.0.1>');
    expect(mail.headers.Subject).toBe('Verify your new email address for Confab Demo');
    expect(mail.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(mail.raw.replace(/\r\n/g, '')).not.toMatch(/\n/);
    expect(linkIn(mail)).toMatch(new RegExp(`^${svc.url}/accounts/confirm_new_email/[A-Za-z0-9_-]{32}$`));
    expect(mail.body).toContain(`from ${svc.demo.users.alice} to alice.new@example.com`);
  });

  it.each([
    ['not-an-address', 'Invalid address.'],
    ['two@@example.com', 'Invalid address.'],
    ['nodot@example', 'Invalid address.'],
    ['spaced out@example.com', 'Invalid address.'],
    ['line\nbreak@example.com', 'Invalid address.'],
    [`${'x'.repeat(250)}@example.com`, 'Invalid address.'],
  ])('rejects %j with %j, changing nothing and mailing nothing', async (email, msg) => {
    const before = outbox().length;
    const r = await patch(c.bob, { email, twenty_four_hour_time: 'true' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    expect(outbox()).toHaveLength(before);
    const settings = (await c.bob.registerQueue({ fetch_event_types: ['user_settings'] })).user_settings;
    expect(settings?.twenty_four_hour_time).toBe(false);
  });

  it('rejects an address another user has', async () => {
    const before = outbox().length;
    const taken = svc.demo.users.owner.toUpperCase();
    const r = await patch(c.bob, { email: taken });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg: `Email '${taken}' already in use`, code: 'BAD_REQUEST' });
    expect(outbox()).toHaveLength(before);
  });

  it('does nothing for the current address, in any letter case', async () => {
    const before = outbox().length;
    const r = await patch(c.bob, { email: svc.demo.users.bob.toUpperCase() });
    expect(r.status).toBe(200);
    expect(outbox()).toHaveLength(before);
  });

  it('is for administrators only when the organization disabled email changes', async () => {
    svc.sql('UPDATE realm SET email_changes_disabled = 1');
    try {
      const before = outbox().length;
      const r = await patch(c.bob, { email: 'bob.new@example.com' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        result: 'error',
        msg: 'Email address changes are disabled in this organization.',
        code: 'BAD_REQUEST',
      });
      expect(outbox()).toHaveLength(before);
      expect((await patch(c.admin, { email: 'admin.new@example.com' })).status).toBe(200);
      expect(outbox()).toHaveLength(before + 1);
    } finally {
      svc.sql('UPDATE realm SET email_changes_disabled = 0');
    }
  });
});

describe('only after the commit', () => {
  // A failure after the email is prepared: the users row refuses the update that follows.
  const FAIL = `CREATE TRIGGER fail_user_update BEFORE UPDATE ON users
    BEGIN SELECT RAISE(ABORT, 'injected failure'); END`;
  const UNFAIL = 'DROP TRIGGER fail_user_update';

  it('a change that rolls back mails nothing; a committed one mails exactly once', async () => {
    const own = await startTestService({ rateLimits: { user: 1e6, ip: 1e6, emailChangesPerHour: 100 } });
    try {
      const bob = await own.login('bob');
      const mails = () => {
        try {
          return readdirSync(join(own.dataDir, 'outbox')).map((name) =>
            readFileSync(join(own.dataDir, 'outbox', name), 'utf8'),
          );
        } catch {
          return [];
        }
      };
      const change = (params: Record<string, string>) =>
        call(own.url, 'PATCH', '/settings', { auth: authOf(bob), params });

      own.sql(FAIL);
      const failed = await change({ email: 'bob.rolledback@example.com', twenty_four_hour_time: 'true' });
      own.sql(UNFAIL);
      expect(failed.status).toBe(500);
      expect(mails()).toEqual([]);
      const settings = (await bob.registerQueue({ fetch_event_types: ['user_settings'] })).user_settings;
      expect(settings?.twenty_four_hour_time).toBe(false);

      expect((await change({ email: 'bob.committed@example.com' })).status).toBe(200);
      const [mail, ...others] = mails();
      expect(others).toEqual([]);
      expect(mail).toContain('To: bob.committed@example.com');
      const link = linkIn({ name: '', raw: '', headers: {}, body: mail ?? '' });

      // Following the link: a rollback does not mail the old address either, and the link
      // still works afterwards.
      own.sql(FAIL);
      const page = await fetch(link);
      own.sql(UNFAIL);
      expect(page.status).toBe(500);
      expect(mails()).toHaveLength(1);
      expect((await bob.getOwnUser()).email).toBe(own.demo.users.bob);
      expect((await fetch(link)).status).toBe(200);
      const notices = mails().filter((m) => m !== mail);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(`To: ${own.demo.users.bob}`);
    } finally {
      await own.close();
    }
  });
});

describe('following the link', () => {
  it('changes the address once and tells everyone (public addresses)', async () => {
    await patch(c.alice, { email: 'alice.confirmed@example.com' });
    const link = linkIn(outbox().at(-1));
    const alice = c.alice;
    const aliceId = (await alice.getOwnUser()).user_id;
    const aliceBefore = await alice.request('POST', '/register', DEFAULT_REGISTER_PARAMS);

    const { events } = await verifyAction({
      clients: [c.bob, c.admin],
      action: async () => {
        const page = await follow(link);
        expect(page.status).toBe(200);
        expect(page.type).toBe('text/html; charset=utf-8');
        expect(page.text).toContain('Your email address is now alice.confirmed@example.com.');
      },
    });
    const newEmail = {
      type: 'realm_user',
      op: 'update',
      person: { user_id: aliceId, new_email: 'alice.confirmed@example.com' },
    };
    expect(events.map((list) => list.map(({ id: _id, ...e }) => e))).toEqual([[newEmail], [newEmail]]);

    // The old address no longer signs in; the same key works with the new one.
    expect((await call(svc.url, 'GET', '/users/me', { auth: authOf(alice) })).status).toBe(401);
    const aliceNow = renamed('alice', 'alice.confirmed@example.com');
    expect(await ownEmail(aliceNow)).toBe('alice.confirmed@example.com');

    // Alice's own clients: delivery_email, then the display email; applied, they give a fresh snapshot.
    const own = (
      await aliceNow.getEvents({
        queue_id: aliceBefore.queue_id as string,
        last_event_id: -1,
        dont_block: true,
      })
    ).events;
    expect(own.map(({ id: _id, ...e }) => e)).toEqual([
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: aliceId, delivery_email: 'alice.confirmed@example.com' },
      },
      newEmail,
    ]);
    const applied = applyEventsToState(aliceBefore, own, aliceId, { includeSubscribers: true });
    const fresh = await aliceNow.request('POST', '/register', DEFAULT_REGISTER_PARAMS);
    const strip = (s: Record<string, unknown>) =>
      normalizeState(Object.fromEntries(Object.entries(s).filter(([k]) => !VOLATILE_KEYS.includes(k))));
    expect(strip(applied)).toEqual(strip(fresh));
    expect(fresh.email).toBe('alice.confirmed@example.com');

    const login = await call(svc.url, 'POST', '/fetch_api_key', {
      params: { username: 'alice.confirmed@example.com', password: svc.demo.password },
    });
    expect(login.body.api_key).toBe(authOf(alice)[1]);

    // The old address hears about it.
    const notice = outbox().at(-1) as Mail;
    expect(notice.headers.To).toBe(svc.demo.users.alice);
    expect(notice.body).toContain('is now alice.confirmed@example.com');

    const again = await follow(link);
    expect(again.status).toBe(404);
    expect(again.text).toContain('This confirmation link is invalid or was already used.');
    expect(await ownEmail(aliceNow)).toBe('alice.confirmed@example.com');
  });

  it('answers an unknown key with 404 and changes nothing', async () => {
    const page = await follow(`${svc.url}/accounts/confirm_new_email/nonsense`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('This confirmation link is invalid or was already used.');
  });

  it('expires after 24 hours', async () => {
    await patch(c.bob, { email: 'bob.late@example.com' });
    const link = linkIn(outbox().at(-1));
    svc.sql('UPDATE email_changes SET created_at = created_at - 86401');
    const page = await follow(link);
    expect(page.status).toBe(400);
    expect(page.text).toContain('This confirmation link has expired.');
    expect(await ownEmail(c.bob)).toBe(svc.demo.users.bob);
  });

  it('is not used up by a HEAD request (link checkers)', async () => {
    await patch(c.owner, { email: 'olivia.checked@example.com' });
    const link = linkIn(outbox().at(-1));
    const head = await fetch(link, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await ownEmail(c.owner)).toBe(svc.demo.users.owner);
    expect((await follow(link)).status).toBe(200);
    expect(await ownEmail(renamed('owner', 'olivia.checked@example.com'))).toBe('olivia.checked@example.com');
  });

  it('only the newest request of a user counts', async () => {
    await patch(c.moderator, { email: 'maya.first@example.com' });
    const first = linkIn(outbox().at(-1));
    await patch(c.moderator, { email: 'maya.second@example.com' });
    const second = linkIn(outbox().at(-1));
    expect((await follow(first)).status).toBe(404);
    expect((await follow(second)).status).toBe(200);
    expect(await ownEmail(renamed('moderator', 'maya.second@example.com'))).toBe('maya.second@example.com');
  });

  it('refuses an address someone took in the meantime', async () => {
    await patch(c.owner, { email: 'contested@example.com' });
    const ownerLink = linkIn(outbox().at(-1));
    await patch(c.bob, { email: 'contested@example.com' });
    expect((await follow(linkIn(outbox().at(-1)))).status).toBe(200);
    renamed('bob', 'contested@example.com');
    const page = await follow(ownerLink);
    expect(page.status).toBe(400);
    expect(page.text).toContain('Email &#39;contested@example.com&#39; already in use');
    expect(await ownEmail(c.owner)).toBe('olivia.checked@example.com');
  });

  it('with limited address visibility: the real address changes, for the user and administrators', async () => {
    svc.sql('UPDATE realm SET email_address_visibility = 3');
    try {
      const guest = c.guest;
      const guestId = (await guest.getOwnUser()).user_id;
      await patch(c.guest, { email: 'gary.new@example.com' });
      const link = linkIn(outbox().at(-1));
      const { events } = await verifyAction({
        clients: [guest, c.admin, c.owner],
        action: async () => expect((await follow(link)).status).toBe(200),
      });
      const event = {
        type: 'realm_user',
        op: 'update',
        person: { user_id: guestId, delivery_email: 'gary.new@example.com' },
      };
      expect(events.map((list) => list.map(({ id: _id, ...e }) => e))).toEqual([[event], [event], [event]]);
      const me = (await guest.getOwnUser()) as Record<string, unknown>;
      expect(me.email).toBe(svc.demo.users.guest);
      expect(me.delivery_email).toBe('gary.new@example.com');
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
  });

  it('with limited address visibility, other members hear nothing', async () => {
    svc.sql('UPDATE realm SET email_address_visibility = 3');
    try {
      await patch(c.admin, { email: 'adam.limited@example.com' });
      const link = linkIn(outbox().at(-1));
      const { events } = await verifyAction({
        clients: [c.bob, c.alice],
        action: async () => expect((await follow(link)).status).toBe(200),
      });
      expect(events).toEqual([[], []]);
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
  });
});

describe('visible to moderators', () => {
  it('tells moderators the real address, and members nothing', async () => {
    svc.sql('UPDATE realm SET email_address_visibility = 5');
    try {
      await patch(c.guest, { email: 'gary.moderated@example.com' });
      const link = linkIn(outbox().at(-1));
      const guestId = (await c.guest.getOwnUser()).user_id;
      const { events } = await verifyAction({
        clients: [c.guest, c.moderator, c.alice],
        action: async () => expect((await follow(link)).status).toBe(200),
      });
      const event = {
        type: 'realm_user',
        op: 'update',
        person: { user_id: guestId, delivery_email: 'gary.moderated@example.com' },
      };
      expect(events.map((list) => list.map(({ id: _id, ...e }) => e))).toEqual([[event], [event], []]);
    } finally {
      svc.sql('UPDATE realm SET email_address_visibility = 1');
    }
  });
});

describe('with --smtp-url', () => {
  it('hands every email to the relay as well as to the outbox', async () => {
    const relay = await fakeRelay();
    const own = await startTestService({ smtpUrl: `smtp://127.0.0.1:${relay.port}` });
    try {
      const bob = await own.login('bob');
      const r = await call(own.url, 'PATCH', '/settings', {
        auth: authOf(bob),
        params: { email: 'bob.relayed@example.com' },
      });
      expect(r.status).toBe(200);
      for (let i = 0; i < 100 && !relay.sessions[0]?.includes('QUIT'); i++) await sleep(50);
      const log = relay.sessions[0] ?? [];
      expect(log.slice(0, 4)).toEqual([
        expect.stringMatching(/^EHLO \S+$/),
        'MAIL FROM:<noreply@127.0.0.1>',
        'RCPT TO:<bob.relayed@example.com>',
        'DATA',
      ]);
      expect(log.at(-1)).toBe('QUIT');
      const data = log.filter((l) => l.startsWith('DATA ')).map((l) => l.slice(5));
      const [file] = readdirSync(join(own.dataDir, 'outbox'));
      const stored = readFileSync(join(own.dataDir, 'outbox', file as string), 'utf8');
      expect(`${data.join('\r\n')}\r\n`).toBe(stored);
      expect(stored).toContain(`${own.url}/accounts/confirm_new_email/`);
    } finally {
      await own.close();
      relay.server.close();
    }
  });

  it('still succeeds, with the outbox copy, when the relay is down', async () => {
    const relay = await fakeRelay();
    const port = relay.port;
    await new Promise((resolve) => relay.server.close(resolve));
    const own = await startTestService({ smtpUrl: `smtp://127.0.0.1:${port}` });
    try {
      const bob = await own.login('bob');
      const r = await call(own.url, 'PATCH', '/settings', {
        auth: authOf(bob),
        params: { email: 'bob.unrelayed@example.com' },
      });
      expect(r.status).toBe(200);
      expect(readdirSync(join(own.dataDir, 'outbox'))).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});

describe('the email change rate limit', () => {
  it('allows 2 changes an hour per user (the family rule), then 429, mailing nothing', async () => {
    const own = await startTestService({ rateLimits: { user: 1e6, ip: 1e6 } });
    try {
      const bob = await own.login('bob');
      const alice = await own.login('alice');
      const change = (client: ApiClient, email: string) =>
        call(own.url, 'PATCH', '/settings', { auth: authOf(client), params: { email } });
      // Refused requests do not count.
      expect((await change(bob, 'not an address')).status).toBe(400);
      expect((await change(bob, 'bob1@example.com')).status).toBe(200);
      expect((await change(bob, 'bob2@example.com')).status).toBe(200);
      const refused = await change(bob, 'bob3@example.com');
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(refused.body).toEqual({
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': retryAfter,
      });
      expect(readdirSync(join(own.dataDir, 'outbox'))).toHaveLength(2);
      expect((await change(alice, 'alice1@example.com')).status).toBe(200);
    } finally {
      await own.close();
    }
  });
});
