/** Every endpoint of the service, by area. */
import type { Endpoint } from '../http';
import { authEndpoints } from './auth';
import { draftEndpoints } from './drafts';
import { eventEndpoints } from './events';
import { messageEndpoints } from './messages';
import { playgroundEndpoints } from './playgrounds';
import { profileFieldEndpoints } from './profile-fields';
import { readEndpoints } from './read';
import { realmDefaultsEndpoints } from './realm-defaults';
import { registerEndpoints } from './register';
import { settingsEndpoints } from './settings';
import { statusEndpoints } from './status';
import { streamEndpoints } from './streams';
import { subscriptionEndpoints } from './subscriptions';
import { userGroupEndpoints } from './user-groups';
import { userEndpoints } from './users';
import { webhookEndpoints } from './webhooks';

export { accountPageEndpoints } from './settings';
export { avatarEndpoints } from './users';

export const apiEndpoints: readonly Endpoint[] = [
  ...authEndpoints,
  ...userEndpoints,
  ...statusEndpoints,
  ...profileFieldEndpoints,
  ...registerEndpoints,
  ...eventEndpoints,
  ...settingsEndpoints,
  ...realmDefaultsEndpoints,
  ...streamEndpoints,
  ...subscriptionEndpoints,
  ...draftEndpoints,
  ...userGroupEndpoints,
  ...playgroundEndpoints,
  ...webhookEndpoints,
  ...messageEndpoints,
  ...readEndpoints,
];
