/** Topics: GET /users/me/{stream_id}/topics, POST /user_topics. */
import { doSetUserTopicPolicy, listStreamTopics } from '../actions/user-topics';
import { actionRoute, fieldRoute } from './shapes';

export const userTopicEndpoints = [
  fieldRoute('GET /users/me/{stream_id}/topics', 'topics', ({ ctx, user, params }) =>
    listStreamTopics(ctx, user, params.stream_id),
  ),
  actionRoute('POST /user_topics', ({ ctx, user, params }) =>
    doSetUserTopicPolicy(ctx, user, {
      streamId: params.stream_id,
      topic: params.topic,
      policy: params.visibility_policy,
    }),
  ),
];
