/**
 * A message's `topic_links`: each match of one of the organization's linkifiers in the topic,
 * as `{ text, url }`, the url expanded from the linkifier's RFC 6570 URL template with the
 * pattern's named groups. As in the interface family, a pattern matches only after the start,
 * whitespace or an opening delimiter and before the end or a character that is no letter or
 * digit; linkifiers apply in their order, an earlier one winning where matches overlap, and
 * the links come in the order they appear in the topic.
 *
 * Patterns come from administrators, so they run on RE2 (re2js), in time linear in the topic,
 * never on JavaScript's backtracking RegExp. A stored pattern RE2 cannot compile (JavaScript
 * accepted it: a lookahead, a backreference) links nothing.
 *
 * Bare URLs are links too, as in the family (topic_links in its markdown module): the topic is
 * cut at spaces and `!;),'"`, and the first web link of each piece is linked, after every
 * linkifier match (which wins an overlap): `https://…` and `http://…` as written, a domain
 * ending in a known top-level domain (tlds.ts) or an email address as `https://` + the text,
 * a bitcoin address as written. Unlike the family, each comes at its own position, not its
 * piece's. That pattern is ours, run on JavaScript's RegExp, on topics of at most 60 characters.
 */
import { RE2JS } from 're2js';
import type { Db } from '../db';
import { type Linkifier, listLinkifiers } from '../db/linkifiers';
import { TOP_LEVEL_DOMAINS } from './tlds';

export interface TopicLink {
  text: string;
  url: string;
}

const BEFORE = 'linkifier_before_match';
const MATCH = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

/**
 * The family's frame around a pattern: RE2 has no lookbehind, so the character before and
 * the one after are matched as groups. `\s` is ASCII in RE2; `\x{85}` and `\p{Z}` complete
 * Unicode's White_Space.
 */
function framed(pattern: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{85}|\\p{Z}|['"(,:<])(?P<${MATCH}>${pattern})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/** Compiled patterns by source, shared by requests (RE2JS objects hold no match state). */
const compiledPatterns = new Map<string, RE2JS | null>();
const MAX_COMPILED = 500;

function compiled(pattern: string): RE2JS | null {
  let re = compiledPatterns.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(framed(pattern));
    } catch {
      re = null;
    }
    if (compiledPatterns.size >= MAX_COMPILED) compiledPatterns.clear();
    compiledPatterns.set(pattern, re);
  }
  return re;
}

// RFC 6570 expansion (level 4 operators; the values are strings, so `*` changes nothing).

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  reserved: boolean;
}

const SIMPLE: Operator = { first: '', sep: ',', named: false, ifEmpty: '', reserved: false };
const OPERATORS: Record<string, Operator> = {
  '+': { ...SIMPLE, reserved: true },
  '#': { ...SIMPLE, first: '#', reserved: true },
  '.': { ...SIMPLE, first: '.', sep: '.' },
  '/': { ...SIMPLE, first: '/', sep: '/' },
  ';': { ...SIMPLE, first: ';', sep: ';', named: true },
  '?': { ...SIMPLE, first: '?', sep: '&', named: true, ifEmpty: '=' },
  '&': { ...SIMPLE, first: '&', sep: '&', named: true, ifEmpty: '=' },
};

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const PCT_TRIPLET = /^%[0-9A-Fa-f]{2}/;
const utf8 = new TextEncoder();

function encodeValue(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; ) {
    const ch = String.fromCodePoint(value.codePointAt(i) as number);
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else if (allowReserved && PCT_TRIPLET.test(value.slice(i))) out += ch;
    else for (const byte of utf8.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    i += ch.length;
  }
  return out;
}

function expandExpression(expression: string, vars: Record<string, string | null>): string {
  const op = OPERATORS[expression[0] ?? ''];
  const operator = op ?? SIMPLE;
  const specs = (op ? expression.slice(1) : expression).replace(/^[=,!@|]/, '').split(',');
  const parts: string[] = [];
  for (const spec of specs) {
    const [, name = '', prefix] = /^(.*?)(?::(\d+)|\*)?$/.exec(spec) ?? [];
    let value = vars[name];
    if (value === null || value === undefined) continue;
    if (prefix !== undefined) value = [...value].slice(0, Number(prefix)).join('');
    const encoded = encodeValue(value, operator.reserved);
    if (!operator.named) parts.push(encoded);
    else parts.push(value === '' ? `${name}${operator.ifEmpty}` : `${name}=${encoded}`);
  }
  return parts.length === 0 ? '' : operator.first + parts.join(operator.sep);
}

/** The template with each `{...}` expression expanded from the named groups. */
export function expandUrlTemplate(template: string, vars: Record<string, string | null>): string {
  return template.replace(/\{([^{}]*)\}/g, (_, expression: string) => expandExpression(expression, vars));
}

