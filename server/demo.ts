/**
 * The demo organization (--demo): people in every role, streams, messages, and the rest of
 * the spec's data, so the app has something to show on first start. Content is fixed;
 * only secrets (password, API keys) are random. demo-credentials.json tells the app and
 * the tests how to sign in.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DEFAULT_PERSONAL_SETTINGS, ROLES } from '../shared/protocol';
import { generateApiKey, hashPassword } from './auth';
import type { Db } from './db';
import { insertMessage, type MessageTarget } from './db/messages';
import {
  getRealm,
  markDemoSeeded,
  type RealmRow,
  realmUserSettingsDefaults,
  requireRealm,
  SYSTEM_GROUPS,
  systemGroupId,
} from './db/realm';
import {
  insertPlayground,
  insertProfileField,
  insertUserGroup,
  PROFILE_FIELD_TYPES,
  setProfileValue,
} from './db/realm-data';
import { insertStream, subscribe } from './db/streams';
import { insertDraft, setUserStatus } from './db/user-data';
import {
  BOT_TYPES,
  countUsers,
  getUserByEmail,
  insertUser,
  setPasswordHashByEmail,
  type UserRow,
} from './db/users';
import CONVERSATIONS from './demo-conversations.json' with { type: 'json' };
import { renderMarkdown } from './markdown';

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';
export const DEMO_DOMAIN = 'demo.confab.example';

export type DemoRole = 'owner' | 'admin' | 'moderator' | 'alice' | 'bob' | 'guest';

export const demoCredentialsSchema = z.object({
  url: z.string(),
  password: z.string(),
  users: z.object({
    owner: z.string(),
    admin: z.string(),
    moderator: z.string(),
    alice: z.string(),
    bob: z.string(),
    guest: z.string(),
  }),
  webhook_bot: z.object({ email: z.string(), api_key: z.string() }),
});
export type DemoCredentials = z.infer<typeof demoCredentialsSchema>;

const PEOPLE: Record<DemoRole, { name: string; role: UserRow['role']; timezone: string; title: string }> = {
  owner: { name: 'Olivia Owens', role: ROLES.owner, timezone: 'America/Los_Angeles', title: 'Founder' },
  admin: {
    name: 'Adam Reyes',
    role: ROLES.administrator,
    timezone: 'Europe/London',
    title: 'IT administrator',
  },
  moderator: { name: 'Maya Lin', role: ROLES.moderator, timezone: 'Asia/Singapore', title: 'Community lead' },
  alice: { name: 'Alice Doe', role: ROLES.member, timezone: 'Europe/Berlin', title: 'Software engineer' },
  bob: { name: 'Bob Smith', role: ROLES.member, timezone: 'America/New_York', title: 'Product designer' },
  guest: { name: 'Gary Guest', role: ROLES.guest, timezone: '', title: 'Consultant' },
};
const WEBHOOK_BOT = { email: `webhook-bot@${DEMO_DOMAIN}`, name: 'Webhook Bot' };

export const demoEmail = (who: DemoRole) => `${who}@${DEMO_DOMAIN}`;

/** Monday 3 March 2025, 09:00 UTC: the demo's fixed "now", so its content is reproducible. */
const T0 = Date.UTC(2025, 2, 3, 9, 0, 0) / 1000;

type DemoStream = 'general' | 'engineering' | 'design' | 'announce';
type Msg = { from: DemoRole; to: MessageTarget | { dm: DemoRole[] }; text: string; unreadFor?: DemoRole[] };
/** The conversations as written in the data file: streams by name. */
type DemoMessage = Omit<Msg, 'to'> & { to: { stream: DemoStream; topic: string } | { dm: DemoRole[] } };

/** Stream names of the demo's conversations (server/demo-conversations.json) to their ids. */
function script(streams: Record<DemoStream, number>): Msg[] {
  return (CONVERSATIONS as DemoMessage[]).map((m) => ({
    ...m,
    to: 'dm' in m.to ? m.to : { stream: streams[m.to.stream], topic: m.to.topic },
  }));
}

