/**
 * The server's rendered Markdown (a profile field's rendered_value) as React elements: the
 * HTML is parsed inertly (DOMParser runs no script and loads nothing) and only known tags,
 * web links and text come through. No innerHTML, so nothing the server sends can run.
 */
import { createElement, type ReactNode } from 'react';
import { safeHref } from './peopleModel';

const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'span',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
]);
const VOID = new Set(['br', 'hr']);
/** Headings inside a card would break the page's outline: they show as strong text. */
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export function RichText({ html, className }: { html: string; className?: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return <div className={className}>{convertChildren(doc.body, 'r')}</div>;
}

function convertChildren(node: Node, keyPrefix: string): ReactNode[] {
  return Array.from(node.childNodes).map((child, i) => convert(child, `${keyPrefix}.${i}`));
}

function convert(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = convertChildren(element, key);
  if (!ALLOWED.has(tag)) return children.length > 0 ? createElement('span', { key }, ...children) : null;
  if (VOID.has(tag)) return createElement(tag, { key });
  if (HEADINGS.has(tag)) return createElement('strong', { key }, ...children);
  if (tag === 'a') {
    const href = safeHref(element.getAttribute('href') ?? '');
    if (!href) return createElement('span', { key }, ...children);
    return createElement('a', { key, href, target: '_blank', rel: 'noreferrer noopener' }, ...children);
  }
  return createElement(tag, { key }, ...children);
}
