/**
 * Markdown for message content, descriptions and profile fields: markdown-it parses it (raw
 * HTML off, bare URLs linked, newlines kept as line breaks the way chat users expect), and
 * sanitize-html then keeps only an allow-list of tags, attributes and URL schemes. The second
 * step is defence in depth: whatever markdown-it (or a future plugin) emits, no script, event
 * handler or javascript: URL reaches a client.
 */
import MarkdownIt, { type StateInline } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

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
    : `<span class="${cls}" data-user-id="${target.userId}">${quiet ? '' : '@'}${escapeHtml(target.fullName)}</span>`;
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

/** Renders Markdown to sanitized HTML (no trailing newline). */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(md.render(source, {}), SANITIZE).trim();
}

/** A message's HTML, resolving mentions with `lookup`, and whom it mentions (not silently). */
export function renderMessage(
  source: string,
  lookup: (name: string) => MentionTarget,
): { html: string; mentionedUserIds: Set<number>; wildcard: boolean } {
  const env: MentionEnv = { lookup, userIds: new Set(), wildcard: false };
  const html = sanitizeHtml(md.render(source, env), SANITIZE).trim();
  return { html, mentionedUserIds: env.userIds, wildcard: env.wildcard };
}
