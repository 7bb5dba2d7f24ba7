/** Every incoming-webhook integration, by URL name. Adding one is one file plus one line here. */
import { helloworld } from './helloworld';
import type { Integration } from './types';

export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map(
  [helloworld].map((integration) => [integration.name, integration]),
);
