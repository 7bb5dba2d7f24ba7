/** GET/POST /realm/profile_fields (creating is for administrators), PATCH /users/me/profile_data. */
import {
  checkNewProfileField,
  checkProfileValues,
  doCreateProfileField,
  doUpdateProfileValues,
} from '../actions/profile-fields';
import { listProfileFields } from '../db/realm-data';
import { badRequest } from '../errors';
import { route } from '../http';

export const profileFieldEndpoints = [
  route({
    endpoint: 'GET /realm/profile_fields',
    handle: ({ ctx }) => ({ custom_fields: listProfileFields(ctx.db, ctx.realmId) }),
  }),
  route({
    endpoint: 'POST /realm/profile_fields',
    handle({ ctx, params }) {
      const request = {
        name: params.name ?? '',
        hint: params.hint ?? '',
        fieldType: params.field_type,
        fieldData: params.field_data,
        displayInProfileSummary: params.display_in_profile_summary ?? false,
      };
      // Checked before the transaction for a quick answer, and again inside it.
      checkNewProfileField(ctx, request);
      return { id: doCreateProfileField(ctx, request) };
    },
  }),
  route({
    endpoint: 'PATCH /users/me/profile_data',
    handle({ ctx, user, params }) {
      if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
      const values = checkProfileValues(ctx, params.data);
      doUpdateProfileValues(ctx, user.id, values);
      return {};
    },
  }),
];
