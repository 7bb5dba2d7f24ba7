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
 * Bare URLs in topics are not links here: the interface's description of `topic_links` at our
 * feature level names only linkifiers.
 */
import { RE2JS } from 're2js';
import type { Db } from '../db';
import { type Linkifier, listLinkifiers } from '../db/linkifiers';

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
    if (topic === '' || this.linkifiers.length === 0) return [];
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
    // Earlier linkifiers first, then by position; a match overlapping a kept one is dropped.
    found.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
    const kept: Found[] = [];
    for (const f of found) if (kept.every((k) => !overlap(k, f))) kept.push(f);
    kept.sort((a, b) => a.index - b.index);
    return kept.map(({ text, url }) => ({ text, url }));
  }
}
