/** Drafts: GET/POST /drafts, PATCH/DELETE /drafts/{draft_id}. */
import { checkDraftsEnabled, doCreateDrafts, doDeleteDraft, doEditDraft } from '../actions/drafts';
import { listDraftsNewestFirst } from '../db/user-data';
import { route } from '../http';

export const draftEndpoints = [
  route({
    endpoint: 'GET /drafts',
    handle({ ctx, user }) {
      checkDraftsEnabled(user);
      const drafts = listDraftsNewestFirst(ctx.db, user.id);
      return { count: drafts.length, drafts };
    },
  }),
  route({
    endpoint: 'POST /drafts',
    handle({ ctx, user, params }) {
      checkDraftsEnabled(user);
      return { ids: doCreateDrafts(ctx, user, params.drafts ?? []) };
    },
  }),
  route({
    endpoint: 'PATCH /drafts/{draft_id}',
    handle({ ctx, user, params }) {
      checkDraftsEnabled(user);
      doEditDraft(ctx, user, params.draft_id, params.draft);
      return undefined;
    },
  }),
  route({
    endpoint: 'DELETE /drafts/{draft_id}',
    handle({ ctx, user, params }) {
      checkDraftsEnabled(user);
      doDeleteDraft(ctx, user, params.draft_id);
      return undefined;
    },
  }),
];
