/**
 * The message content conversion over a real HTML parser's tree (htmlparser2, which the
 * server's sanitizer uses; there is no DOM under Node), rendered to markup with react-dom.
 */
import type { ChildNode, Document, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  type ContentContext,
  type ContentRenderers,
  codeOfGlyph,
  convertContent,
  externalHref,
  type HtmlElementLike,
  type HtmlNodeLike,
  isImageUploadPath,
  uploadPathOf,
} from './content';

/** A domhandler node seen through the DOM's names (what the converter reads). */
function adapt(node: ChildNode | Document): HtmlNodeLike {
  const text = (n: ChildNode | Document): string =>
    'data' in n && n.type === 'text' ? n.data : 'children' in n ? n.children.map(text).join('') : '';
  const children = 'children' in node ? node.children.map(adapt) : [];
  if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
    const element = node as Element;
    const adapted: HtmlElementLike = {
      nodeType: 1,
      textContent: text(node),
      childNodes: children,
      tagName: element.name.toUpperCase(),
      getAttribute: (name) => element.attribs[name] ?? null,
    };
    return adapted;
  }
  if (node.type === 'text') return { nodeType: 3, textContent: text(node), childNodes: [] };
  if (node.type === 'root') return { nodeType: 9, textContent: text(node), childNodes: children };
  return { nodeType: 8, textContent: null, childNodes: [] };
}

const render: ContentRenderers = {
  emoji: (emoji, key) =>
    createElement('i', { key, 'data-emoji': `${emoji.type}:${emoji.name}:${emoji.code ?? ''}` }),
  mention: ({ userId, groupId, silent }, children, key) =>
    createElement(
      'b',
      {
        key,
        'data-mention': `${userId ?? (groupId !== undefined ? `g${groupId}` : '*')}${silent ? ' silent' : ''}`,
      },
      ...children,
    ),
  upload: (path, children, key) => createElement('u', { key, 'data-upload': path }, ...children),
  image: ({ path, name }, fallback, key) =>
    createElement('figure', { key, 'data-image': path, title: name }, ...fallback),
};

function html(source: string, ctx: Partial<ContentContext> = {}): string {
  const nodes = convertContent(adapt(parseDocument(source)), { render, ...ctx });
  return renderToStaticMarkup(createElement('div', null, ...nodes));
}

describe('message content: sanitizing', () => {
  it('keeps the known tags and text, without any attribute', () => {
    expect(html('<p class="x" id="y" style="color:red">Hi <strong>there</strong> <em>you</em></p>')).toBe(
      '<div><p>Hi <strong>there</strong> <em>you</em></p></div>',
    );
    expect(
      html('<ul><li>a</li></ul><ol start="3"><li>b</li></ol><blockquote><p>q</p></blockquote><hr>'),
    ).toBe(
      '<div><ul><li>a</li></ul><ol start="3"><li>b</li></ol><blockquote><p>q</p></blockquote><hr/></div>',
    );
  });

  it('drops scripts, styles and frames with everything inside them', () => {
    expect(
      html('<p>a<script>alert(1)</script>b</p><style>p{}</style><iframe src="https://x"></iframe>'),
    ).toBe('<div><p>ab</p></div>');
    expect(
      html(
        '<form action="https://x"><input value="v"><button>Go</button></form><svg><a href="x">s</a></svg>',
      ),
    ).toBe('<div></div>');
  });

  it('drops event handlers and keeps no attribute of an unknown tag', () => {
    const out = html(
      '<p onclick="alert(1)">x<img src="x" onerror="alert(2)"><marquee onstart="alert(3)">m</marquee></p>',
    );
    expect(out).toBe('<div><p>x<span>m</span></p></div>');
    expect(out).not.toContain('alert');
  });

  it('drops javascript:, data: and relative links, keeping their text; opens web links outside', () => {
    expect(html('<a href="javascript:alert(1)">a</a><a href=" JaVaScRiPt:alert(1)">b</a>')).toBe(
      '<div><span class="message-link-inert">a</span><span class="message-link-inert">b</span></div>',
    );
    expect(html('<a href="data:text/html,x">c</a><a href="/api/v1/x">d</a>')).toBe(
      '<div><span class="message-link-inert">c</span><span class="message-link-inert">d</span></div>',
    );
    expect(html('<a href="https://example.com/a?b" title="t" onclick="x()">e</a>')).toBe(
      '<div><a href="https://example.com/a?b" target="_blank" rel="noopener noreferrer" title="t">e</a></div>',
    );
    expect(html('<a href="mailto:a@example.com">m</a>')).toBe(
      '<div><a href="mailto:a@example.com" target="_blank" rel="noopener noreferrer">m</a></div>',
    );
  });

  it('turns headings into bold blocks (the page keeps its outline)', () => {
    expect(html('<h1>Big</h1><h3>small</h3>')).toBe(
      '<div><div class="message-heading message-h1">Big</div><div class="message-heading message-h3">small</div></div>',
    );
  });

  it('keeps a table cell’s alignment as a class, nothing else of its style', () => {
    expect(
      html(
        '<table><tbody><tr><td style="text-align: center; color: red">c</td><td style="x">d</td></tr></tbody></table>',
      ),
    ).toBe('<div><table><tbody><tr><td class="align-center">c</td><td>d</td></tr></tbody></table></div>');
  });
});

