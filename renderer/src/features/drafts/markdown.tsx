/**
 * A draft's excerpt as Markdown, rendered to React elements from markdown-it's tokens (never
 * through innerHTML): raw HTML is off, so tags typed in a draft show as text, and only a safe
 * subset of elements is produced. Links (written or bare, linkify) show as link-styled text with
 * their address on hover: an excerpt is a preview inside a list row, not a place to navigate.
 */
import MarkdownIt from 'markdown-it';
import type { ReactNode } from 'react';

type Token = ReturnType<MarkdownIt['parse']>[number];

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });

/** Longer drafts are cut before parsing: the excerpt shows a few lines at most. */
export const EXCERPT_SOURCE_MAX = 2000;

/** Block tokens that open an element, and the element each one becomes. */
const BLOCKS: Record<string, string> = {
  paragraph_open: 'p',
  bullet_list_open: 'ul',
  ordered_list_open: 'ol',
  list_item_open: 'li',
  blockquote_open: 'blockquote',
  // Headings keep their weight but not their size or level: an excerpt has no outline.
  heading_open: 'p',
  table_open: 'table',
  thead_open: 'thead',
  tbody_open: 'tbody',
  tr_open: 'tr',
  th_open: 'th',
  td_open: 'td',
};

/** Inline tokens that open an element. */
const INLINES: Record<string, string> = {
  strong_open: 'strong',
  em_open: 'em',
  s_open: 's',
};

export function MarkdownExcerpt({ source, className }: { source: string; className?: string }) {
  const text = source.length > EXCERPT_SOURCE_MAX ? `${source.slice(0, EXCERPT_SOURCE_MAX)}…` : source;
  const tokens = md.parse(text, {});
  return <div className={className}>{renderBlocks(tokens)}</div>;
}

function renderBlocks(tokens: Token[]): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { tag: string; children: ReactNode[]; heading: boolean }[] = [];
  const out = () => stack[stack.length - 1]?.children ?? root;
  tokens.forEach((token, i) => {
    const key = `b${i}`;
    if (token.nesting === 1 && BLOCKS[token.type]) {
      // A tight list's paragraphs are hidden: their text goes straight into the item.
      const tag = token.hidden ? '' : (BLOCKS[token.type] as string);
      stack.push({ tag, children: [], heading: token.type === 'heading_open' });
      return;
    }
    if (
      token.nesting === -1 &&
      token.type.endsWith('_close') &&
      BLOCKS[token.type.replace('_close', '_open')]
    ) {
      const open = stack.pop();
      if (!open) return;
      if (open.tag === '') {
        out().push(...open.children);
        return;
      }
      const Tag = open.tag as 'p';
      const children = open.heading ? [<strong key="h">{open.children}</strong>] : open.children;
      out().push(
        <Tag key={key} className={open.heading ? 'md-heading' : undefined}>
          {children}
        </Tag>,
      );
      return;
    }
    switch (token.type) {
      case 'inline':
        out().push(...renderInline(token.children ?? [], key));
        return;
      case 'fence':
      case 'code_block':
        out().push(
          <pre key={key}>
            <code>{token.content}</code>
          </pre>,
        );
        return;
      case 'hr':
        out().push(<hr key={key} />);
        return;
      default:
        // Anything else (html blocks cannot occur with html off) shows its text, if any.
        if (token.content) out().push(token.content);
    }
  });
  // Unbalanced input cannot happen with markdown-it, but never drop text if it did.
  while (stack.length > 0) root.push(...(stack.shift()?.children ?? []));
  return root;
}

function renderInline(tokens: Token[], prefix: string): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { kind: 'tag' | 'link'; tag: string; href: string; children: ReactNode[] }[] = [];
  const out = () => stack[stack.length - 1]?.children ?? root;
  tokens.forEach((token, i) => {
    const key = `${prefix}-${i}`;
    const opens = INLINES[token.type];
    if (opens) {
      stack.push({ kind: 'tag', tag: opens, href: '', children: [] });
      return;
    }
    if (token.type === 'link_open') {
      stack.push({ kind: 'link', tag: 'span', href: token.attrGet('href') ?? '', children: [] });
      return;
    }
    if (
      token.type.endsWith('_close') &&
      (INLINES[token.type.replace('_close', '_open')] || token.type === 'link_close')
    ) {
      const open = stack.pop();
      if (!open) return;
      if (open.kind === 'link') {
        out().push(
          <span key={key} className="md-link" title={open.href}>
            {open.children}
          </span>,
        );
      } else {
        const Tag = open.tag as 'strong';
        out().push(<Tag key={key}>{open.children}</Tag>);
      }
      return;
    }
    switch (token.type) {
      case 'text':
        out().push(token.content);
        return;
      case 'code_inline':
        out().push(<code key={key}>{token.content}</code>);
        return;
      case 'softbreak':
      case 'hardbreak':
        out().push(<br key={key} />);
        return;
      case 'image':
        // No images load from an excerpt: their description stands in.
        out().push(
          <span key={key} className="md-image">
            {token.content || 'image'}
          </span>,
        );
        return;
      default:
        if (token.content) out().push(token.content);
    }
  });
  while (stack.length > 0) root.push(...(stack.shift()?.children ?? []));
  return root;
}
