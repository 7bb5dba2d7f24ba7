/**
 * Every route of the service, by area, with the catalogue it serves: the REST API's
 * (shared/protocol ENDPOINTS) and the pages outside /api/v1 (PAGES).
 */
import { API_PREFIX, ENDPOINTS, PAGES } from '../../shared/protocol';
import type { RouteTable } from '../http';
// imports: presence-typing-topics (issue 8)
import { alertWordEndpoints } from './alert-words';
import { authEndpoints } from './auth';
// imports: streams (issue 8)
import { defaultStreamEndpoints } from './default-streams';
import { draftEndpoints } from './drafts';
import { eventEndpoints } from './events';
// imports: flags-reactions-scheduled (issue 8)
import { flagEndpoints } from './flags';
// imports: realm-uploads (issue 8)
import { linkifierEndpoints } from './linkifiers';
// imports: edges (issue 8)
// imports: messages (issue 8)
import { messageEditEndpoints } from './message-edit';
import { messageEndpoints } from './messages';
import { mutedUserEndpoints } from './muted-users';
import { playgroundEndpoints } from './playgrounds';
import { presenceEndpoints } from './presence';
// imports: users-groups-fields (issue 8)
import { profileFieldEditEndpoints, profileFieldEndpoints } from './profile-fields';
import { reactionEndpoints } from './reactions';
import { readEndpoints } from './read';
import { realmEndpoints } from './realm';
import { realmDefaultsEndpoints } from './realm-defaults';
import { realmEmojiEndpoints, realmEmojiPageEndpoints } from './realm-emoji';
import { registerEndpoints } from './register';
import { scheduledMessageEndpoints } from './scheduled-messages';
import { accountPageEndpoints, settingsEndpoints } from './settings';
import { statusEndpoints } from './status';
import { streamBeyondSpecEndpoints, streamEndpoints } from './streams';
import { subscriptionEndpoints, subscriptionStatusEndpoints } from './subscriptions';
import { typingEndpoints } from './typing';
import { uploadEndpoints, uploadPageEndpoints } from './uploads';
import { userGroupEditEndpoints, userGroupEndpoints } from './user-groups';
import { userTopicEndpoints } from './user-topics';
import {
  avatarEndpoints,
  botEndpoints,
  userAdminEndpoints,
  userEndpoints,
  userStatusEndpoints,
} from './users';
import { webhookEndpoints } from './webhooks';

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
  ...messageEditEndpoints,
  // ---- end messages ----
  // ---- flags-reactions-scheduled (issue 8) ----
  ...flagEndpoints,
  ...reactionEndpoints,
  ...scheduledMessageEndpoints,
  // ---- end flags-reactions-scheduled ----
  // ---- presence-typing-topics (issue 8) ----
  ...typingEndpoints,
  ...presenceEndpoints,
  ...userTopicEndpoints,
  ...alertWordEndpoints,
  ...mutedUserEndpoints,
  // ---- end presence-typing-topics ----
  // ---- streams (issue 8) ----
  ...streamBeyondSpecEndpoints,
  ...subscriptionStatusEndpoints,
  ...defaultStreamEndpoints,
  // ---- end streams ----
  // ---- users-groups-fields (issue 8) ----
  ...userAdminEndpoints,
  ...botEndpoints,
  ...userStatusEndpoints,
  ...userGroupEditEndpoints,
  ...profileFieldEditEndpoints,
  // ---- end users-groups-fields ----
  // ---- realm-uploads (issue 8) ----
  ...realmEndpoints,
  ...linkifierEndpoints,
  ...uploadEndpoints,
  ...realmEmojiEndpoints,
  // ---- end realm-uploads ----
];

export const pageEndpoints = [
  ...avatarEndpoints,
  ...accountPageEndpoints,
  ...uploadPageEndpoints,
  ...realmEmojiPageEndpoints,
];

export const apiRoutes: RouteTable = { catalogue: ENDPOINTS, prefix: API_PREFIX, routes: apiEndpoints };
export const pageRoutes: RouteTable = { catalogue: PAGES, prefix: '', routes: pageEndpoints };
