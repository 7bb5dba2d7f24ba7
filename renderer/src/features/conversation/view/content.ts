/**
 * A message's content, the server's HTML, as React elements: sanitized again here, whatever
 * the server sent. The HTML is parsed inertly (DOMParser: no script runs, nothing loads) and
 * walked; only known tags come through, and no attribute is ever copied: each element's props
 * are built here (so no event handler, style or unknown URL can pass). Links open outside the
 * app (http, https, mailto only); an uploaded file's link goes through `render.upload` (it
 * needs the account's credentials), and an uploaded image's (by its file name, or inside the
 * server's `message_inline_image` preview) through `render.image`, which shows it inline;
 * mentions, emoji and spoilers get their own look.
 *
 * The walk reads the DOM through a small structural interface, so tests feed it another
 * parser's tree (there is no DOM under Node).
 */
import { createElement, type ReactNode } from 'react';
import { isUploadFilePath } from '../../../../../shared/ipc';

export interface HtmlNodeLike {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<HtmlNodeLike>;
}

export interface HtmlElementLike extends HtmlNodeLike {
  tagName: string;
  getAttribute(name: string): string | null;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

export interface EmojiRef {
  name: string;
  code?: string | undefined;
  type: 'unicode_emoji' | 'realm_emoji';
}

/** How the special pieces look: the screen gives components, tests give plain elements. */
export interface ContentRenderers {
  emoji(emoji: EmojiRef, key: string): ReactNode;
  /** userId null: a wildcard (@all); groupId: a group mention. */
  mention(
    mention: { userId: number | null; groupId?: number; silent: boolean },
    children: ReactNode[],
    key: string,
  ): ReactNode;
  /** A link to an uploaded file (`/user_uploads/...`, the path on the account's server). */
  upload(path: string, children: ReactNode[], key: string): ReactNode;
  /**
   * An uploaded image shown inline (`path` passes isUploadFilePath); `name` names it (its alt
   * text); `fallback` is what its link would show, for when the image cannot be had.
   */
  image(image: { path: string; name: string }, fallback: ReactNode[], key: string): ReactNode;
}

export interface ContentContext {
  render: ContentRenderers;
  /** An emoji's code by its name (`:name:` in text becomes the emoji); null: unknown, stays text. */
  emojiByName?(name: string): EmojiRef | null;
  /**
   * A Unicode emoji's name by its code: when given, emoji characters in text become
   * `render.emoji` (so the account's emojiset draws them); otherwise they stay the font's.
   */
  emojiNameOfCode?(code: string): string | null;
  /** The account's server (its own absolute links to uploads are uploads too). */
  serverUrl?: string | undefined;
}

/** Tags kept as themselves (with no attributes but those built below). */
const KEPT = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'u',
  'sub',
  'sup',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const VOID = new Set(['br', 'hr']);
/** Dropped with everything inside: their text is not content. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'frame',
  'frameset',
  'textarea',
  'select',
  'button',
  'input',
  'form',
  'svg',
  'math',
  'video',
  'audio',
  'head',
  'title',
  'meta',
  'link',
  'base',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const TEXT_ALIGN = /text-align:\s*(left|right|center)/i;

/** The React nodes of a parsed message body (the children of `root`). */
export function convertContent(root: HtmlNodeLike, ctx: ContentContext): ReactNode[] {
  return convertChildren(root, 'c', ctx, false);
}

function convertChildren(
  node: HtmlNodeLike,
  prefix: string,
  ctx: ContentContext,
  inCode: boolean,
): ReactNode[] {
  const out: ReactNode[] = [];
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child) continue;
    const converted = convertNode(child, `${prefix}.${i}`, ctx, inCode);
    if (Array.isArray(converted)) out.push(...converted);
    else if (converted !== null && converted !== undefined && converted !== '') out.push(converted);
  }
  return out;
}

function classesOf(element: HtmlElementLike): string[] {
  return (element.getAttribute('class') ?? '').split(/\s+/u).filter(Boolean);
}

