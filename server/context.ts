/** What every route and action works with: the database, the event queues, the options. */
import type { Db } from './db';
import type { QueueManager } from './events/manager';
import type { RateLimits } from './ratelimit';

export interface ServiceConfig {
  heartbeatMs: number;
  queueIdleMs: number;
  longpollSeconds: number;
  /** Time budget of batched operations (mark_all_as_read, delete_topic); 0: one batch per request. */
  workBudgetSeconds: number;
  /** The data directory (the email outbox lives in it). */
  dataDir: string;
  /** The address links in emails point to; set once the server listens unless configured. */
  publicUrl: string;
  /** An SMTP relay for emails besides the outbox (server/email). */
  smtpUrl: string | null;
}

export interface ServiceContext {
  db: Db;
  /** The one organization this service hosts. */
  realmId: number;
  queues: QueueManager;
  config: ServiceConfig;
  rateLimits: RateLimits;
}
