/**
 * Every route of the service, by area, with the catalogue it serves: the REST API's
 * (shared/protocol ENDPOINTS) and the pages outside /api/v1 (PAGES).
 */
import { API_PREFIX, ENDPOINTS, PAGES } from '../../shared/protocol';
import type { RouteTable } from '../http';
import { authEndpoints } from './auth';
import { draftEndpoints } from './drafts';
import { eventEndpoints } from './events';
import { messageEndpoints } from './messages';
import { playgroundEndpoints } from './playgrounds';
import { profileFieldEndpoints } from './profile-fields';
import { readEndpoints } from './read';
import { realmDefaultsEndpoints } from './realm-defaults';
import { registerEndpoints } from './register';
import { accountPageEndpoints, settingsEndpoints } from './settings';
import { statusEndpoints } from './status';
import { streamEndpoints } from './streams';
import { subscriptionEndpoints } from './subscriptions';
import { userGroupEndpoints } from './user-groups';
import { avatarEndpoints, userEndpoints } from './users';
import { webhookEndpoints } from './webhooks';
// imports: edges (issue 8)
// imports: messages (issue 8)
// imports: flags-reactions-scheduled (issue 8)
// imports: presence-typing-topics (issue 8)
// imports: streams (issue 8)
// imports: users-groups-fields (issue 8)
// imports: realm-uploads (issue 8)

export const apiEndpoints = [
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
  // ---- edges (issue 8) ----
  // ---- end edges ----
  // ---- messages (issue 8) ----
  // ---- end messages ----
  // ---- flags-reactions-scheduled (issue 8) ----
  // ---- end flags-reactions-scheduled ----
  // ---- presence-typing-topics (issue 8) ----
  // ---- end presence-typing-topics ----
  // ---- streams (issue 8) ----
  // ---- end streams ----
  // ---- users-groups-fields (issue 8) ----
  // ---- end users-groups-fields ----
  // ---- realm-uploads (issue 8) ----
  // ---- end realm-uploads ----
];

export const pageEndpoints = [...avatarEndpoints, ...accountPageEndpoints];

export const apiRoutes: RouteTable = { catalogue: ENDPOINTS, prefix: API_PREFIX, routes: apiEndpoints };
export const pageRoutes: RouteTable = { catalogue: PAGES, prefix: '', routes: pageEndpoints };
