import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownExcerpt } from './markdown';

const html = (source: string) => renderToStaticMarkup(<MarkdownExcerpt source={source} />);

describe('markdown excerpt', () => {
  it('renders emphasis, code and lists', () => {
    expect(html('Ship **now**, _maybe_ `later`')).toBe(
      '<div><p>Ship <strong>now</strong>, <em>maybe</em> <code>later</code></p></div>',
    );
    expect(html('- one\n- two')).toBe('<div><ul><li>one</li><li>two</li></ul></div>');
    expect(html('```\nlet x = 1;\n```')).toBe('<div><pre><code>let x = 1;\n</code></pre></div>');
  });

  it('never passes raw HTML through', () => {
    const out = html('<img src=x onerror=alert(1)> <b>bold</b>\n\n<script>alert(1)</script>');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
    expect(out).not.toContain('<script');
    expect(out).toContain('&lt;script&gt;');
  });

  it('shows links as text with their address, bare ones too, and no javascript: links', () => {
    expect(html('[docs](https://example.com/a)')).toBe(
      '<div><p><span class="md-link" title="https://example.com/a">docs</span></p></div>',
    );
    expect(html('see https://example.com')).toContain('title="https://example.com"');
    expect(html('[x](javascript:alert(1))')).not.toContain('md-link');
    expect(html('![a cat](https://example.com/cat.png)')).toBe(
      '<div><p><span class="md-image">a cat</span></p></div>',
    );
  });

  it('keeps headings as bold paragraphs and line breaks', () => {
    expect(html('# Title\nline one\nline two')).toBe(
      '<div><p class="md-heading"><strong>Title</strong></p><p>line one<br/>line two</p></div>',
    );
  });

  it('cuts long sources', () => {
    expect(html('a'.repeat(5000)).length).toBeLessThan(2100);
  });
});
