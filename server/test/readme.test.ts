/**
 * The README's "Beyond the spec" table names every endpoint the catalogue takes from the
 * interface family, and nothing else: a new family endpoint without its row fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, endpointName, PAGES } from '../../shared/protocol';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The `METHOD /path` code spans of the README's "Beyond the spec" section. */
function namedInReadme(): string[] {
  const start = README.indexOf('## Beyond the spec');
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/`((?:GET|POST|PATCH|PUT|DELETE) \/[^`]*)`/g)].map((m) => m[1] as string);
}

describe('README: Beyond the spec', () => {
  it('lists exactly the catalogue entries taken from the interface family', () => {
    const family = [...ENDPOINTS, ...PAGES].filter((e) => e.source === 'family').map(endpointName);
    expect(namedInReadme().length).toBeGreaterThan(0);
    expect([...new Set(namedInReadme())].sort()).toEqual([...new Set(family)].sort());
  });

  it('states the feature level the server reports', async () => {
    const { SERVICE_FEATURE_LEVEL } = await import('../version');
    expect(README).toContain(`It reports **feature level ${SERVICE_FEATURE_LEVEL}**`);
  });
});
