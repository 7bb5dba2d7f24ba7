/**
 * The organization's people as register shows them, kept between registers (./shared.ts) and
 * brought up to date row by row: a write names the users it changed (RowChanges), and only
 * their rows are read and written as JSON again. realm_users (per kind of viewer), the system
 * groups' members, each user's last activity and user_status come from here.
 */
import type { Db } from '../../db';
import { lastActivityByUser, lastActivityOfUsers } from '../../db/activity';
import { listRoster, type RosterRow, rosterRowsOf, writeStamp } from '../../db/realm-data';
import { userStatuses } from '../../db/user-data';
import { formatListedUser, type ListView, type ProfileData, profileDataOf } from '../../formats/users';
import { keptObject, RawJson, RowChanges } from './shared';

/** One user's entry of realm_users or realm_non_active_users, for one kind of viewer. */
class ListedUser {
  readonly json: string;
  private withoutAvatar: string | undefined;

  constructor(
    readonly id: number,
    readonly active: boolean,
    private readonly user: Record<string, unknown>,
  ) {
    this.json = JSON.stringify(user);
  }

  /** The entry without avatar_url, for clients with user_avatar_url_field_optional. */
  jsonWithoutAvatar(): string {
    if (this.withoutAvatar === undefined) {
      const { avatar_url: _omitted, ...rest } = this.user;
      this.withoutAvatar = JSON.stringify(rest);
    }
    return this.withoutAvatar;
  }
}

/** Every user as JSON for one kind of viewer (ListView), and the lists last written of them. */
class ListedUsers {
  private readonly byId = new Map<number, ListedUser>();
  /** byId's entries by id; null after a change. */
  private ordered: ListedUser[] | null = null;
  private last: { omitted: string; lists: [RawJson, RawJson] } | undefined;

  constructor(readonly view: Omit<ListView, 'profileData'>) {}

  /** Lists the user's row as it is now (undefined: not a user of the organization any more). */
  set(row: RosterRow | undefined, id: number, profileData: Map<number, ProfileData>): void {
    if (row)
      this.byId.set(
        id,
        new ListedUser(id, row.is_active === 1, formatListedUser(row, { ...this.view, profileData })),
      );
    else this.byId.delete(id);
    this.ordered = null;
    this.last = undefined;
  }

  /** realm_users and realm_non_active_users, without avatar_url for the users `omit` names. */
  lists(omit: (userId: number) => boolean): [RawJson, RawJson] {
    if (this.ordered === null) this.ordered = [...this.byId.values()].sort((a, b) => a.id - b.id);
    const omitted = this.ordered.filter((u) => omit(u.id)).map((u) => u.id);
    // Most registers leave out the same users: the lists written last serve them again.
    const key = omitted.join(',');
    if (this.last?.omitted === key) return this.last.lists;
    const leftOut = new Set(omitted);
    const active: string[] = [];
    const inactive: string[] = [];
    for (const listed of this.ordered) {
      const json = leftOut.has(listed.id) ? listed.jsonWithoutAvatar() : listed.json;
      (listed.active ? active : inactive).push(json);
    }
    const lists: [RawJson, RawJson] = [
      new RawJson(`[${active.join(',')}]`),
      new RawJson(`[${inactive.join(',')}]`),
    ];
    this.last = { omitted: key, lists };
    return lists;
  }
}

/** Reads only the changed users again when a write names at most this many. */
const MAX_CHANGED_USERS = 2000;

/** The organization's users (the columns their User objects show) and profile data. */
class Roster {
  private readonly changes: RowChanges;
  /** Changes of the fields themselves (a field removed, a type changed): everything is read again. */
  private fieldsStamp = '';
  private rows = new Map<number, RosterRow>();
  private profileData = new Map<number, ProfileData>();
  private readonly views = new Map<string, ListedUsers>();
  private humans: { id: number; role: number }[] | null = null;

  constructor(
    private readonly db: Db,
    private readonly realmId: number,
  ) {
    this.changes = new RowChanges(db, ['users', 'custom_profile_field_values'], MAX_CHANGED_USERS);
  }

