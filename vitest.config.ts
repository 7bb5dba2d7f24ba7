import { defineConfig } from 'vitest/config';

// Unit and integration tests: every `*.test.ts` outside e2e/. Integration tests start the
// real server on 127.0.0.1 with a temporary data directory (see test/support).
export default defineConfig({
  test: {
    include: ['{shared,server,electron,renderer,test,bench,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'e2e/**', 'dist/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
  },
});
