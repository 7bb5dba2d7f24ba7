/**
 * GET/POST /realm/profile_fields (creating is for administrators), PATCH /users/me/profile_data;
 * editing, deleting and reordering fields, and clearing one's own values (issue 8).
 */

import {
  checkNewProfileField,
  checkProfileValues,
  doCreateProfileField,
  doDeleteProfileField,
  doRemoveProfileValues,
  doReorderProfileFields,
  doUpdateProfileField,
  doUpdateProfileValues,
} from '../actions/profile-fields';
import { listProfileFields } from '../db/realm-data';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { route } from '../http';
import { actionRoute, realmListRoute } from './shapes';

export const profileFieldEndpoints = [
  realmListRoute('GET /realm/profile_fields', 'custom_fields', listProfileFields),
  route({
    endpoint: 'POST /realm/profile_fields',
    handle({ ctx, params }) {
      const request = {
        // The type first: a request without one is told so before its name is judged.
        fieldType: params.field_type,
        name: params.name ?? '',
        hint: params.hint ?? '',
        fieldData: params.field_data,
        displayInProfileSummary: params.display_in_profile_summary ?? false,
      };
      // Checked before the transaction for a quick answer, and again inside it.
      checkNewProfileField(ctx, request);
      return { id: doCreateProfileField(ctx, request) };
    },
  }),
  actionRoute('PATCH /users/me/profile_data', ({ ctx, user, params }) => {
    refuseBots(user);
    const values = checkProfileValues(ctx, params.data);
    doUpdateProfileValues(ctx, user.id, values);
  }),
];

/** Profile data is for people: the family refuses bots here. */
function refuseBots(user: UserRow): void {
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

/** Editing the organization's fields, and clearing one's own values (issue 8). */
export const profileFieldEditEndpoints = [
  actionRoute('PATCH /realm/profile_fields/{field_id}', ({ ctx, params }) =>
    doUpdateProfileField(ctx, params.field_id, {
      name: params.name,
      hint: params.hint,
      fieldData: params.field_data,
      displayInProfileSummary: params.display_in_profile_summary,
    }),
  ),
  actionRoute('DELETE /realm/profile_fields/{field_id}', ({ ctx, params }) =>
    doDeleteProfileField(ctx, params.field_id),
  ),
  actionRoute('PATCH /realm/profile_fields', ({ ctx, params }) => doReorderProfileFields(ctx, params.order)),
  actionRoute('DELETE /users/me/profile_data', ({ ctx, user, params }) => {
    refuseBots(user);
    doRemoveProfileValues(ctx, user.id, params.data);
  }),
];
