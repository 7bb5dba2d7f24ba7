/** Markdown rendering (markdown-it + sanitize-html): formatting, and nothing executable gets through. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MentionTarget, renderMarkdown, renderMessage } from '../markdown';
import { authOf, call, startTestService, type TestService } from './support/service';

describe('renderMarkdown', () => {
  it.each([
    ['a paragraph', 'Software engineer', '<p>Software engineer</p>'],
    [
      'emphasis',
      '**bold** and *italic* and ~~gone~~',
      '<p><strong>bold</strong> and <em>italic</em> and <s>gone</s></p>',
    ],
    ['line breaks', 'one\ntwo', '<p>one<br />\ntwo</p>'],
    ['inline code', 'run `rm -rf <dir>`', '<p>run <code>rm -rf &lt;dir&gt;</code></p>'],
    [
      'fenced code',
      '```js\nlet a = 1 < 2;\n```',
      '<pre><code class="language-js">let a = 1 &lt; 2;\n</code></pre>',
    ],
    [
      'links open outside, without referrer',
      '[docs](https://example.com/a?b=1&c=2)',
      '<p><a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">docs</a></p>',
    ],
    [
      'bare URLs are linked',
      'see https://example.com now',
      '<p>see <a href="https://example.com" target="_blank" rel="noopener noreferrer">https://example.com</a> now</p>',
    ],
    ['lists', '- a\n- b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
    ['quotes', '> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
  ])('%s', (_name, source, html) => {
    expect(renderMarkdown(source)).toBe(html);
  });

  it.each([
    ['script tags are text', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['raw HTML is escaped', '<b onclick="x()">hi</b>', '<p>&lt;b onclick="x()"&gt;hi&lt;/b&gt;</p>'],
    ['event handler attributes', '<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
    [
      'javascript: links are not links',
      '[click](javascript:alert(1))',
      '<p>[click](javascript:alert(1))</p>',
    ],
    [
      'data: links are not links',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>',
    ],
    ['vbscript: links are not links', '[x](vbscript:msgbox)', '<p>[x](vbscript:msgbox)</p>'],
    [
      'an iframe',
      '<iframe src="https://evil.example"></iframe>',
      '<p>&lt;iframe src="<a href="https://evil.example" target="_blank" rel="noopener noreferrer">https://evil.example</a>"&gt;&lt;/iframe&gt;</p>',
    ],
  ])('XSS: %s', (_name, source, html) => {
    const out = renderMarkdown(source);
    expect(out).toBe(html);
    // No real tag but the allowed ones, and no event-handler attribute inside any tag.
    expect(out).not.toMatch(
      /<(script|img|iframe)|<[a-z]+\s[^>]*\son\w+="|href="(javascript|data|vbscript):/i,
    );
  });

  it('a link title cannot break out of its attribute', () => {
    const out = renderMarkdown('[a](https://x.example "t\\" onmouseover=\\"alert(1)")');
    expect(out).toBe(
      '<p><a href="https://x.example" title="t&quot; onmouseover=&quot;alert(1)" target="_blank" rel="noopener noreferrer">a</a></p>',
    );
  });
});

describe('renderMessage mentions', () => {
  const people: Record<string, MentionTarget> = {
    'bob smith': { userId: 5, fullName: 'Bob Smith' },
    evil: { userId: 9, fullName: '<img src=x onerror=alert(1)>' },
  };
  const lookup = (name: string): MentionTarget =>
    name === 'all' ? 'wildcard' : (people[name.toLowerCase()] ?? null);

  it('renders user, silent and wildcard mentions and reports who was mentioned', () => {
    const r = renderMessage('hi @**Bob Smith**, @_**Bob Smith** and @**all**; not @**Nobody**', lookup);
    expect(r.html).toBe(
      '<p>hi <span class="user-mention" data-user-id="5">@Bob Smith</span>, ' +
        '<span class="user-mention silent" data-user-id="5">Bob Smith</span> and ' +
        '<span class="user-mention" data-user-id="*">@all</span>; not @<strong>Nobody</strong></p>',
    );
    expect([...r.mentionedUserIds]).toEqual([5]);
    expect(r.wildcard).toBe(true);
  });

  it('a silent mention mentions nobody; names are escaped', () => {
    const silent = renderMessage('@_**Bob Smith**', lookup);
    expect([...silent.mentionedUserIds]).toEqual([]);
    expect(silent.wildcard).toBe(false);
    expect(renderMessage('@**evil**', lookup).html).toBe(
      '<p><span class="user-mention" data-user-id="9">@&lt;img src=x onerror=alert(1)&gt;</span></p>',
    );
  });

  it('without a lookup (descriptions, profile fields) mentions stay plain Markdown', () => {
    expect(renderMarkdown('@**Bob Smith**')).toBe('<p>@<strong>Bob Smith</strong></p>');
  });

  it('draws ```quote as a quotation of Markdown, and ```spoiler collapsed under its header', () => {
    expect(renderMarkdown('```quote\nsaid **this**\n```')).toBe(
      '<blockquote>\n<p>said <strong>this</strong></p>\n</blockquote>',
    );
    expect(renderMarkdown('```spoiler The *end*\nThey win\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header"><p>The <em>end</em></p>\n</div><div class="spoiler-content" aria-hidden="true"><p>They win</p>\n</div></div>',
    );
    expect(renderMarkdown('```spoiler\nx\n```')).toBe(
      '<div class="spoiler-block"><div class="spoiler-header"></div><div class="spoiler-content" aria-hidden="true"><p>x</p>\n</div></div>',
    );
    // Other fences stay code; a div written by hand is text, not a spoiler.
    expect(renderMarkdown('```js\nquote\n```')).toBe('<pre><code class="language-js">quote\n</code></pre>');
    expect(renderMarkdown('<div class="spoiler-block">x</div>')).toBe(
      '<p>&lt;div class="spoiler-block"&gt;x&lt;/div&gt;</p>',
    );
  });

  it('sanitizing keeps only mention spans', () => {
    expect(renderMarkdown('<span class="user-mention" data-user-id="1" onclick="x()">a</span>')).toBe(
      '<p>&lt;span class="user-mention" data-user-id="1" onclick="x()"&gt;a&lt;/span&gt;</p>',
    );
  });
});

describe('message content is rendered and sanitized', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  }, 60_000);
  afterAll(() => svc.close());

  it('POST /messages stores the source and serves sanitized HTML', async () => {
    const alice = await svc.login('alice');
    const content = 'Hi <script>alert(1)</script> [x](javascript:alert(1)) **ok**';
    const sent = await call(svc.url, 'POST', '/messages', {
      auth: authOf(alice),
      params: { type: 'stream', to: 'general', topic: 'xss', content },
    });
    const r = await call(svc.url, 'GET', `/messages/${sent.body.id}`, { auth: authOf(alice) });
    expect(r.body.raw_content).toBe(content);
    expect((r.body.message as { content: string }).content).toBe(
      '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1)) <strong>ok</strong></p>',
    );
  });
});