/** Creates the demo content; the caller runs it in a transaction. */
function seed(db: Db, realm: RealmRow, passwordHash: string): void {
  const defaults = realmUserSettingsDefaults(realm);
  const ids = {} as Record<DemoRole, number>;
  (Object.keys(PEOPLE) as DemoRole[]).forEach((who, i) => {
    const person = PEOPLE[who];
    ids[who] = insertUser(db, {
      realmId: realm.id,
      email: demoEmail(who),
      fullName: person.name,
      // One hash for the one shared demo password: the password is no secret among the
      // demo accounts, and hashing once keeps the first start fast.
      passwordHash,
      apiKey: generateApiKey(),
      role: person.role,
      canCreateUsers: who === 'admin' || who === 'owner',
      timezone: person.timezone,
      dateJoinedMs: (T0 - 86400 * (30 - i)) * 1000,
      settings: { ...defaults, ...pickPersonal() },
    });
  });
  insertUser(db, {
    realmId: realm.id,
    email: WEBHOOK_BOT.email,
    fullName: WEBHOOK_BOT.name,
    passwordHash: null,
    apiKey: generateApiKey(),
    role: ROLES.member,
    isBot: true,
    botType: BOT_TYPES.incomingWebhook,
    botOwnerId: ids.admin,
    dateJoinedMs: (T0 - 86400 * 20) * 1000,
    settings: { ...defaults, ...pickPersonal() },
  });

  const admins = systemGroupId(db, realm.id, SYSTEM_GROUPS.administrators);
  const stream = (
    name: string,
    description: string,
    extra: Partial<Parameters<typeof insertStream>[1]> = {},
  ) =>
    insertStream(db, {
      realmId: realm.id,
      name,
      description,
      renderedDescription: renderMarkdown(description),
      dateCreated: T0 - 86400 * 30,
      canRemoveSubscribersGroupId: admins,
      ...extra,
    });
  const streams = {
    general: stream('general', 'Everyone is here: news and chatter.', { isDefault: true }),
    engineering: stream('engineering', 'Building **Confab**.'),
    design: stream('design', 'Work in progress on the look of things.', {
      inviteOnly: true,
      historyPublicToSubscribers: true,
    }),
    announce: stream('announce', 'Announcements from the administrators.', { streamPostPolicy: 2 }),
  };
  const humans = Object.keys(PEOPLE) as DemoRole[];
  for (const who of humans) {
    subscribe(db, ids[who], streams.general);
    subscribe(db, ids[who], streams.announce);
  }
  for (const who of ['admin', 'alice'] as const) {
    subscribe(db, ids[who], streams.engineering);
    subscribe(db, ids[who], streams.design);
  }

  script(streams).forEach((m, i) => {
    const to = 'dm' in m.to ? { users: m.to.dm.map((who) => ids[who]) } : m.to;
    const unread = new Set((m.unreadFor ?? []).map((who) => ids[who]));
    insertMessage(db, {
      realmId: realm.id,
      senderId: ids[m.from],
      to,
      content: m.text,
      dateSent: T0 + i * 7 * 60,
      client: 'demo',
      readBy: Object.values(ids).filter((id) => !unread.has(id)),
    });
  });

  insertUserGroup(db, {
    realmId: realm.id,
    name: 'engineering-team',
    description: 'The people who build Confab',
    members: [ids.admin, ids.alice, ids.moderator],
  });

  const title = insertProfileField(db, {
    realmId: realm.id,
    name: 'Job title',
    hint: 'What you do',
    type: PROFILE_FIELD_TYPES.SHORT_TEXT.id,
    summary: true,
  });
  const editor = insertProfileField(db, {
    realmId: realm.id,
    name: 'Favorite editor',
    type: PROFILE_FIELD_TYPES.CHOICE.id,
    fieldData: JSON.stringify({
      '0': { text: 'Vim', order: '1' },
      '1': { text: 'Emacs', order: '2' },
      '2': { text: 'VS Code', order: '3' },
    }),
  });
  const pronouns = insertProfileField(db, {
    realmId: realm.id,
    name: 'Pronouns',
    hint: 'What pronouns should people use to refer to you?',
    type: PROFILE_FIELD_TYPES.PRONOUNS.id,
    summary: true,
  });
  const profile: Record<DemoRole, [string, string]> = {
    owner: ['2', 'she/her'],
    admin: ['0', 'he/him'],
    moderator: ['1', 'she/her'],
    alice: ['0', 'she/her'],
    bob: ['2', 'he/him'],
    guest: ['2', 'they/them'],
  };
  for (const who of humans) {
    const [editorChoice, pronoun] = profile[who];
    setProfileValue(db, ids[who], title, PEOPLE[who].title, renderMarkdown(PEOPLE[who].title));
    setProfileValue(db, ids[who], editor, editorChoice, null);
    setProfileValue(db, ids[who], pronouns, pronoun, null);
  }

  insertPlayground(db, {
    realmId: realm.id,
    name: 'Rust playground',
    language: 'Rust',
    urlPrefix: 'https://play.rust-lang.org/?edition=2021&code=',
  });
  setUserStatus(db, {
    userId: ids.bob,
    statusText: 'On vacation',
    emojiName: 'palm_tree',
    emojiCode: '1f334',
    reactionType: 'unicode_emoji',
    now: T0,
  });
  insertDraft(db, {
    userId: ids.alice,
    type: 'stream',
    to: [streams.engineering],
    topic: 'release 1.0',
    content: 'We should also mention the new settings screen in the release notes.',
    timestamp: T0 + 3600 * 5,
  });
  markDemoSeeded(db, realm.id, 'Confab Demo');
}

