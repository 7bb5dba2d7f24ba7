/**
 * Presence (POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence):
 * reports go to the presence store (server/presence.ts); a first report, or coming back
 * active after being offline, sends a `presence` event (legacy form) to everyone in the
 * organization. Turning presence_enabled off replaces the user's presence with an old idle
 * report and tells everyone at once (they show offline from then on, and their reports are
 * not recorded); turning it on again reports them active, also at once, as the family does.
 */
import type { ServiceContext } from '../context';
import { activeUserIds, getUserByDisplayEmail, readUserSettings, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { legacyClientPresence, legacyPresence, presencesFor } from '../formats/presence';
import {
  OFFLINE_THRESHOLD_SECONDS,
  type PresenceRecord,
  type PresenceStatus,
  presenceStore,
} from '../presence';
import { accessUserById, noSuchUser } from './access';
import { type EventBatch, runAction } from './transaction';

export interface PresenceReport {
  status: string;
  /** The family feeds its usage statistics with it; we keep none (decoded, so checked, all the same). */
  newUserInput: boolean;
  pingOnly: boolean;
  slimPresence: boolean;
  lastUpdateId: number | undefined;
  historyLimitDays: number | undefined;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function checkStatus(status: string): PresenceStatus {
  if (status !== 'active' && status !== 'idle') throw badRequest(`Invalid status: ${status}`);
  return status;
}

/** The `presence` event of a user's new presence, to everyone in the organization. */
function sendPresenceEvent(
  ctx: ServiceContext,
  events: EventBatch,
  user: UserRow,
  record: PresenceRecord,
): void {
  const event = {
    type: 'presence',
    user_id: user.id,
    email: user.email,
    server_timestamp: Date.now() / 1000,
    presence: { website: legacyClientPresence(record) },
  };
  events.send(event, activeUserIds(ctx.db, ctx.realmId));
}

/** Records a report of a user who shares presence, and tells everyone when it is news. */
function recordPresence(ctx: ServiceContext, user: UserRow, status: PresenceStatus): void {
  if (!readUserSettings(user).presence_enabled) return;
  runAction(ctx, (events) => {
    const change = presenceStore(ctx.db, ctx.realmId).report(user.id, status, nowSeconds());
    if (change.notify) sendPresenceEvent(ctx, events, user, change.record);
  });
}

/**
 * presence_enabled changed (PATCH /settings, or `away` in POST /users/me/status): off, the
 * user's presence becomes an idle report from before the offline threshold; on, an active
 * report now. Either way everyone learns it at once, whatever the report rules would say.
 */
export function presenceEnabledChanged(
  ctx: ServiceContext,
  events: EventBatch,
  user: UserRow,
  enabled: boolean,
): void {
  const store = presenceStore(ctx.db, ctx.realmId);
  const now = nowSeconds();
  const record = enabled ? store.report(user.id, 'active', now).record : store.hide(user.id, now);
  sendPresenceEvent(ctx, events, user, record);
}

/** POST /users/me/presence: records the report; answers everyone's presence unless ping_only. */
export function doUpdatePresence(
  ctx: ServiceContext,
  user: UserRow,
  report: PresenceReport,
): Record<string, unknown> {
  recordPresence(ctx, user, checkStatus(report.status));
  if (report.pingOnly) return {};
  const { presences, presence_last_update_id } = presencesFor(ctx.db, ctx.realmId, {
    slim: report.slimPresence,
    lastUpdateId: report.lastUpdateId,
    historyLimitDays: report.historyLimitDays,
    now: nowSeconds(),
  });
  return { presences, server_timestamp: Date.now() / 1000, presence_last_update_id };
}

/** GET /realm/presence: everyone's presence in the legacy form. */
export function realmPresence(ctx: ServiceContext): Record<string, unknown> {
  const { presences } = presencesFor(ctx.db, ctx.realmId, { slim: false, now: nowSeconds() });
  return { presences, server_timestamp: Date.now() / 1000 };
}

/** The active user named by an id or a display email, or "No such user". */
function userByIdOrEmail(ctx: ServiceContext, userIdOrEmail: string): UserRow {
  if (/^\d+$/.test(userIdOrEmail)) return accessUserById(ctx, Number(userIdOrEmail));
  const user = getUserByDisplayEmail(ctx.db, ctx.realmId, userIdOrEmail);
  if (user?.is_active !== 1) throw noSuchUser();
  return user;
}

/**
 * GET /users/{user_id_or_email}/presence: `website` and `aggregated` with status and
 * timestamp; aggregated says `offline` once the newest report is older than the threshold.
 */
export function userPresence(ctx: ServiceContext, userIdOrEmail: string): Record<string, unknown> {
  const target = userByIdOrEmail(ctx, userIdOrEmail);
  if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
  // A user with presence_enabled off has the old idle report the change left: offline.
  const record = presenceStore(ctx.db, ctx.realmId).get(target.id);
  if (!record) throw badRequest(`No presence data for ${userIdOrEmail}`);
  const { website, aggregated } = legacyPresence(record);
  const offline = nowSeconds() - aggregated.timestamp > OFFLINE_THRESHOLD_SECONDS;
  return {
    presence: {
      website: { status: website.status, timestamp: website.timestamp },
      aggregated: { status: offline ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
    },
  };
}
