/** Code playgrounds (admin): validation, storage, and the whole list in `realm_playgrounds` events. */
import type { ServiceContext } from '../context';
import {
  deletePlayground,
  insertPlayground,
  listPlaygrounds,
  playgroundExists,
  playgroundNameTaken,
} from '../db/realm-data';
import { activeUserIds, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { requireAdmin } from './access';
import { type EventBatch, runAction } from './transaction';

export const MAX_HIGHLIGHTER_LANGUAGE_LENGTH = 40;
const LANGUAGE_CHARACTERS = /^[ a-zA-Z0-9_+\-./#]*$/;

/** An absolute http(s) URL with a host: what a client may open with code appended. */
function isValidUrlPrefix(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Field checks in the family's model order; the first message becomes `msg` and every one
 * is listed under `errors` (as a model validation failure reports them).
 */
function checkPlayground(name: string, language: string, urlPrefix: string): void {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (urlPrefix === '') add('url_prefix', 'This field cannot be blank.');
  else if (!isValidUrlPrefix(urlPrefix)) add('url_prefix', 'Enter a valid URL.');
  if (name === '') add('name', 'This field cannot be blank.');
  if (name.includes('\0')) add('name', 'Null characters are not allowed.');
  if (language === '') add('highlighter_language', 'This field cannot be blank.');
  const length = [...language].length;
  if (length > MAX_HIGHLIGHTER_LANGUAGE_LENGTH) {
    add(
      'highlighter_language',
      `Ensure this value has at most ${MAX_HIGHLIGHTER_LANGUAGE_LENGTH} characters (it has ${length}).`,
    );
  }
  if (!LANGUAGE_CHARACTERS.test(language)) {
    add('highlighter_language', 'Invalid characters in highlighter language');
  }
  const first = Object.values(errors)[0]?.[0];
  if (first !== undefined) throw badRequest(first, { errors });
}

function sendPlaygrounds(ctx: ServiceContext, events: EventBatch): void {
  events.send(
    { type: 'realm_playgrounds', realm_playgrounds: listPlaygrounds(ctx.db, ctx.realmId) },
    activeUserIds(ctx.db, ctx.realmId),
  );
}

/** POST /realm/playgrounds: the new playground's id. */
export function doAddPlayground(
  ctx: ServiceContext,
  user: UserRow,
  input: { name: string; language: string; urlPrefix: string },
): number {
  requireAdmin(user);
  const name = input.name.trim();
  const language = input.language.trim();
  const urlPrefix = input.urlPrefix.trim();
  checkPlayground(name, language, urlPrefix);
  return runAction(ctx, (events) => {
    if (playgroundNameTaken(ctx.db, ctx.realmId, language, name)) {
      const message = 'Realm playground with this Realm, Highlighter language and Name already exists.';
      throw badRequest(message, { errors: { __all__: [message] } });
    }
    const id = insertPlayground(ctx.db, { realmId: ctx.realmId, name, language, urlPrefix });
    sendPlaygrounds(ctx, events);
    return id;
  });
}

/** DELETE /realm/playgrounds/{playground_id}. */
export function doRemovePlayground(ctx: ServiceContext, user: UserRow, playgroundId: number): void {
  requireAdmin(user);
  runAction(ctx, (events) => {
    if (!playgroundExists(ctx.db, ctx.realmId, playgroundId)) throw badRequest('Invalid playground');
    deletePlayground(ctx.db, playgroundId);
    sendPlaygrounds(ctx, events);
  });
}
