/** GET/POST /realm/profile_fields (creating is for administrators), PATCH /users/me/profile_data. */
import {
  checkNewProfileField,
  checkProfileValues,
  doCreateProfileField,
  doUpdateProfileValues,
  type ProfileValueUpdate,
} from '../actions/profile-fields';
import { requireAdmin } from '../actions/users';
import { listProfileFields } from '../db/realm-data';
import { badRequest } from '../errors';
import type { Endpoint } from '../http';
import { bool, int, parseJsonText, str } from '../params';

/** `data`: a JSON list of {id, value}; value is text, or a list of user ids for person pickers. */
function parseProfileData(raw: string): ProfileValueUpdate[] {
  const data = parseJsonText('data', raw);
  if (!Array.isArray(data)) throw badRequest('data is not a list');
  return data.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw badRequest(`data[${i}] is not a dict`);
    const entry = item as Record<string, unknown>;
    if (!('id' in entry)) throw badRequest(`data[${i}] key is missing: id`);
    if (!('value' in entry)) throw badRequest(`data[${i}] key is missing: value`);
    if (typeof entry.id !== 'number' || !Number.isSafeInteger(entry.id))
      throw badRequest(`data[${i}]["id"] is not an integer`);
    return { id: entry.id, value: entry.value };
  });
}

export const profileFieldEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/realm/profile_fields',
    auth: 'user',
    handle({ ctx }) {
      return { custom_fields: listProfileFields(ctx.db, ctx.realmId) };
    },
  },
  {
    method: 'POST',
    path: '/realm/profile_fields',
    auth: 'user',
    handle({ ctx, user, params }) {
      requireAdmin(user);
      const request = {
        name: params.optional('name', str, ''),
        hint: params.optional('hint', str, ''),
        fieldType: params.required('field_type', int),
        fieldData: params.has('field_data')
          ? parseJsonText('field_data', params.raw('field_data') ?? '')
          : undefined,
        displayInProfileSummary: params.optional('display_in_profile_summary', bool, false),
      };
      for (const [name, value] of [
        ['name', request.name],
        ['hint', request.hint],
      ] as const) {
        if (value.includes('\0')) throw badRequest(`${name} contains NULL (0x00) characters.`);
      }
      // Checked before the transaction for a quick answer, and again inside it.
      checkNewProfileField(ctx, request);
      return { id: doCreateProfileField(ctx, request) };
    },
  },
  {
    method: 'PATCH',
    path: '/users/me/profile_data',
    auth: 'user',
    handle({ ctx, user, params }) {
      if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
      const values = checkProfileValues(ctx, parseProfileData(params.required('data', str)));
      doUpdateProfileValues(ctx, user.id, values);
      return {};
    },
  },
];
