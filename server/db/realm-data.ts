/**
 * Organization-wide data: custom profile fields, user groups, code playgrounds; the users as
 * register's lists show them (the roster); and the watch on the writes register's kept parts
 * are built from (writeStamp, watchRows).
 */
import type { Db } from './index';
import { SYSTEM_GROUP_MAX_ROLE } from './realm';
import { runForEach, selectColumn } from './sql';
import { profileFieldValuesOfUsers, type UserRow } from './users';

export const PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Short text' },
  LONG_TEXT: { id: 2, name: 'Long text' },
  CHOICE: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
} as const;

/** Field types whose values are Markdown and get a rendered_value. */
export const RENDERED_PROFILE_FIELD_TYPES: ReadonlySet<number> = new Set([1, 2]);

export interface ProfileFieldRow {
  id: number;
  realm_id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  order: number;
  display_in_profile_summary: number;
}

export function listProfileFields(db: Db, realmId: number): Record<string, unknown>[] {
  const rows = db
    .prepare('SELECT * FROM custom_profile_fields WHERE realm_id = ? ORDER BY "order", id')
    .all(realmId) as ProfileFieldRow[];
  return rows.map((f) => ({
    id: f.id,
    type: f.field_type,
    order: f.order,
    name: f.name,
    hint: f.hint,
    field_data: f.field_data,
    display_in_profile_summary: f.display_in_profile_summary === 1,
  }));
}

export function getProfileField(db: Db, realmId: number, fieldId: number): ProfileFieldRow | undefined {
  return db
    .prepare('SELECT * FROM custom_profile_fields WHERE id = ? AND realm_id = ?')
    .get(fieldId, realmId) as ProfileFieldRow | undefined;
}

/** Whether another field (not `exceptId`) has the name. */
export function profileFieldNameTaken(db: Db, realmId: number, name: string, exceptId = 0): boolean {
  return (
    db
      .prepare('SELECT 1 FROM custom_profile_fields WHERE realm_id = ? AND name = ? AND id != ?')
      .get(realmId, name, exceptId) !== undefined
  );
}

/** How many fields (other than `exceptId`) the organization shows in profile summaries. */
export function countSummaryProfileFields(db: Db, realmId: number, exceptId = 0): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM custom_profile_fields
         WHERE realm_id = ? AND display_in_profile_summary = 1 AND id != ?`,
      )
      .get(realmId, exceptId) as { n: number }
  ).n;
}

export function updateProfileField(
  db: Db,
  fieldId: number,
  f: { name: string; hint: string; fieldData: string; summary: boolean },
): void {
  db.prepare(
    `UPDATE custom_profile_fields SET name = ?, hint = ?, field_data = ?, display_in_profile_summary = ?
     WHERE id = ?`,
  ).run(f.name, f.hint, f.fieldData, f.summary ? 1 : 0, fieldId);
}

/** Removes a field and every user's value of it. */
export function deleteProfileField(db: Db, fieldId: number): void {
  db.prepare('DELETE FROM custom_profile_field_values WHERE field_id = ?').run(fieldId);
  db.prepare('DELETE FROM custom_profile_fields WHERE id = ?').run(fieldId);
}

export function setProfileFieldOrder(db: Db, fieldId: number, order: number): void {
  db.prepare('UPDATE custom_profile_fields SET "order" = ? WHERE id = ?').run(order, fieldId);
}

/** The ids of the organization's fields. */
export function profileFieldIds(db: Db, realmId: number): number[] {
  return selectColumn(db, 'SELECT id FROM custom_profile_fields WHERE realm_id = ? ORDER BY id', realmId);
}

/** Users with a value of the field that is not among `keep` (choices removed from a list field). */
export function usersWithProfileValueOutside(db: Db, fieldId: number, keep: readonly string[]): number[] {
  const rows = db
    .prepare('SELECT user_id, value FROM custom_profile_field_values WHERE field_id = ? ORDER BY user_id')
    .all(fieldId) as { user_id: number; value: string }[];
  return rows.filter((r) => !keep.includes(r.value)).map((r) => r.user_id);
}

export function insertProfileField(
  db: Db,
  f: { realmId: number; name: string; hint?: string; type: number; fieldData?: string; summary?: boolean },
): number {
  const next = db
    .prepare('SELECT COALESCE(MAX("order"), 0) + 1 AS n FROM custom_profile_fields WHERE realm_id = ?')
    .get(f.realmId) as { n: number };
  return Number(
    db
      .prepare(
        `INSERT INTO custom_profile_fields (realm_id, name, hint, field_type, field_data, "order",
           display_in_profile_summary) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(f.realmId, f.name, f.hint ?? '', f.type, f.fieldData ?? '', next.n, f.summary ? 1 : 0)
      .lastInsertRowid,
  );
}