function convertNode(node: HtmlNodeLike, key: string, ctx: ContentContext, inCode: boolean): ReactNode {
  if (node.nodeType === TEXT_NODE) {
    const text = node.textContent ?? '';
    return inCode ? text : textWithEmoji(text, key, ctx);
  }
  if (node.nodeType !== ELEMENT_NODE) return null;
  const element = node as HtmlElementLike;
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const classes = classesOf(element);
  const kids = (code = inCode) => convertChildren(element, key, ctx, code);

  if (tag === 'span' || tag === 'img') {
    const special = convertSpecialInline(element, tag, classes, key, ctx, kids);
    if (special !== undefined) return special;
  }
  if (tag === 'div') return convertDiv(element, classes, key, ctx, inCode);
  if (tag === 'a') return convertLink(element, key, ctx, kids());
  if (tag === 'time') {
    const when = Date.parse(element.getAttribute('datetime') ?? '');
    if (Number.isNaN(when)) return createElement('span', { key }, ...kids());
    const date = new Date(when);
    return createElement(
      'time',
      { key, dateTime: date.toISOString(), title: date.toString(), className: 'message-time-mention' },
      date.toLocaleString(),
    );
  }
  if (HEADINGS.has(tag)) {
    // Headings inside a message would break the page's outline: bold blocks of the same size steps.
    return createElement('div', { key, className: `message-heading message-${tag}` }, ...kids());
  }
  if (tag === 'pre') return createElement('pre', { key, className: 'message-code-block' }, ...kids(true));
  if (tag === 'code') return createElement('code', { key }, ...kids(true));
  if (tag === 'ol') {
    const start = Number.parseInt(element.getAttribute('start') ?? '', 10);
    return createElement('ol', Number.isSafeInteger(start) ? { key, start } : { key }, ...kids());
  }
  if (tag === 'th' || tag === 'td') {
    const align = TEXT_ALIGN.exec(element.getAttribute('style') ?? '')?.[1]?.toLowerCase();
    return createElement(tag, align ? { key, className: `align-${align}` } : { key }, ...kids());
  }
  if (KEPT.has(tag)) {
    if (VOID.has(tag)) return createElement(tag, { key });
    return createElement(tag, { key }, ...kids());
  }
  // An unknown tag: its text stays, the tag goes.
  const children = kids();
  return children.length > 0 ? createElement('span', { key }, ...children) : null;
}

/** Mentions and emoji; undefined: not special (an ordinary span). */
function convertSpecialInline(
  element: HtmlElementLike,
  tag: string,
  classes: string[],
  key: string,
  ctx: ContentContext,
  kids: () => ReactNode[],
): ReactNode | undefined {
  if (classes.includes('emoji')) {
    if (tag === 'img') {
      const name = (element.getAttribute('title') ?? element.getAttribute('alt') ?? '').replace(/^:|:$/g, '');
      if (!name) return null;
      const known = ctx.emojiByName?.(name);
      return known ? ctx.render.emoji(known, key) : `:${name}:`;
    }
    const codeClass = classes.find((c) => /^emoji-[0-9a-f]+(-[0-9a-f]+)*$/i.test(c));
    const code = codeClass?.slice('emoji-'.length).toLowerCase();
    const name = (element.getAttribute('title') ?? element.textContent ?? '')
      .trim()
      .replace(/^:|:$/g, '')
      .replaceAll(' ', '_');
    if (!code || !name) return createElement('span', { key }, ...kids());
    return ctx.render.emoji({ name, code, type: 'unicode_emoji' }, key);
  }
  if (tag === 'img') return null;
  if (classes.includes('user-mention') || classes.includes('user-group-mention')) {
    const silent = classes.includes('silent');
    if (classes.includes('user-group-mention')) {
      const groupId = Number(element.getAttribute('data-user-group-id'));
      return ctx.render.mention(
        { userId: null, ...(Number.isSafeInteger(groupId) ? { groupId } : {}), silent },
        kids(),
        key,
      );
    }
    const raw = element.getAttribute('data-user-id');
    const userId = raw === '*' || raw === null ? null : Number(raw);
    return ctx.render.mention(
      { userId: userId !== null && Number.isSafeInteger(userId) ? userId : null, silent },
      kids(),
      key,
    );
  }
  if (classes.includes('topic-mention')) {
    return ctx.render.mention({ userId: null, silent: false }, kids(), key);
  }
  return undefined;
}

function convertDiv(
  element: HtmlElementLike,
  classes: string[],
  key: string,
  ctx: ContentContext,
  inCode: boolean,
): ReactNode {
  if (classes.includes('spoiler-block')) {
    let header: ReactNode[] = [];
    let body: ReactNode[] = [];
    const children = element.childNodes;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!child || child.nodeType !== ELEMENT_NODE) continue;
      const childClasses = classesOf(child as HtmlElementLike);
      if (childClasses.includes('spoiler-header')) header = convertChildren(child, `${key}.h`, ctx, false);
      if (childClasses.includes('spoiler-content')) body = convertChildren(child, `${key}.b`, ctx, false);
    }
    return createElement(
      'details',
      { key, className: 'message-spoiler' },
      createElement(
        'summary',
        { key: 's', className: 'message-spoiler-header' },
        ...(header.length > 0 ? header : ['Spoiler']),
      ),
      createElement('div', { key: 'c', className: 'message-spoiler-content' }, ...body),
    );
  }
  if (classes.includes('message_inline_image') || classes.includes('message_inline_ref')) {
    // The server's image preview: its uploaded images are drawn by render.image, other links stay.
    const links: ReactNode[] = [];
    collectLinks(element, `${key}.l`, ctx, links);
    return createElement('div', { key, className: 'message-attachment' }, ...links);
  }
  const children = convertChildren(element, key, ctx, inCode);
  if (children.length === 0) return null;
  if (classes.includes('codehilite')) {
    const language = element.getAttribute('data-code-language');
    return createElement(
      'div',
      { key, className: 'message-codehilite', ...(language ? { 'data-language': language } : {}) },
      ...children,
    );
  }
  return createElement('div', { key }, ...children);
}

