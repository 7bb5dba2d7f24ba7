/**
 * Markdown for message content, descriptions and profile fields: markdown-it parses it (raw
 * HTML off, bare URLs linked, newlines kept as line breaks the way chat users expect), and
 * sanitize-html then keeps only an allow-list of tags, attributes and URL schemes. The second
 * step is defence in depth: whatever markdown-it (or a future plugin) emits, no script, event
 * handler or javascript: URL reaches a client.
 *
 * sanitize-html costs 60-150 µs a message, most of a send's rendering, so it is skipped where it
 * could change nothing: when every token is of a kind in an allow-list (paragraphs, emphasis,
 * code, lists, quotes, headings, rules, mentions, links to http, https and mailto), drawn here
 * exactly as sanitize-html would write it back (`<br />`, text escaping only &, < and >, links
 * with their target and rel). Anything else (images, tables, other links, titles, the family's
 * fences, whatever a plugin adds) still goes through sanitize-html. The tests check that the
 * skipped output is what sanitize-html gives back unchanged.
 */
import MarkdownIt, { type StateInline, type Token } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Text as sanitize-html writes it: quotes need no escaping outside attributes. */
function escapeText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: true,
  typographer: false,
  // <br />, <hr />: as sanitize-html writes them.
  xhtmlOut: true,
  // Fenced code escaped as text (markdown-it's own escaping also turns " into &quot;).
  highlight: escapeText,
});
md.renderer.rules.text = (tokens, idx) => escapeText(tokens[idx]?.content ?? '');
md.renderer.rules.code_inline = (tokens, idx, _options, _env, self) => {
  const token = tokens[idx];
  return token ? `<code${self.renderAttrs(token)}>${escapeText(token.content)}</code>` : '';
};
md.renderer.rules.code_block = (tokens, idx, _options, _env, self) => {
  const token = tokens[idx];
  return token ? `<pre${self.renderAttrs(token)}><code>${escapeText(token.content)}</code></pre>\n` : '';
};
// Links open outside the app and do not tell the target where they came from (sanitize-html's
// transform below says the same for links that go through it).
md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx];
  if (!token) return '';
  token.attrSet('target', '_blank');
  token.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, idx, options);
};

/** Who a mention names: a user, everyone (a wildcard), or nobody (left as typed). */
export type MentionTarget = { userId: number; fullName: string } | 'wildcard' | null;

/** What message rendering needs to know and tells back about mentions. */
interface MentionEnv {
  lookup?: (name: string) => MentionTarget;
  userIds: Set<number>;
  wildcard: boolean;
}

/**
 * `@**Full Name**` (or `@**Full Name|id**`) mentions a user, `@_**Name**` silently (no
 * notification), `@**all**` everyone; as the interface family writes them.
 */
