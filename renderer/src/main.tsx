import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge, onBridgeLink } from './bridge';
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