  /** Reads what changed since the last call. */
  private refresh(): void {
    let changed = this.changes.take();
    const fieldsStamp = writeStamp(this.db, ['custom_profile_fields']);
    if (fieldsStamp !== this.fieldsStamp) {
      this.fieldsStamp = fieldsStamp;
      changed = null;
    }
    if (changed === null) {
      this.rows = new Map(listRoster(this.db, this.realmId).map((row) => [row.id, row]));
      this.profileData = profileDataOf(this.db, this.realmId);
      this.views.clear();
      this.humans = null;
      return;
    }
    if (changed.size === 0) return;
    const ids = [...changed];
    const rows = new Map(rosterRowsOf(this.db, this.realmId, ids).map((row) => [row.id, row]));
    const profileData = profileDataOf(this.db, this.realmId, ids);
    for (const id of ids) {
      const row = rows.get(id);
      const data = profileData.get(id);
      if (row) this.rows.set(id, row);
      else this.rows.delete(id);
      if (data) this.profileData.set(id, data);
      else this.profileData.delete(id);
      for (const view of this.views.values()) view.set(row, id, this.profileData);
    }
    this.humans = null;
  }

  /** Every user as JSON for this kind of viewer. */
  listed(view: Omit<ListView, 'profileData'>): ListedUsers {
    this.refresh();
    const key = `${view.deliveryEmail}:${view.clientExtavatar}`;
    let listed = this.views.get(key);
    if (!listed) {
      listed = new ListedUsers(view);
      for (const [id, row] of this.rows) listed.set(row, id, this.profileData);
      this.views.set(key, listed);
    }
    return listed;
  }

  /** The active humans by id with their roles (db/realm-data.ts activeHumanRoles). */
  activeHumanRoles(): readonly { id: number; role: number }[] {
    this.refresh();
    if (this.humans === null) {
      this.humans = [...this.rows.values()]
        .filter((row) => row.is_active === 1 && row.is_bot === 0)
        .sort((a, b) => a.id - b.id)
        .map((row) => ({ id: row.id, role: row.role }));
    }
    return this.humans;
  }
}

export function roster(db: Db, realmId: number): Roster {
  return keptObject(db, `roster:${realmId}`, () => new Roster(db, realmId));
}

/** Each user's latest activity (db/activity.ts lastActivityByUser), kept as the roster is. */
class LastActivity {
  private readonly changes: RowChanges;
  private seconds = new Map<number, number>();

  constructor(
    private readonly db: Db,
    private readonly realmId: number,
  ) {
    this.changes = new RowChanges(db, ['users', 'message_senders'], MAX_CHANGED_USERS);
  }

  current(): ReadonlyMap<number, number> {
    const changed = this.changes.take();
    if (changed === null) {
      this.seconds = lastActivityByUser(this.db, this.realmId);
    } else if (changed.size > 0) {
      const ids = [...changed];
      const fresh = lastActivityOfUsers(this.db, this.realmId, ids);
      for (const id of ids) {
        const seconds = fresh.get(id);
        if (seconds === undefined) this.seconds.delete(id);
        else this.seconds.set(id, seconds);
      }
    }
    return this.seconds;
  }
}

export function lastActivity(db: Db, realmId: number): ReadonlyMap<number, number> {
  return keptObject(db, `last_activity:${realmId}`, () => new LastActivity(db, realmId)).current();
}

/** register's user_status (db/user-data.ts userStatuses), kept as the roster is. */
class Statuses {
  private readonly changes: RowChanges;
  private statuses: Record<string, Record<string, unknown>> = {};
  private json: RawJson | null = null;

  constructor(
    private readonly db: Db,
    private readonly realmId: number,
  ) {
    this.changes = new RowChanges(db, ['users', 'user_settings', 'user_status'], MAX_CHANGED_USERS);
  }

  current(): RawJson {
    const changed = this.changes.take();
    if (changed === null) {
      this.statuses = userStatuses(this.db, this.realmId);
      this.json = null;
    } else if (changed.size > 0) {
      const ids = [...changed];
      const fresh = userStatuses(this.db, this.realmId, ids);
      for (const id of ids) {
        // Keys that are integers keep ascending order, however they were added.
        const status = fresh[String(id)];
        if (status === undefined) delete this.statuses[String(id)];
        else this.statuses[String(id)] = status;
      }
      this.json = null;
    }
    if (this.json === null) this.json = new RawJson(JSON.stringify(this.statuses));
    return this.json;
  }
}

export function statuses(db: Db, realmId: number): RawJson {
  return keptObject(db, `user_status:${realmId}`, () => new Statuses(db, realmId)).current();
}
