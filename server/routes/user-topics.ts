/** Topics: GET /users/me/{stream_id}/topics, POST /user_topics. */
import { doSetUserTopicPolicy, listStreamTopics } from '../actions/user-topics';
import { route } from '../http';

export const userTopicEndpoints = [
  route({
    endpoint: 'GET /users/me/{stream_id}/topics',
    handle({ ctx, user, params }) {
      return { topics: listStreamTopics(ctx, user, params.stream_id) };
    },
  }),
  route({
    endpoint: 'POST /user_topics',
    handle({ ctx, user, params }) {
      doSetUserTopicPolicy(ctx, user, {
        streamId: params.stream_id,
        topic: params.topic,
        policy: params.visibility_policy,
      });
      return {};
    },
  }),
];