export function setProfileValue(
  db: Db,
  userId: number,
  fieldId: number,
  value: string,
  rendered: string | null,
) {
  db.prepare(
    `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)
     ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
  ).run(userId, fieldId, value, rendered);
}

/** A user's stored value of one field, or undefined when not set. */
export function getProfileValue(db: Db, userId: number, fieldId: number): string | undefined {
  const row = db
    .prepare('SELECT value FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?')
    .get(userId, fieldId) as { value: string } | undefined;
  return row?.value;
}

export function deleteProfileValue(db: Db, userId: number, fieldId: number): void {
  db.prepare('DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?').run(
    userId,
    fieldId,
  );
}

export interface ProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

/** Every stored value of the organization's fields, in the fields' order. */
export function profileFieldValues(db: Db, realmId: number): ProfileValueRow[] {
  return db
    .prepare(
      `SELECT v.user_id, v.field_id, v.value, v.rendered_value FROM custom_profile_field_values v
       JOIN custom_profile_fields f ON f.id = v.field_id WHERE f.realm_id = ? ORDER BY f."order", f.id`,
    )
    .all(realmId) as ProfileValueRow[];
}

export function insertUserGroup(
  db: Db,
  g: { realmId: number; name: string; description: string; members: number[] },
): number {
  const id = Number(
    db
      .prepare('INSERT INTO user_groups (realm_id, name, description) VALUES (?, ?, ?)')
      .run(g.realmId, g.name, g.description).lastInsertRowid,
  );
  const add = db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
  for (const m of g.members) add.run(id, m);
  return id;
}

/** The organization's active humans by id, with their roles: the system groups' members. */
export function activeHumanRoles(db: Db, realmId: number): { id: number; role: number }[] {
  return db
    .prepare('SELECT id, role FROM users WHERE realm_id = ? AND is_active = 1 AND is_bot = 0 ORDER BY id')
    .all(realmId) as { id: number; role: number }[];
}

/**
 * register's realm_user_groups; system groups' members follow the users' roles. `humans` is
 * activeHumanRoles, which register has at hand.
 */
export function listUserGroups(
  db: Db,
  realmId: number,
  humans: readonly { id: number; role: number }[] = activeHumanRoles(db, realmId),
): Record<string, unknown>[] {
  const groups = db
    .prepare(
      `SELECT id, name, description, is_system_group FROM user_groups
       WHERE realm_id = ? AND deactivated = 0 ORDER BY id`,
    )
    .all(realmId) as { id: number; name: string; description: string; is_system_group: number }[];
  // CROSS JOIN keeps the members the outer loop: without statistics, SQLite would walk every
  // user of the organization and look each one up among the members.
  const members = db
    .prepare(
      `SELECT m.group_id, m.user_id FROM user_group_members m CROSS JOIN users u ON u.id = m.user_id
       WHERE u.realm_id = ? AND u.is_active = 1 ORDER BY m.user_id`,
    )
    .all(realmId) as { group_id: number; user_id: number }[];
  return groups.map((g) => {
    let ids: number[];
    if (g.is_system_group) {
      const maxRole = SYSTEM_GROUP_MAX_ROLE[g.name] ?? null;
      ids = maxRole === null ? [] : humans.filter((u) => u.role <= maxRole).map((u) => u.id);
    } else {
      ids = members.filter((m) => m.group_id === g.id).map((m) => m.user_id);
    }
    return {
      id: g.id,
      name: g.name,
      description: g.description,
      members: ids,
      is_system_group: !!g.is_system_group,
    };
  });
}

/** One group as register and events show it (the same builder as the list). */
export function getUserGroup(db: Db, realmId: number, groupId: number): Record<string, unknown> | undefined {
  return listUserGroups(db, realmId).find((g) => g.id === groupId);
}

/** The user-defined groups a user is a direct member of (system groups follow roles). */
export function memberGroupIds(db: Db, userId: number): number[] {
  return selectColumn(
    db,
    `SELECT m.group_id FROM user_group_members m JOIN user_groups g ON g.id = m.group_id
     WHERE m.user_id = ? AND g.is_system_group = 0 AND g.deactivated = 0 ORDER BY m.group_id`,
    userId,
  );
}

export interface UserGroupRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  is_system_group: number;
  deactivated: number;
}

/** A group of the organization, deactivated or not. */
export function getUserGroupRow(db: Db, realmId: number, groupId: number): UserGroupRow | undefined {
  return db.prepare('SELECT * FROM user_groups WHERE id = ? AND realm_id = ?').get(groupId, realmId) as
    | UserGroupRow
    | undefined;
}

/** A user-defined group's direct members, deactivated users included. */
export function directMemberIds(db: Db, groupId: number): number[] {
  return selectColumn(
    db,
    'SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id',
    groupId,
  );
}

export function addGroupMembers(db: Db, groupId: number, userIds: readonly number[]): void {
  runForEach(
    db,
    'INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)',
    groupId,
    userIds,
  );
}

export function removeGroupMembers(db: Db, groupId: number, userIds: readonly number[]): void {
  runForEach(db, 'DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?', groupId, userIds);
}

export function setUserGroupText(
  db: Db,
  groupId: number,
  column: 'name' | 'description',
  value: string,
): void {
  // The column name comes from the fixed pair above, never from the request.
  db.prepare(`UPDATE user_groups SET ${column} = ? WHERE id = ?`).run(value, groupId);
}

export function deactivateUserGroup(db: Db, groupId: number): void {
  db.prepare('UPDATE user_groups SET deactivated = 1 WHERE id = ?').run(groupId);
}

/** Streams whose permission settings name the group (it cannot be deactivated then). */
export function streamIdsUsingGroup(db: Db, groupId: number): number[] {
  return selectColumn(
    db,
    'SELECT id FROM streams WHERE can_remove_subscribers_group_id = ? AND deactivated = 0 ORDER BY id',
    groupId,
  );
}

export function userGroupNameExists(db: Db, realmId: number, name: string): boolean {
  return (
    db.prepare('SELECT 1 FROM user_groups WHERE realm_id = ? AND name = ?').get(realmId, name) !== undefined
  );
}

export function insertPlayground(
  db: Db,
  p: { realmId: number; name: string; language: string; urlPrefix: string },
): number {
  return Number(
    db
      .prepare(
        'INSERT INTO realm_playgrounds (realm_id, name, highlighter_language, url_prefix) VALUES (?, ?, ?, ?)',
      )
      .run(p.realmId, p.name, p.language, p.urlPrefix).lastInsertRowid,
  );
}

export function listPlaygrounds(db: Db, realmId: number): Record<string, unknown>[] {
  return db
    .prepare(
      'SELECT id, name, highlighter_language, url_prefix FROM realm_playgrounds WHERE realm_id = ? ORDER BY id',
    )
    .all(realmId) as Record<string, unknown>[];
}

export function playgroundExists(db: Db, realmId: number, playgroundId: number): boolean {
  return (
    db.prepare('SELECT 1 FROM realm_playgrounds WHERE realm_id = ? AND id = ?').get(realmId, playgroundId) !==
    undefined
  );
}

export function playgroundNameTaken(db: Db, realmId: number, language: string, name: string): boolean {
  return (
    db
      .prepare('SELECT 1 FROM realm_playgrounds WHERE realm_id = ? AND highlighter_language = ? AND name = ?')
      .get(realmId, language, name) !== undefined
  );
}

export function deletePlayground(db: Db, playgroundId: number): void {
  db.prepare('DELETE FROM realm_playgrounds WHERE id = ?').run(playgroundId);
}

/** The columns of a user that the User object of lists shows (formats/users.ts formatUser). */
const ROSTER_COLUMNS = [
  'id',
  'email',
  'delivery_email',
  'full_name',
  'role',
  'is_billing_admin',
  'is_bot',
  'bot_type',
  'bot_owner_id',
  'is_active',
  'timezone',
  'date_joined_ms',
  'avatar_source',
  'avatar_version',
] as const satisfies readonly (keyof UserRow)[];

export type RosterRow = Pick<UserRow, (typeof ROSTER_COLUMNS)[number]>;

/**
 * The organization's users, bots and deactivated users included, by id, with only the columns
 * their User objects show: a user's row also holds the settings (over a kilobyte of JSON),
 * which register's list of the whole organization has no use for.
 */
export function listRoster(db: Db, realmId: number): RosterRow[] {
  return db
    .prepare(`SELECT ${ROSTER_COLUMNS.join(', ')} FROM users WHERE realm_id = ? ORDER BY id`)
    .all(realmId) as RosterRow[];
}

/** listRoster's rows of some users (the ids travel as one JSON array); others are left out. */
export function rosterRowsOf(db: Db, realmId: number, userIds: readonly number[]): RosterRow[] {
  return db
    .prepare(
      // `+realm_id` keeps SQLite from walking the organization's index: the ids are few.
      `SELECT ${ROSTER_COLUMNS.join(', ')} FROM users
       WHERE id IN (SELECT value FROM json_each(?)) AND +realm_id = ? ORDER BY id`,
    )
    .all(JSON.stringify(userIds), realmId) as RosterRow[];
}

/**
 * The writes register's kept parts (events/initial-state/shared.ts) are built from, by kind:
 * the table, the columns whose changes count (all when not given), and the column that names
 * the row to build again (an id, or the user or stream the row is about). `users` counts
 * changes of the columns some kept part reads, not of the password, the API key, the language
 * or the settings, which `user_settings` counts; `message_senders` and `message_streams` count
 * messages sent, deleted and moved, not edits of their content.
 */
const WATCHED_WRITES = {
  users: { table: 'users', columns: [...ROSTER_COLUMNS, 'realm_id'], row: 'id' },
  user_settings: { table: 'users', columns: ['settings'], updatesOnly: true, row: 'id' },
  custom_profile_fields: { table: 'custom_profile_fields', row: 'id' },
  custom_profile_field_values: { table: 'custom_profile_field_values', row: 'user_id' },
  user_groups: { table: 'user_groups', row: 'id' },
  user_group_members: { table: 'user_group_members', row: 'user_id' },
  user_status: { table: 'user_status', row: 'user_id' },
  message_senders: { table: 'messages', columns: ['realm_id', 'sender_id', 'date_sent'], row: 'sender_id' },
  message_streams: { table: 'messages', columns: ['realm_id', 'stream_id', 'date_sent'], row: 'stream_id' },
  streams: { table: 'streams', row: 'id' },
  /** Every column of a user's row: the rows authentication keeps (server/auth.ts). */
  user_rows: { table: 'users', row: 'id' },
  /** What finding a user by address reads (getUserByEmail): users added, removed, readdressed. */
  user_logins: { table: 'users', columns: ['realm_id', 'email', 'delivery_email'], row: 'id' },
  /** The organization's row (db/realm.ts keeps it). */
  realm: { table: 'realm', row: 'id' },
} as const satisfies Record<
  string,
  { table: string; columns?: readonly string[]; updatesOnly?: boolean; row: string }
>;

export type WatchedWrites = keyof typeof WATCHED_WRITES;

const WATCHED_NAMES = Object.keys(WATCHED_WRITES) as WatchedWrites[];

interface Watch {
  /** Rows written so far, by kind (WATCHED_NAMES' order). */
  counts: number[];
  /** Who wants the rows' ids, by kind. */
  listeners: ((rowId: number) => void)[][];
  dataVersion: () => number;
}

const watches = new WeakMap<Db, Watch>();

/**
 * Starts counting this connection's writes of each watched kind, with temporary triggers (the
 * connection's own, never stored in the database) that call into JavaScript with the row's
 * id, before and after an update. A write that is rolled back still counts: a count can only
 * move too often, never too little.
 */
function watch(db: Db): Watch {
  const existing = watches.get(db);
  if (existing) return existing;
  const counts = WATCHED_NAMES.map(() => 0);
  const listeners: ((rowId: number) => void)[][] = WATCHED_NAMES.map(() => []);
  db.function('confab_watched_write', { deterministic: false }, (kind, rowId) => {
    const index = kind as number;
    counts[index] = (counts[index] ?? 0) + 1;
    if (typeof rowId === 'number') for (const listener of listeners[index] ?? []) listener(rowId);
    return null;
  });
  const triggers: string[] = [];
  WATCHED_NAMES.forEach((name, index) => {
    const watched: { table: string; columns?: readonly string[]; updatesOnly?: boolean; row: string } =
      WATCHED_WRITES[name];
    const call = (row: 'NEW' | 'OLD') => `confab_watched_write(${index}, ${row}.${watched.row})`;
    const update = watched.columns ? `UPDATE OF ${watched.columns.join(', ')}` : 'UPDATE';
    const events: [string, string][] = [[update, `${call('OLD')}, ${call('NEW')}`]];
    if (!watched.updatesOnly) events.push(['INSERT', call('NEW')], ['DELETE', call('OLD')]);
    events.forEach(([event, calls], n) => {
      triggers.push(
        `CREATE TEMP TRIGGER confab_watch_${name}_${n} AFTER ${event} ON main.${watched.table}
         BEGIN SELECT ${calls}; END;`,
      );
    });
  });
  db.exec(triggers.join('\n'));
  // data_version moves when another connection commits (a command-line tool, a test's own
  // connection): those writes fire none of this connection's triggers.
  const version = db.prepare('PRAGMA data_version').pluck();
  const made = { counts, listeners, dataVersion: () => version.get() as number };
  watches.set(db, made);
  return made;
}

/**
 * A stamp of the writes of these kinds so far: equal stamps mean that no row of them changed
 * in between, through this connection or any other. Counting starts at the first call.
 */
export function writeStamp(db: Db, kinds: readonly WatchedWrites[]): string {
  const watched = watch(db);
  let stamp = String(watched.dataVersion());
  for (const kind of kinds) stamp += `:${watched.counts[WATCHED_NAMES.indexOf(kind)]}`;
  return stamp;
}

/**
 * Calls `listener` with the id named by each row of the kind this connection writes (both ids
 * of an update that changes it), from then on and while a statement runs: it must not use the
 * database. Writes of other connections call nothing; dataVersion tells of them.
 */
export function watchRows(db: Db, kind: WatchedWrites, listener: (rowId: number) => void): void {
  watch(db).listeners[WATCHED_NAMES.indexOf(kind)]?.push(listener);
}

/** SQLite's data_version: it moves when another connection commits. */
export function dataVersion(db: Db): number {
  return watch(db).dataVersion();
}

/**
 * Whether this connection's writes are watched, starting to watch them if it can: outside a
 * transaction, since the temporary triggers would go with its rollback.
 */
export function watching(db: Db): boolean {
  if (!watches.has(db) && !db.inTransaction) watch(db);
  return watches.has(db);
}

/**
 * The connection in a transaction of inKeptRead (one at a time: inside it, inKeptRead starts
 * none), with data_version once read there (or -1).
 */
const keptRead: { db: Db | null; version: number } = { db: null, version: -1 };

/**
 * Runs reads in one read transaction, as sql.ts's inOneRead, in which kept rows (the
 * organization, authenticated users) may be kept: the caller promises that nothing in it writes.
 * Inside another transaction it just runs them.
 */
export function inKeptRead<T>(db: Db, reads: () => T): T {
  if (db.inTransaction) return reads();
  // What is kept needs the writes watched: the watch starts outside the transaction.
  watching(db);
  const statements = transactionStatements(db);
  statements.begin.run();
  keptRead.db = db;
  keptRead.version = -1;
  try {
    const value = reads();
    statements.commit.run();
    return value;
  } catch (error) {
    if (db.inTransaction) statements.rollback.run();
    throw error;
  } finally {
    keptRead.db = null;
  }
}

interface Run {
  run(): unknown;
}

const transactions = new WeakMap<Db, { begin: Run; commit: Run; rollback: Run }>();

/** BEGIN, COMMIT and ROLLBACK, held: a request of inKeptRead runs them for a few reads. */
function transactionStatements(db: Db) {
  let statements = transactions.get(db);
  if (statements === undefined) {
    statements = {
      begin: db.prepare('BEGIN'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    transactions.set(db, statements);
  }
  return statements;
}

/**
 * Whether what this connection reads now has been committed, so that a copy kept past this
 * moment stays right until the next watched write: no transaction is open, or only one of
 * inKeptRead. A transaction that wrote shows its own writes, which a rollback would undo
 * without a watched write to tell (a watched write only counts, it is never uncounted).
 */
export function readsCommitted(db: Db): boolean {
  return !db.inTransaction || keptRead.db === db;
}

/**
 * dataVersion, read once in a transaction of inKeptRead (it cannot change within one): each
 * kept thing checks it, and a request may use several.
 */
export function keptReadVersion(db: Db): number {
  if (keptRead.db !== db) return dataVersion(db);
  if (keptRead.version < 0) keptRead.version = dataVersion(db);
  return keptRead.version;
}

interface KeptProfiles {
  values: Map<number, readonly ProfileValueRow[]>;
  /** data_version when they were kept: another connection's commit drops them. */
  version: number;
}

const keptProfiles = new WeakMap<Db, KeptProfiles>();

/**
 * One user's profile values (profileFieldValuesOfUsers), kept between requests: GET /users/me
 * shows them at every call, and they seldom change. A write of the user's values drops theirs,
 * a write of any field (its order, its organization) drops all. The rows are shared: no one
 * may change them.
 */
export function keptProfileValues(db: Db, realmId: number, userId: number): readonly ProfileValueRow[] {
  let kept = keptProfiles.get(db);
  if (kept === undefined) {
    if (!watching(db)) return profileFieldValuesOfUsers(db, realmId, [userId]);
    const made: KeptProfiles = { values: new Map(), version: -1 };
    watchRows(db, 'custom_profile_field_values', (id) => made.values.delete(id));
    watchRows(db, 'custom_profile_fields', () => made.values.clear());
    keptProfiles.set(db, made);
    kept = made;
  }
  const version = keptReadVersion(db);
  if (version !== kept.version) {
    kept.values.clear();
    kept.version = version;
  }
  const found = kept.values.get(userId);
  if (found !== undefined) return found;
  const rows = profileFieldValuesOfUsers(db, realmId, [userId]);
  if (readsCommitted(db)) kept.values.set(userId, Object.freeze(rows));
  return rows;
}
