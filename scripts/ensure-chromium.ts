/**
 * `npm run test:e2e` runs this first: it finds a Chromium for Playwright or installs one
 * (see chromium.ts), and exits 1 with one line naming what to install when it cannot.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ChromiumPathError,
  defaultInstallSteps,
  ensureChromium,
  findChromium,
  playwrightChromium,
} from './chromium';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  const found = await ensureChromium({
    find: async () => findChromium(process.env, await playwrightChromium()),
    steps: defaultInstallSteps(repoRoot),
    log: (line) => console.error(line),
  });
  if (!found) process.exit(1);
  console.log(`end-to-end tests use ${found.path} (${found.source})`);
} catch (error) {
  if (!(error instanceof ChromiumPathError)) throw error;
  console.error(error.message);
  process.exit(1);
}