function pickPersonal() {
  return {
    enable_marketing_emails: DEFAULT_PERSONAL_SETTINGS.enable_marketing_emails,
    enable_login_emails: DEFAULT_PERSONAL_SETTINGS.enable_login_emails,
  };
}

export function readDemoCredentials(dataDir: string): DemoCredentials | null {
  try {
    return demoCredentialsSchema.parse(
      JSON.parse(readFileSync(join(dataDir, DEMO_CREDENTIALS_FILE), 'utf8')),
    );
  } catch {
    return null;
  }
}

/** Writes the file whole or not at all, readable only by its owner (it holds a password). */
function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): void {
  const path = join(dataDir, DEMO_CREDENTIALS_FILE);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/**
 * Before listening: creates the demo organization in an empty realm, or makes sure an
 * existing one has a known password. Returns a function that writes the credentials file
 * once the URL is known, or null when the realm is not a demo organization.
 */
export async function prepareDemo(db: Db, dataDir: string): Promise<((url: string) => void) | null> {
  let realm = requireRealm(db);
  if (!realm.demo_seeded && countUsers(db) > 0) {
    process.stderr.write('--demo ignored: the data directory already holds an organization\n');
    return null;
  }

  const previous = readDemoCredentials(dataDir);
  let password = previous?.password;
  if (!realm.demo_seeded || password === undefined) {
    // A new organization, or the credentials file was lost: the humans get a new password.
    password = randomBytes(12).toString('base64url');
    const hash = await hashPassword(password);
    const current = realm;
    db.transaction(() => {
      if (!current.demo_seeded) seed(db, current, hash);
      else {
        for (const who of Object.keys(PEOPLE) as DemoRole[])
          setPasswordHashByEmail(db, current.id, demoEmail(who), hash);
      }
    }).immediate();
    realm = getRealm(db) ?? realm;
  }

  const bot = getUserByEmail(db, realm.id, WEBHOOK_BOT.email);
  const credentials: Omit<DemoCredentials, 'url'> = {
    password,
    users: {
      owner: demoEmail('owner'),
      admin: demoEmail('admin'),
      moderator: demoEmail('moderator'),
      alice: demoEmail('alice'),
      bob: demoEmail('bob'),
      guest: demoEmail('guest'),
    },
    webhook_bot: { email: WEBHOOK_BOT.email, api_key: bot?.api_key ?? '' },
  };
  return (url) => writeDemoCredentials(dataDir, { url, ...credentials });
}
