/** What every route and action works with: the database, the event queues, the options. */
import type { Db } from './db';
import type { QueueManager } from './events/manager';

export interface ServiceConfig {
  heartbeatMs: number;
  queueIdleMs: number;
  longpollSeconds: number;
}

export interface ServiceContext {
  db: Db;
  /** The one organization this service hosts. */
  realmId: number;
  queues: QueueManager;
  config: ServiceConfig;
}
