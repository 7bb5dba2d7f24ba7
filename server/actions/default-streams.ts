/**
 * Default streams, the streams new users are subscribed to (the interface family's
 * DefaultStream): adding and removing one (administrators; the router checks the role), and
 * the `default_streams` event every change sends to the organization's non-guest users, who
 * are the ones register gives realm_default_streams.
 */
import type { ServiceContext } from '../context';
import { setStreamDefault } from '../db/streams';
import { listUsers, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { defaultStreamObjects } from '../formats/streams';
import { isGuest } from '../permissions';
import { accessStreamById } from './access';
import { type EventBatch, runAction } from './transaction';

/** Active users who see the default streams: everyone but guests. */
function defaultStreamViewerIds(ctx: ServiceContext): number[] {
  return listUsers(ctx.db, ctx.realmId)
    .filter((u) => u.is_active === 1 && !isGuest(u))
    .map((u) => u.id);
}

/** Queues the organization's current default streams for everyone who sees them. */
export function sendDefaultStreams(ctx: ServiceContext, events: EventBatch): void {
  events.send(
    { type: 'default_streams', default_streams: defaultStreamObjects(ctx.db, ctx.realmId) },
    defaultStreamViewerIds(ctx),
  );
}

/** POST /default_streams: a stream the administrator can access; never a private one. */
export function doAddDefaultStream(ctx: ServiceContext, user: UserRow, streamId: number): void {
  runAction(ctx, (events) => {
    const stream = accessStreamById(ctx, user, streamId);
    if (stream.invite_only === 1) throw badRequest('Private streams cannot be made default.');
    // Already a default stream: nothing changes and nothing is sent, as in the family.
    if (stream.is_default === 1) return;
    setStreamDefault(ctx.db, stream.id, true);
    sendDefaultStreams(ctx, events);
  });
}

/** DELETE /default_streams: any stream the administrator can see. */
export function doRemoveDefaultStream(ctx: ServiceContext, user: UserRow, streamId: number): void {
  runAction(ctx, (events) => {
    const stream = accessStreamById(ctx, user, streamId, { allowRealmAdmin: true });
    setStreamDefault(ctx.db, stream.id, false);
    sendDefaultStreams(ctx, events);
  });
}
