/**
 * Numbered migrations, applied in order, each in its own transaction and recorded in
 * schema_migrations. Never edit a released migration: add the next number.
 */
import { sql as initial } from './0001_initial';
import { sql as emailChanges } from './0002_email_changes';
import { sql as directPairs } from './0003_direct_pairs';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'email_changes', sql: emailChanges },
  { version: 3, name: 'direct_pairs', sql: directPairs },
];