function mentionRule(state: StateInline, silent: boolean): boolean {
  const env = state.env as Partial<MentionEnv>;
  if (!env.lookup || state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const match = /^@(_?)\*\*([^*\n]+)\*\*/.exec(state.src.slice(state.pos));
  if (!match) return false;
  const target = env.lookup(match[2] ?? '');
  if (target === null) return false;
  if (!silent) {
    const quiet = match[1] === '_';
    const token = state.push('mention', 'span', 0);
    token.meta = { target, quiet };
    if (!quiet) {
      if (target === 'wildcard') env.wildcard = true;
      else env.userIds?.add(target.userId);
    }
  }
  state.pos += match[0].length;
  return true;
}
md.inline.ruler.before('emphasis', 'mention', mentionRule);
md.renderer.rules.mention = (tokens, idx) => {
  const meta = tokens[idx]?.meta as { target: Exclude<MentionTarget, null>; quiet: boolean } | undefined;
  if (!meta) return '';
  const { target, quiet } = meta;
  const cls = quiet ? 'user-mention silent' : 'user-mention';
  return target === 'wildcard'
    ? `<span class="${cls}" data-user-id="*">@all</span>`
    : `<span class="${cls}" data-user-id="${target.userId}">${quiet ? '' : '@'}${escapeText(target.fullName)}</span>`;
};

/**
 * The family's special fences: ```quote (a quoted reply, its text Markdown again) and
 * ```spoiler Header (collapsed until opened; the header and the text are Markdown), drawn as
 * the family draws them. Any other fence is code, as before.
 */
const renderFence = md.renderer.rules.fence;
md.renderer.rules.fence = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (!token) return '';
  const info = token.info.trim();
  const [kind = '', ...rest] = info.split(/\s+/);
  if (kind === 'quote' || kind === 'quoted') {
    return `<blockquote>\n${md.render(token.content, env)}</blockquote>\n`;
  }
  if (kind === 'spoiler') {
    const header = rest.join(' ');
    return (
      '<div class="spoiler-block"><div class="spoiler-header">' +
      (header === '' ? '' : md.render(header, env)) +
      '</div><div class="spoiler-content" aria-hidden="true">' +
      md.render(token.content, env) +
      '</div></div>\n'
    );
  }
  return renderFence ? renderFence(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    's',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    span: ['class', 'data-user-id'],
    div: ['class', 'aria-hidden'],
    code: ['class'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedClasses: {
    code: [/^language-[\w+#.-]+$/],
    span: ['user-mention', 'silent'],
    div: ['spoiler-block', 'spoiler-header', 'spoiler-content'],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: {
    // Links open outside the app and do not tell the target where they came from.
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }),
  },
};

/** Block tokens drawn only as allowed tags, with no attribute (or those checked below). */
const PLAIN_BLOCKS = new Set([
  'paragraph_open',
  'paragraph_close',
  'heading_open',
  'heading_close',
  'bullet_list_open',
  'bullet_list_close',
  'ordered_list_open',
  'ordered_list_close',
  'list_item_open',
  'list_item_close',
  'blockquote_open',
  'blockquote_close',
  'hr',
  'code_block',
  'fence',
  'inline',
]);
const PLAIN_INLINES = new Set([
  'text',
  'softbreak',
  'hardbreak',
  'strong_open',
  'strong_close',
  'em_open',
  'em_close',
  's_open',
  's_close',
  'code_inline',
  'link_open',
  'link_close',
  'mention',
]);
/** A fence drawn as code with no class or an allowed language class (not ```quote, ```spoiler). */
const PLAIN_FENCE = /^(?:[\w+#.-]+(?:\s|$)|$)/;
const SPECIAL_FENCES = new Set(['quote', 'quoted', 'spoiler']);
/** An href sanitize-html keeps as it is: http, https or mailto (markdown-it percent-encodes the rest). */
const PLAIN_HREF = /^(?:https?|mailto):/i;

/** Whether rendering these tokens writes only what sanitize-html would give back unchanged. */
function needsSanitizing(tokens: readonly Token[]): boolean {
  for (const token of tokens) {
    if (!PLAIN_BLOCKS.has(token.type)) return true;
    if (token.attrs !== null) {
      const [only, ...more] = token.attrs;
      const numericStart =
        token.type === 'ordered_list_open' && only?.[0] === 'start' && /^\d+$/.test(only[1]);
      if (!numericStart || more.length > 0) return true;
    }
    if (token.type === 'fence') {
      const info = token.info.trim();
      if (!PLAIN_FENCE.test(info) || SPECIAL_FENCES.has(info.split(/\s/, 1)[0] ?? '')) return true;
    }
    for (const child of token.children ?? []) {
      if (!PLAIN_INLINES.has(child.type)) return true;
      if (child.type === 'link_open') {
        const [href, ...more] = child.attrs ?? [];
        if (href?.[0] !== 'href' || !PLAIN_HREF.test(href[1]) || more.length > 0) return true;
      } else if (child.attrs !== null) {
        return true;
      }
    }
  }
  return false;
}

/** markdown-it's HTML for the source, through sanitize-html unless it could change nothing. */
function render(source: string, env: object, alwaysSanitize = false): string {
  const tokens = md.parse(source, env);
  // Checked before rendering: drawing a link adds its target and rel.
  const sanitize = alwaysSanitize || needsSanitizing(tokens);
  const html = md.renderer.render(tokens, md.options, env);
  return (sanitize ? sanitizeHtml(html, SANITIZE) : html).trim();
}

/**
 * renderMessage's HTML with sanitize-html run whatever the tokens: what the tests hold the
 * skipping to, and which no caller needs.
 */
export function renderMessageAlwaysSanitized(
  source: string,
  lookup: (name: string) => MentionTarget,
): string {
  return render(source, { lookup, userIds: new Set(), wildcard: false } satisfies MentionEnv, true);
}

/** Renders Markdown to sanitized HTML (no trailing newline). */
export function renderMarkdown(source: string): string {
  return render(source, {});
}

/** A message's HTML, resolving mentions with `lookup`, and whom it mentions (not silently). */
export function renderMessage(
  source: string,
  lookup: (name: string) => MentionTarget,
): { html: string; mentionedUserIds: Set<number>; wildcard: boolean } {
  const env: MentionEnv = { lookup, userIds: new Set(), wildcard: false };
  const html = render(source, env);
  return { html, mentionedUserIds: env.userIds, wildcard: env.wildcard };
}
