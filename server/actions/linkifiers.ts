/**
 * Linkifiers (admin): a regular expression with named groups and an RFC 6570 URL template
 * naming the same groups. Checked as the interface family's model checks them (field
 * errors, then the two fields against each other, then uniqueness), the first message as
 * `msg` and all under `errors`; every change sends the whole list in `realm_linkifiers`.
 */
import type { ServiceContext } from '../context';
import {
  deleteLinkifier,
  insertLinkifier,
  linkifierExists,
  linkifierPatternTaken,
  listLinkifiers,
  updateLinkifier,
} from '../db/linkifiers';
import { activeUserIds, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { requireAdmin } from './access';
import { type EventBatch, runAction } from './transaction';

const BLANK = 'This field cannot be blank.';
const INVALID_TEMPLATE = 'Invalid URL template.';

/** Named groups, written (?P<name>...) as the family does, or (?<name>...). */
const GROUP_NAME = /\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g;
/** One RFC 6570 variable: `id`, `x:3`, `list*` (section 2.3), its operator already taken off. */
const VARSPEC =
  /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\*)?$/;
/** Characters never allowed outside expressions (RFC 6570 section 2.1). */
const BAD_LITERAL = /[\s"'<>\\^`{|}\p{Cc}]/u;
/** URL schemes a linkified link may use. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/** The first message and every message by field, as a model validation failure reports them. */
class FieldErrors {
  readonly byField: Record<string, string[]> = {};
  add(field: string, message: string): void {
    this.byField[field] = [...(this.byField[field] ?? []), message];
  }
  get empty(): boolean {
    return Object.keys(this.byField).length === 0;
  }
  throwIfAny(): void {
    const first = Object.values(this.byField)[0]?.[0];
    if (first !== undefined) throw badRequest(first, { errors: this.byField });
  }
}

/** The pattern's problem as the family words it, or null when it compiles. */
function patternError(pattern: string): string | null {
  try {
    new RegExp(pattern.replace(/\(\?P</g, '(?<'));
    return null;
  } catch (error) {
    const detail = String((error as Error).message).replace(
      /^Invalid regular expression: \/.*\/[a-z]*: /s,
      '',
    );
    return `Bad regular expression: ${detail}`;
  }
}

/** The template's variable names, or null when it is no valid URL template. */
function templateVariables(template: string): string[] | null {
  const expressions = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] as string);
  const specs = expressions.flatMap((e) => e.replace(/^[+#./;?&=,!@|]/, '').split(','));
  if (!specs.every((spec) => VARSPEC.test(spec))) return null;
  if (BAD_LITERAL.test(template.replace(/\{[^{}]*\}/g, ''))) return null;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(template)?.[1]?.toLowerCase();
  if (scheme !== undefined && !SAFE_SCHEMES.has(scheme)) return null;
  return specs.map((spec) => spec.replace(/(:\d+|\*)$/, ''));
}

/** The two fields against each other: every group used, every variable a group. */
function checkGroupsMatch(pattern: string, variables: string[], errors: FieldErrors): void {
  const groups = new Set([...pattern.matchAll(GROUP_NAME)].map((m) => m[1] as string));
  const missingInPattern = variables.filter((v) => !groups.has(v)).sort();
  const missingInTemplate = [...groups].filter((g) => !variables.includes(g)).sort();
  if (missingInPattern[0] !== undefined) {
    errors.add(
      '__all__',
      `Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`,
    );
  } else if (missingInTemplate[0] !== undefined) {
    errors.add(
      '__all__',
      `Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`,
    );
  }
}

function checkLinkifier(ctx: ServiceContext, pattern: string, template: string, exceptId?: number): void {
  const errors = new FieldErrors();
  const badPattern = pattern === '' ? BLANK : patternError(pattern);
  if (badPattern !== null) errors.add('pattern', badPattern);
  const variables = template === '' ? null : templateVariables(template);
  if (variables === null) errors.add('url_template', template === '' ? BLANK : INVALID_TEMPLATE);
  if (errors.empty && variables !== null) checkGroupsMatch(pattern, variables, errors);
  if (errors.empty && linkifierPatternTaken(ctx.db, ctx.realmId, pattern, exceptId)) {
    errors.add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  }
  errors.throwIfAny();
}

function sendLinkifiers(ctx: ServiceContext, events: EventBatch): void {
  events.send(
    { type: 'realm_linkifiers', realm_linkifiers: listLinkifiers(ctx.db, ctx.realmId) },
    activeUserIds(ctx.db, ctx.realmId),
  );
}

function requireLinkifier(ctx: ServiceContext, id: number): void {
  if (!linkifierExists(ctx.db, ctx.realmId, id)) throw badRequest('Linkifier not found.');
}

export interface LinkifierInput {
  pattern: string;
  urlTemplate: string;
}

/** POST /realm/filters: the new linkifier's id. */
export function doAddLinkifier(ctx: ServiceContext, user: UserRow, input: LinkifierInput): number {
  requireAdmin(user);
  return runAction(ctx, (events) => {
    checkLinkifier(ctx, input.pattern, input.urlTemplate);
    const id = insertLinkifier(ctx.db, ctx.realmId, input.pattern, input.urlTemplate);
    sendLinkifiers(ctx, events);
    return id;
  });
}

/** PATCH /realm/filters/{filter_id}. */
export function doUpdateLinkifier(
  ctx: ServiceContext,
  user: UserRow,
  id: number,
  input: LinkifierInput,
): void {
  requireAdmin(user);
  runAction(ctx, (events) => {
    requireLinkifier(ctx, id);
    checkLinkifier(ctx, input.pattern, input.urlTemplate, id);
    updateLinkifier(ctx.db, id, input.pattern, input.urlTemplate);
    sendLinkifiers(ctx, events);
  });
}

/** DELETE /realm/filters/{filter_id}. */
export function doRemoveLinkifier(ctx: ServiceContext, user: UserRow, id: number): void {
  requireAdmin(user);
  runAction(ctx, (events) => {
    requireLinkifier(ctx, id);
    deleteLinkifier(ctx.db, id);
    sendLinkifiers(ctx, events);
  });
}
