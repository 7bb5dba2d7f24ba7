/**
 * Numbered migrations, applied in order, each in its own transaction and recorded in
 * schema_migrations. Never edit a released migration: add the next number.
 */
import { sql as initial } from './0001_initial';
import { sql as emailChanges } from './0002_email_changes';
import { sql as directPairs } from './0003_direct_pairs';
import { sql as scheduledMessages } from './0004_scheduled_messages';
import { sql as presenceMutedUsers } from './0005_presence_muted_users';
import { sql as userGroupDeactivation } from './0006_user_group_deactivation';
import { sql as realmUploads } from './0007_realm_uploads';
import { sql as messagesBySender } from './0008_messages_by_sender';
import { sql as messagesByStreamDate } from './0009_messages_by_stream_date';
import { sql as usersByRealmRole } from './0010_users_by_realm_role';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'email_changes', sql: emailChanges },
  { version: 3, name: 'direct_pairs', sql: directPairs },
  { version: 4, name: 'scheduled_messages', sql: scheduledMessages },
  { version: 5, name: 'presence_muted_users', sql: presenceMutedUsers },
  { version: 6, name: 'user_group_deactivation', sql: userGroupDeactivation },
  { version: 7, name: 'realm_uploads', sql: realmUploads },
  { version: 8, name: 'messages_by_sender', sql: messagesBySender },
  { version: 9, name: 'messages_by_stream_date', sql: messagesByStreamDate },
  { version: 10, name: 'users_by_realm_role', sql: usersByRealmRole },
];
