/**
 * Topics: the list of a stream's topics the user may see (GET /users/me/{stream_id}/topics),
 * and the user's visibility policy per topic (POST /user_topics: 0 inherit, 1 muted,
 * 2 unmuted, 3 followed) with a `user_topic` event to the user's clients when it changes.
 */
import type { ServiceContext } from '../context';
import { getStream, type StreamRow } from '../db/streams';
import { setUserTopicPolicy, streamTopics, type TopicSummary, userTopicPolicy } from '../db/user-topics';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { canReadStreamHistory } from '../permissions';
import { accessStreamById } from './access';
import { normalizeTopic } from './messages';
import { runAction } from './transaction';

export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** GET /users/me/{stream_id}/topics: newest first; protected history only through own copies. */
export function listStreamTopics(ctx: ServiceContext, user: UserRow, streamId: number): TopicSummary[] {
  const stream = accessStreamById(ctx, user, streamId);
  const viaCopies = canReadStreamHistory(ctx.db, user, stream) ? null : user.id;
  return streamTopics(ctx.db, stream.id, viaCopies);
}

/**
 * The stream a policy is set on: one the user may access; removing a policy (inherit) only
 * needs the stream to exist, so a user who lost access can still clear it (as the family does).
 */
function streamForPolicy(ctx: ServiceContext, user: UserRow, streamId: number, policy: number): StreamRow {
  if (policy !== VISIBILITY_POLICY.inherit) return accessStreamById(ctx, user, streamId);
  const stream = getStream(ctx.db, streamId);
  if (!stream || stream.realm_id !== ctx.realmId) throw badRequest('Invalid stream ID');
  return stream;
}

/** POST /user_topics: no event when the policy is already the one asked for. */
export function doSetUserTopicPolicy(
  ctx: ServiceContext,
  user: UserRow,
  input: { streamId: number; topic: string; policy: number },
): void {
  const stream = streamForPolicy(ctx, user, input.streamId, input.policy);
  const topic = normalizeTopic(input.topic);
  runAction(ctx, (events) => {
    if (userTopicPolicy(ctx.db, user.id, stream.id, topic) === input.policy) return;
    const now = Math.floor(Date.now() / 1000);
    setUserTopicPolicy(ctx.db, { userId: user.id, streamId: stream.id, topic, policy: input.policy, now });
    const event = {
      type: 'user_topic',
      stream_id: stream.id,
      topic_name: topic,
      last_updated: now,
      visibility_policy: input.policy,
    };
    events.send(event, [user.id]);
  });
}
