import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The renderer is served from app://confab/ (Electron) and from http://127.0.0.1 (browser
// mode): relative asset URLs (`base: './'`) work under both. No React plugin is installed:
// Vite's Oxc transform compiles JSX with React's automatic runtime (set explicitly so it does
// not depend on which tsconfig Vite happens to resolve). No inline scripts or styles are
// emitted, so the strict CSP of both hosts holds.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // A CSP without 'unsafe-inline' forbids the modulepreload polyfill's inline script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Query marks its modules "use client" for server-component bundlers; a
        // client-only bundle has nothing to preserve.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