interface Found extends TopicLink {
  index: number;
  precedence: number;
}

/** Where the family cuts a topic into the pieces it looks for one web link in (basic_link_splitter). */
const LINK_SPLITTER = /[ !;),'"]/g;

/**
 * The family's web link (get_web_link_regex, without file links): after the start, whitespace
 * or one of `'"(,:<`; before optional punctuation and the end or whitespace. `\w` is Python's,
 * any letter or digit. A path stops before `(`: the family's nested parentheses can never
 * close in a piece, since `)` cuts the topic.
 */
function webLinkPattern(): RegExp {
  const w = '\\p{L}\\p{N}_';
  const tlds = [...TOP_LEVEL_DOMAINS].sort((a, b) => b.length - a.length).join('|');
  const domain = `(?:https?://[${w}.:@-]+?|(?:[${w}-]+\\.)+(?:${tlds}))(?:/[^\\s()"]*?)?`;
  const email = `[${w}.-]+@[${w}.-]+\\.[${w}]+`;
  const bitcoin = 'bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}';
  return new RegExp(`(?<![^\\s'"(,:<])(?<url>${domain}|${email}|${bitcoin})(?=[!:;?),.'">]*(?:$|\\s))`, 'u');
}

let webLink: RegExp | undefined;

/**
 * Where a bare link goes: a text with a scheme as it is; any other as an https URL whose host
 * is the text up to its first `/`, with an empty query or fragment dropped (Python's urlsplit
 * and urlunsplit, as the family builds it).
 */
function bareLinkUrl(text: string): string {
  if (/^(?:https?|bitcoin):/.test(text)) return text;
  const hash = text.indexOf('#');
  const fragment = hash === -1 ? '' : text.slice(hash + 1);
  const beforeHash = hash === -1 ? text : text.slice(0, hash);
  const mark = beforeHash.indexOf('?');
  const query = mark === -1 ? '' : beforeHash.slice(mark + 1);
  const path = mark === -1 ? beforeHash : beforeHash.slice(0, mark);
  return `https://${path}${query === '' ? '' : `?${query}`}${fragment === '' ? '' : `#${fragment}`}`;
}

/** The bare links of a topic, in order, ranked after every linkifier. */
function bareLinks(topic: string, precedence: number): Found[] {
  webLink ??= webLinkPattern();
  const found: Found[] = [];
  for (let pos = 0; pos < topic.length; ) {
    LINK_SPLITTER.lastIndex = pos;
    const end = LINK_SPLITTER.exec(topic)?.index ?? topic.length;
    const m = webLink.exec(topic.slice(pos, end));
    const text = m?.groups?.url;
    if (m && text) found.push({ text, url: bareLinkUrl(text), index: pos + m.index, precedence });
    pos = end + 1;
  }
  return found;
}

function overlap(a: Found, b: Found): boolean {
  return a.index < b.index + b.text.length && b.index < a.index + a.text.length;
}

/** The realm's linkifiers, compiled once, applied to any number of topics. */
export class TopicLinker {
  private readonly linkifiers: { re: RE2JS; template: string }[] = [];

  constructor(linkifiers: readonly Linkifier[]) {
    for (const l of linkifiers) {
      const re = compiled(l.pattern);
      if (re) this.linkifiers.push({ re, template: l.url_template });
    }
  }

  /** The organization's linkifiers as they are now (load once per request or event). */
  static forRealm(db: Db, realmId: number): TopicLinker {
    return new TopicLinker(listLinkifiers(db, realmId));
  }

  links(topic: string): TopicLink[] {
    if (topic === '') return [];
    const found: Found[] = [];
    this.linkifiers.forEach(({ re, template }, precedence) => {
      const m = re.matcher(topic);
      let pos = 0;
      while (pos < topic.length && m.find(pos)) {
        const groups = m.getNamedGroups();
        const text = groups[MATCH] ?? '';
        // The character after the match may open the next one; always move on, though.
        pos = Math.max(m.end() - (groups[AFTER] ?? '').length, pos + 1);
        if (text === '') continue;
        const url = expandUrlTemplate(template, groups);
        found.push({ text, url, index: m.start(MATCH), precedence });
      }
    });
    found.push(...bareLinks(topic, this.linkifiers.length));
    // Earlier linkifiers first, then bare links, each by position; a match overlapping a kept
    // one is dropped.
    found.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
    const kept: Found[] = [];
    for (const f of found) if (kept.every((k) => !overlap(k, f))) kept.push(f);
    kept.sort((a, b) => a.index - b.index);
    return kept.map(({ text, url }) => ({ text, url }));
  }
}