describe('message content: the family’s pieces', () => {
  it('shows code blocks as they are (no emoji inside them)', () => {
    const ctx = { emojiByName: () => ({ name: 'smile', code: '1f604', type: 'unicode_emoji' as const }) };
    expect(html('<pre><code class="language-js">let a = 1; // :smile:</code></pre>', ctx)).toBe(
      '<div><pre class="message-code-block"><code>let a = 1; // :smile:</code></pre></div>',
    );
    expect(
      html(
        '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x</code></pre></div>',
      ),
    ).toBe(
      '<div><div class="message-codehilite" data-language="Python"><pre class="message-code-block"><code>x</code></pre></div></div>',
    );
  });

  it('gives mentions to the mention renderer: a user, a silent one, everyone, a group', () => {
    expect(
      html(
        '<p><span class="user-mention" data-user-id="11">@Bob</span> <span class="user-mention silent" data-user-id="12">Carol</span> <span class="user-mention" data-user-id="*">@all</span> <span class="user-group-mention" data-user-group-id="3">@team</span></p>',
      ),
    ).toBe(
      '<div><p><b data-mention="11">@Bob</b> <b data-mention="12 silent">Carol</b> <b data-mention="*">@all</b> <b data-mention="g3">@team</b></p></div>',
    );
  });

  it('draws emoji: the family’s spans, custom emoji images, :name: and emoji characters in text', () => {
    expect(
      html(
        '<p><span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>',
      ),
    ).toBe('<div><p><i data-emoji="unicode_emoji:smile:1f604"></i></p></div>');
    const ctx: Partial<ContentContext> = {
      emojiByName: (name) =>
        name === 'party'
          ? { name, code: '7', type: 'realm_emoji' }
          : name === 'tada'
            ? { name, code: '1f389', type: 'unicode_emoji' }
            : null,
      emojiNameOfCode: (code) => (code === '1f44d' ? '+1' : code === '1f1fa-1f1f8' ? 'us' : null),
    };
    expect(
      html('<p><img alt=":party:" class="emoji" src="/user_avatars/2/emoji/7.png" title="party"></p>', ctx),
    ).toBe('<div><p><i data-emoji="realm_emoji:party:7"></i></p></div>');
    expect(html('<p>yay :tada: and :nope: 👍 🇺🇸!</p>', ctx)).toBe(
      '<div><p>yay <i data-emoji="unicode_emoji:tada:1f389"></i> and :nope: <i data-emoji="unicode_emoji:+1:1f44d"></i> <i data-emoji="unicode_emoji:us:1f1fa-1f1f8"></i>!</p></div>',
    );
    // Without names for characters, they stay the font's.
    expect(html('<p>👍</p>', { emojiByName: () => null })).toBe('<div><p>👍</p></div>');
  });

  it('makes spoilers collapsible (closed), with their header or "Spoiler"', () => {
    expect(
      html(
        '<div class="spoiler-block"><div class="spoiler-header"><p>Ending</p></div><div class="spoiler-content" aria-hidden="true"><p>They win</p></div></div>',
      ),
    ).toBe(
      '<div><details class="message-spoiler"><summary class="message-spoiler-header"><p>Ending</p></summary><div class="message-spoiler-content"><p>They win</p></div></details></div>',
    );
    expect(
      html(
        '<div class="spoiler-block"><div class="spoiler-header"></div><div class="spoiler-content"><p>x</p></div></div>',
      ),
    ).toContain('<summary class="message-spoiler-header">Spoiler</summary>');
  });

  it('shows uploaded files other than images as links by name through the upload renderer', () => {
    expect(html('<p><a href="/user_uploads/2/ab/cd/report.pdf">report.pdf</a></p>')).toBe(
      '<div><p><u data-upload="/user_uploads/2/ab/cd/report.pdf">report.pdf</u></p></div>',
    );
    expect(
      html('<a href="https://chat.example.com/user_uploads/2/ab/x.txt">x</a>', {
        serverUrl: 'https://chat.example.com',
      }),
    ).toBe('<div><u data-upload="/user_uploads/2/ab/x.txt">x</u></div>');
    // Named as an image but not at a file's address (three segments): a link.
    expect(html('<a href="/user_uploads/2/ab/x.png">x.png</a>')).toBe(
      '<div><u data-upload="/user_uploads/2/ab/x.png">x.png</u></div>',
    );
  });

  it('shows an uploaded image inline through the image renderer, named by its title, text or file name, its link as the fallback', () => {
    expect(html('<p><a href="/user_uploads/2/ab/cd/dot.png">dot.png</a></p>')).toBe(
      '<div><p><figure data-image="/user_uploads/2/ab/cd/dot.png" title="dot.png">dot.png</figure></p></div>',
    );
    expect(
      html('<p>See <a href="/user_uploads/2/ab/cd/Cat.JPEG" title="The cat"><em>this</em></a></p>'),
    ).toBe(
      '<div><p>See <figure data-image="/user_uploads/2/ab/cd/Cat.JPEG" title="The cat"><em>this</em></figure></p></div>',
    );
    expect(html('<a href="/user_uploads/2/ab/cd/caf%C3%A9.webp"></a>')).toBe(
      '<div><figure data-image="/user_uploads/2/ab/cd/caf%C3%A9.webp" title="café.webp"></figure></div>',
    );
    expect(
      html('<a href="https://chat.example.com/user_uploads/2/ab/cd/x.gif">x.gif</a>', {
        serverUrl: 'https://chat.example.com',
      }),
    ).toBe('<div><figure data-image="/user_uploads/2/ab/cd/x.gif" title="x.gif">x.gif</figure></div>');
    // Another server's image is an ordinary link.
    expect(
      html('<a href="https://other.example.com/user_uploads/2/ab/cd/x.gif">x.gif</a>', {
        serverUrl: 'https://chat.example.com',
      }),
    ).toBe(
      '<div><a href="https://other.example.com/user_uploads/2/ab/cd/x.gif" target="_blank" rel="noopener noreferrer">x.gif</a></div>',
    );
  });

  it("shows the server's image preview block as its images, whatever their file names; other links stay links", () => {
    expect(
      html(
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/cd/cat%20photo.png" title="cat photo.png"><img src="/user_uploads/2/ab/cd/cat%20photo.png"></a></div>',
      ),
    ).toBe(
      '<div><div class="message-attachment"><figure data-image="/user_uploads/2/ab/cd/cat%20photo.png" title="cat photo.png">cat photo.png</figure></div></div>',
    );
    expect(
      html(
        '<div class="message_inline_image"><a href="/user_uploads/2/ab/cd/picture"><img src="/user_uploads/2/ab/cd/picture"></a></div>',
      ),
    ).toBe(
      '<div><div class="message-attachment"><figure data-image="/user_uploads/2/ab/cd/picture" title="picture">picture</figure></div></div>',
    );
    expect(
      html(
        '<div class="message_inline_image"><a href="https://example.com/a.png" title="a"><img src="https://example.com/a.png"></a><a href="/user_uploads/2/ab/a.png">a.png</a></div>',
      ),
    ).toBe(
      '<div><div class="message-attachment"><a href="https://example.com/a.png" target="_blank" rel="noopener noreferrer" title="a">a</a><u data-upload="/user_uploads/2/ab/a.png">a.png</u></div></div>',
    );
  });

  it('shows a <time> in the reader’s time zone with the exact time on hover', () => {
    const out = html('<p><time datetime="2024-05-01T12:00:00Z">x</time></p>');
    expect(out).toContain('dateTime="2024-05-01T12:00:00.000Z"');
    expect(out).toContain(new Date('2024-05-01T12:00:00Z').toLocaleString());
  });
});

