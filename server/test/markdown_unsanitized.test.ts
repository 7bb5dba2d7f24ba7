/**
 * Rendering skips sanitize-html for tokens it draws exactly as sanitize-html would write them
 * back (server/markdown.ts). These tests hold that to sanitize-html itself: for every input,
 * plain or hostile, the HTML is the same as with sanitize-html run on it, and what is served
 * has nothing but allowed tags, attributes and URL schemes.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/fixtures/random';
import { type MentionTarget, renderMarkdown, renderMessage, renderMessageAlwaysSanitized } from '../markdown';

const people: Record<string, MentionTarget> = {
  alice: { userId: 5, fullName: 'Alice' },
  'o\'brien "q" <b> & co': { userId: 7, fullName: 'O\'Brien "q" <b> & co' },
};
const lookup = (name: string): MentionTarget =>
  name.toLowerCase() === 'all' ? 'wildcard' : (people[name.toLowerCase()] ?? null);

/** Both renderings of a source: as served, and through sanitize-html whatever the tokens. */
function both(source: string): [string, string] {
  return [renderMessage(source, lookup).html, renderMessageAlwaysSanitized(source, lookup)];
}

describe('rendering without sanitize-html', () => {
  it.each([
    [
      'text with quotes and ampersands',
      'say "hi" & \'bye\' <now>',
      '<p>say "hi" &amp; \'bye\' &lt;now&gt;</p>',
    ],
    ['entities as typed', '&amp; &lt; &copy; &quot; &#39;', '<p>&amp; &lt; © " \'</p>'],
    [
      'emphasis, strike-through and code with quotes',
      '**b** *i* ~~s~~ `a "q" & <t>`',
      '<p><strong>b</strong> <em>i</em> <s>s</s> <code>a "q" &amp; &lt;t&gt;</code></p>',
    ],
    ['soft and hard breaks', 'a\nb  \nc', '<p>a<br />\nb<br />\nc</p>'],
    [
      'a link with a query, quotes percent-encoded',
      '[x](https://e.example/a?b=1&c="2")',
      '<p><a href="https://e.example/a?b=1&amp;c=%222%22" target="_blank" rel="noopener noreferrer">x</a></p>',
    ],
    [
      'mailto, bare and angle-bracket links',
      '[m](mailto:a@b.example) www.example.com <https://d.example/x>',
      '<p><a href="mailto:a@b.example" target="_blank" rel="noopener noreferrer">m</a> ' +
        '<a href="http://www.example.com" target="_blank" rel="noopener noreferrer">www.example.com</a> ' +
        '<a href="https://d.example/x" target="_blank" rel="noopener noreferrer">https://d.example/x</a></p>',
    ],
    ['an ordered list from 3', '3. a\n4. b', '<ol start="3">\n<li>a</li>\n<li>b</li>\n</ol>'],
    ['a heading and a rule', '# T "1"\n\n---', '<h1>T "1"</h1>\n<hr />'],
    [
      'fenced code with a language, quotes in it',
      '```c++\nx = "<y>";\n```',
      '<pre><code class="language-c++">x = "&lt;y&gt;";\n</code></pre>',
    ],
    ['indented code', '    a "b" & c', '<pre><code>a "b" &amp; c\n</code></pre>'],
    [
      'mentions with quotes in the name',
      '@**O\'Brien "q" <b> & co** @_**Alice** @**all**',
      '<p><span class="user-mention" data-user-id="7">@O\'Brien "q" &lt;b&gt; &amp; co</span> ' +
        '<span class="user-mention silent" data-user-id="5">Alice</span> ' +
        '<span class="user-mention" data-user-id="*">@all</span></p>',
    ],
  ])('%s', (_name, source, html) => {
    expect(both(source)).toEqual([html, html]);
  });

  it.each([
    [
      'a link to another scheme',
      '[f](ftp://f.example/x)',
      '<p><a target="_blank" rel="noopener noreferrer">f</a></p>',
    ],
    ['a relative link', '[r](/a/b)', '<p><a href="/a/b" target="_blank" rel="noopener noreferrer">r</a></p>'],
    ['an empty link', '[e]()', '<p><a target="_blank" rel="noopener noreferrer">e</a></p>'],
    ['an image', '![i](https://i.example/a.png)', '<p>&lt;img /&gt;</p>'],
    ['a fence whose language is not a class', '```a"b\nx\n```', '<pre><code>x\n</code></pre>'],
    ['a quote fence', '```quote\n"q"\n```', '<blockquote>\n<p>"q"</p>\n</blockquote>'],
  ])('%s still goes through sanitize-html', (_name, source, html) => {
    expect(both(source)).toEqual([html, html]);
  });

  it('gives what sanitize-html gives, and only what it allows, for 4 000 random sources', () => {
    const fragments = [
      '**',
      '*',
      '_',
      '~~',
      '`',
      '```',
      '```js',
      '```c++',
      '```quote',
      '```spoiler t',
      '~~~',
      '\n',
      '\n\n',
      '  \n',
      '> ',
      '- ',
      '* ',
      '1. ',
      '7) ',
      '# ',
      '### ',
      '---',
      '    ',
      '\t',
      ' ',
      'word',
      'ünï',
      '😀',
      '[a](https://x.example/a?b=1&c="2")',
      '[t](https://y.example "ti\\"tle")',
      '[m](mailto:a@b.c)',
      '[f](ftp://f)',
      '[r](/rel)',
      '[h](#frag)',
      '[e]()',
      '<https://auto.example/x>',
      '<ftp://q>',
      'https://bare.example/p_(x)?q=1&r=2',
      'www.foo.com',
      'a@b.com',
      '![i](https://i.example/a.png)',
      '| a | b |\n|---|:-:|\n| 1 | 2 |',
      '<b onclick="x()">',
      '</b>',
      '<script>',
      '<img src=x onerror=y>',
      '&amp;',
      '&lt;',
      '&copy;',
      '&#39;',
      '&quot;',
      '&#0;',
      '"',
      "'",
      '<',
      '>',
      '&',
      '\\',
      '\\*',
      '@**Alice**',
      '@_**Alice**',
      '@**all**',
      '@**O\'Brien "q" <b> & co**',
      '@**Nobody**',
      '[x](javascript:alert(1))',
      '[x](HTTPS://UP.EXAMPLE)',
      '[x](<https://a b>)',
      '[ref]',
      '[ref]: https://r.example',
      '<!-- c -->',
      '\r\n',
    ];
    const random = seededRandom(20_251_126);
    const allowedTag =
      /^<\/?(p|br|strong|em|s|del|code|pre|blockquote|ul|ol|li|a|h[1-6]|hr|table|thead|tbody|tr|th|td|span|div)[\s/>]/;
    // Collected, then compared once: an expect per source would cost more than the rendering.
    const differing: { source: string; served: string; sanitized: string }[] = [];
    const badTags: string[] = [];
    for (let i = 0; i < 4000; i++) {
      let source = '';
      const parts = 1 + Math.floor(random() * 12);
      for (let j = 0; j < parts; j++) source += fragments[Math.floor(random() * fragments.length)];
      const [served, sanitized] = both(source);
      if (served !== sanitized) differing.push({ source, served, sanitized });
      const plain = renderMarkdown(source);
      const plainSanitized = renderMessageAlwaysSanitized(source, () => null);
      if (plain !== plainSanitized) differing.push({ source, served: plain, sanitized: plainSanitized });
      for (const tag of served.match(/<[^>]*>/g) ?? []) {
        if (!allowedTag.test(tag) || /\son\w+=|href="(?!https?:|mailto:|\/|#)/i.test(tag)) badTags.push(tag);
      }
    }
    expect(differing.slice(0, 3)).toEqual([]);
    expect(badTags).toEqual([]);
  });
});
