/** Drafts: GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. */
import {
  checkDraftsEnabled,
  type DraftInput,
  doCreateDrafts,
  doDeleteDraft,
  doEditDraft,
  parseDraftObject,
} from '../actions/drafts';
import { listDraftsNewestFirst } from '../db/user-data';
import { badRequest } from '../errors';
import type { Endpoint } from '../http';
import { type Decoder, parseJsonText } from '../params';

const draftList: Decoder<DraftInput[]> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((item, i) => parseDraftObject(`${name}[${i}]`, item));
};

const draftObject: Decoder<DraftInput> = (name, raw) => parseDraftObject(name, parseJsonText(name, raw));

/** A numeric path segment such as `{draft_id}`. */
export function pathId(name: string, raw: string | undefined): number {
  const id = Number(raw);
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id)) {
    throw badRequest(`${name} is not an integer`);
  }
  return id;
}

export const draftEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/drafts',
    auth: 'user',
    handle({ ctx, user }) {
      checkDraftsEnabled(user);
      const drafts = listDraftsNewestFirst(ctx.db, user.id);
      return { count: drafts.length, drafts };
    },
  },
  {
    method: 'POST',
    path: '/drafts',
    auth: 'user',
    handle({ ctx, user, params }) {
      checkDraftsEnabled(user);
      const drafts = params.optional('drafts', draftList, []);
      return { ids: doCreateDrafts(ctx, user, drafts) };
    },
  },
  {
    method: 'PATCH',
    path: '/drafts/:draft_id',
    auth: 'user',
    handle({ ctx, user, params, path }) {
      checkDraftsEnabled(user);
      const draftId = pathId('draft_id', path.draft_id);
      const draft = params.required('draft', draftObject);
      doEditDraft(ctx, user, draftId, draft);
      return undefined;
    },
  },
  {
    method: 'DELETE',
    path: '/drafts/:draft_id',
    auth: 'user',
    handle({ ctx, user, path }) {
      checkDraftsEnabled(user);
      doDeleteDraft(ctx, user, pathId('draft_id', path.draft_id));
      return undefined;
    },
  },
];
