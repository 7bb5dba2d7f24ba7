/** The drafts store of the main process: local log first, then an outbox to the server. */
export { DraftLog, draftsFileFor } from './log';
export { DraftsService, type DraftsServiceOptions } from './service';
export { DraftStores, type DraftStoresOptions } from './stores';