describe('link helpers', () => {
  it('uploadPathOf takes plain upload paths of the account’s server only', () => {
    expect(uploadPathOf('/user_uploads/2/a/b.png', undefined)).toBe('/user_uploads/2/a/b.png');
    expect(uploadPathOf('/user_uploads/../api/v1/users', undefined)).toBe(null);
    expect(uploadPathOf('/user_uploads/2//b', undefined)).toBe(null);
    expect(uploadPathOf('https://other.example.com/user_uploads/2/a/b.png', 'https://chat.example.com')).toBe(
      null,
    );
    expect(uploadPathOf('/api/v1/messages', undefined)).toBe(null);
  });

  it('isImageUploadPath takes uploaded files named as PNG, JPEG, GIF or WebP', () => {
    for (const name of ['a.png', 'a.PNG', 'a.jpg', 'a.jpeg', 'a.gif', 'a.webp', 'caf%C3%A9.png']) {
      expect(isImageUploadPath(`/user_uploads/2/ab/cd/${name}`), name).toBe(true);
    }
    for (const name of ['a.svg', 'a.pdf', 'a.png.txt', 'png', 'a.bmp']) {
      expect(isImageUploadPath(`/user_uploads/2/ab/cd/${name}`), name).toBe(false);
    }
    expect(isImageUploadPath('/user_uploads/2/ab/a.png')).toBe(false);
    expect(isImageUploadPath('/user_uploads/emoji/1/a.png')).toBe(false);
    expect(isImageUploadPath('/user_uploads/2/ab/%2E%2E/a.png')).toBe(false);
  });

  it('externalHref takes absolute http, https and mailto only', () => {
    expect(externalHref('https://a.example/x')).toBe('https://a.example/x');
    expect(externalHref('javascript:alert(1)')).toBe(null);
    expect(externalHref('vbscript:x')).toBe(null);
    expect(externalHref('file:///etc/passwd')).toBe(null);
    expect(externalHref('//evil.example')).toBe(null);
  });

  it('codeOfGlyph drops variation selectors', () => {
    expect(codeOfGlyph('❤️')).toBe('2764');
    expect(codeOfGlyph('👍🏽')).toBe('1f44d-1f3fd');
  });
});
