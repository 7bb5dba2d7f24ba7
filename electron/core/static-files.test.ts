/** The static-file rules shared by browser mode and app://: safe paths under the renderer, content types. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeFor, staticPathFor } from './static-files';

const root = path.resolve('/srv/renderer');

describe('staticPathFor', () => {
  it('maps paths under the root, and / to index.html', () => {
    expect(staticPathFor(root, '/')).toBe(path.join(root, 'index.html'));
    expect(staticPathFor(root, '/index.html')).toBe(path.join(root, 'index.html'));
    expect(staticPathFor(root, '/assets/app-1a2b.js')).toBe(path.join(root, 'assets', 'app-1a2b.js'));
    expect(staticPathFor(root, '/assets/a%20b.png')).toBe(path.join(root, 'assets', 'a b.png'));
  });

  it.each([
    '/..',
    '/../x',
    '/assets/../../x',
    '/%2e%2e/x',
    '/assets/..%2F..%2Fx',
    '/..%5Cx',
    '/a\\b',
    '/%00',
    '/.git/config',
    '/assets/.hidden',
    '/%E0%A4%A',
    'relative',
  ])('refuses %s', (pathname) => {
    expect(staticPathFor(root, pathname)).toBeNull();
  });
});

describe('contentTypeFor', () => {
  it("knows the renderer build's file types and falls back to octet-stream", () => {
    expect(contentTypeFor('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('/x/a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/a.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('/x/a.woff2')).toBe('font/woff2');
    expect(contentTypeFor('/x/a.png')).toBe('image/png');
    expect(contentTypeFor('/x/a.bin')).toBe('application/octet-stream');
    expect(contentTypeFor('/x/noext')).toBe('application/octet-stream');
  });
});
