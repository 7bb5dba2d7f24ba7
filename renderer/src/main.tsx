/**
 * The renderer's entry: one bridge to the main process, the stores kept in step with it
 * (stores/sync), one TanStack Query client for request/response data (queries/), and the
 * app's frame (features/shell).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getBridge, onBridgeLink } from './bridge';
import { App } from './features/shell/App';
import { followDraftPushes } from './queries/drafts';
import { SyncProvider } from './stores/hooks';
import { createSync } from './stores/sync';
import './styles.css';

const bridge = getBridge();
const sync = createSync(bridge);
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 2, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
followDraftPushes(queryClient, bridge);

// Pushes sent while the bridge was down are lost: read everything again when it is back.
onBridgeLink((up) => {
  if (up) {
    void sync.resync();
    void queryClient.invalidateQueries();
  }
});
void sync.resync();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SyncProvider sync={sync}>
        <App />
      </SyncProvider>
    </QueryClientProvider>
  </StrictMode>,
);