/**
 * The links inside an image preview, each named by its title or file name: an uploaded file's
 * is the image itself (the server made the preview for an image), others stay links.
 */
function collectLinks(node: HtmlNodeLike, key: string, ctx: ContentContext, out: ReactNode[]): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (!child || child.nodeType !== ELEMENT_NODE) continue;
    const element = child as HtmlElementLike;
    if (element.tagName.toLowerCase() === 'a') {
      const href = element.getAttribute('href') ?? '';
      const label = element.getAttribute('title') || fileNameOf(href) || href;
      const upload = uploadPathOf(href, ctx.serverUrl);
      out.push(
        upload !== null && isUploadFilePath(upload)
          ? ctx.render.image({ path: upload, name: label }, [label], `${key}.${i}`)
          : convertLink(element, `${key}.${i}`, ctx, [label]),
      );
    } else collectLinks(element, `${key}.${i}`, ctx, out);
  }
}

/** File names the app previews as images (the types uploads.image hands over). */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;

/** Whether an upload path is an image to show inline: an uploaded file named as an image. */
export function isImageUploadPath(path: string): boolean {
  return isUploadFilePath(path) && IMAGE_FILE.test(fileNameOf(path));
}

function fileNameOf(href: string): string {
  const last = href.split(/[?#]/u)[0]?.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The upload path of a link to one of the server's files, or null. */
export function uploadPathOf(href: string, serverUrl: string | undefined): string | null {
  let path: string | null = null;
  if (href.startsWith('/user_uploads/')) path = href;
  else if (serverUrl) {
    try {
      const url = new URL(href);
      const server = new URL(serverUrl);
      if (url.origin === server.origin && url.pathname.startsWith('/user_uploads/')) path = url.pathname;
    } catch {
      path = null;
    }
  }
  if (path === null) return null;
  // Only a plain path: no dot segments, nothing that could reach another endpoint.
  const segments = path.split('/').slice(2);
  if (segments.length < 2 || segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return path;
}

/** A link the app may open outside itself: http, https or mailto, absolute. */
export function externalHref(href: string): string | null {
  try {
    const url = new URL(href.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:'
      ? url.href
      : null;
  } catch {
    return null;
  }
}

function convertLink(
  element: HtmlElementLike,
  key: string,
  ctx: ContentContext,
  children: ReactNode[],
): ReactNode {
  const raw = element.getAttribute('href') ?? '';
  const upload = uploadPathOf(raw, ctx.serverUrl);
  if (upload !== null && isImageUploadPath(upload)) {
    const name = element.getAttribute('title') || (element.textContent ?? '').trim() || fileNameOf(upload);
    return ctx.render.image({ path: upload, name }, children, key);
  }
  if (upload !== null) return ctx.render.upload(upload, children, key);
  const href = externalHref(raw);
  if (href === null) return createElement('span', { key, className: 'message-link-inert' }, ...children);
  const title = element.getAttribute('title');
  return createElement(
    'a',
    { key, href, target: '_blank', rel: 'noopener noreferrer', ...(title ? { title } : {}) },
    ...children,
  );
}

/** `:name:` or an emoji character sequence (flags, ZWJ sequences, skin tones, VS16). */
const EMOJI_IN_TEXT =
  /:([a-z0-9_+-]+):|(\p{Regional_Indicator}{2}|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*)/gu;

/** The emoji_code of emoji characters: hex code points joined by dashes, without U+FE0F. */
export function codeOfGlyph(glyph: string): string {
  return [...glyph]
    .map((c) => c.codePointAt(0) ?? 0)
    .filter((cp) => cp !== 0xfe0f)
    .map((cp) => cp.toString(16))
    .join('-');
}

function textWithEmoji(text: string, key: string, ctx: ContentContext): ReactNode {
  if (!ctx.emojiByName && !ctx.emojiNameOfCode) return text;
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(EMOJI_IN_TEXT)) {
    const index = match.index ?? 0;
    let emoji: EmojiRef | null = null;
    if (match[1] !== undefined) emoji = ctx.emojiByName?.(match[1]) ?? null;
    else if (match[2] !== undefined && ctx.emojiNameOfCode) {
      const code = codeOfGlyph(match[2]);
      const name = ctx.emojiNameOfCode(code);
      if (name) emoji = { name, code, type: 'unicode_emoji' };
    }
    if (emoji === null) continue;
    if (index > last) out.push(text.slice(last, index));
    out.push(ctx.render.emoji(emoji, `${key}.e${n++}`));
    last = index + match[0].length;
  }
  if (out.length === 0) return text;
  if (last < text.length) out.push(text.slice(last));
  return out;
}
