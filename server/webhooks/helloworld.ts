/** The example integration of the spec: a greeting and today's featured Wikipedia article. */
import type { Integration } from './types';

export const helloworld: Integration = {
  name: 'helloworld',
  displayName: 'HelloWorld',
  handle({ payload }) {
    const title = payload.get('featured_title').string();
    const url = payload.get('featured_url').string();
    return {
      topic: 'Hello World',
      content: `Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[${title}](${url})**`,
    };
  },
};
