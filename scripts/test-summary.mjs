// Sums the test runners' JSON reports into the closing line CI reads: "N passed, N failed".
// Usage: node scripts/test-summary.mjs <exit status of npm test>
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 0);
const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null);

let passed = 0;
let failed = 0;
const lines = [];

const vitest = read('.reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  lines.push(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`);
} else {
  lines.push('vitest: did not run');
}

const playwright = read('.reports/playwright.json');
if (playwright) {
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = playwright.stats ?? {};
  passed += expected;
  // A flaky test failed at least once: it is not a pass.
  failed += unexpected + flaky;
  lines.push(`playwright: ${expected} passed, ${unexpected + flaky} failed, ${skipped} skipped`);
} else {
  lines.push('playwright: did not run');
}

if (status !== 0 && failed === 0) {
  // typecheck or lint failed before a runner reported anything.
  lines.push('npm test failed outside the test runners (typecheck or lint): counted as one failure');
  failed += 1;
}

for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
