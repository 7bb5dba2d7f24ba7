/**
 * Custom profile fields: the organization's fields (POST, PATCH, DELETE and reordering of
 * /realm/profile_fields, admin) and each user's own values (PATCH and DELETE
 * /users/me/profile_data). Rules and error texts follow the interface family.
 */
import type { ServiceContext } from '../context';
import { requireRealm } from '../db/realm';
import {
  countSummaryProfileFields,
  deleteProfileField,
  deleteProfileValue,
  getProfileField,
  getProfileValue,
  insertProfileField,
  listProfileFields,
  PROFILE_FIELD_TYPES,
  type ProfileFieldRow,
  profileFieldIds,
  profileFieldNameTaken,
  RENDERED_PROFILE_FIELD_TYPES,
  setProfileFieldOrder,
  setProfileValue,
  updateProfileField,
  usersWithProfileValueOutside,
} from '../db/realm-data';
import { activeUserIds } from '../db/users';
import { badRequest } from '../errors';
import { renderMarkdown } from '../markdown';
import { checkPrintable } from '../printable';
import { accessUserById, invalidUserId } from './access';
import { type EventBatch, runAction } from './transaction';

const T = PROFILE_FIELD_TYPES;
export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
export const MAX_SUMMARY_FIELDS = 2;
export const MAX_SHORT_VALUE_LENGTH = 50;
export const MAX_LONG_VALUE_LENGTH = 500;

/** External-account subtypes the service knows; others must be `custom` with a URL pattern. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { text: string; url_pattern: string }> = {
  github: { text: 'GitHub', url_pattern: 'https://github.com/%(username)s' },
  twitter: { text: 'Twitter', url_pattern: 'https://twitter.com/%(username)s' },
};

export interface NewFieldRequest {
  name: string;
  hint: string;
  fieldType: number;
  /** Parsed JSON of field_data; undefined when not passed. */
  fieldData: unknown;
  displayInProfileSummary: boolean;
}

/** A JSON object (`{...}`), not a list or a numeral the parameters kept apart (`1e0`). */
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function requiredString(obj: Record<string, unknown>, key: string, where: string): string {
  const value = obj[key];
  if (value === undefined) throw badRequest(`${where} key is missing: ${key}`);
  if (typeof value !== 'string') throw badRequest(`${where}["${key}"] is not a string`);
  if (!value.trim()) throw badRequest(`${where}["${key}"] cannot be blank.`);
  return value;
}

function onlyKeys(obj: Record<string, unknown>, allowed: string[], where: string): void {
  const extra = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw badRequest(`Unexpected arguments in ${where}: ${extra.join(', ')}`);
}

/** Choices: a dict of key -> {text, order}, non-blank strings, texts unique. */
function checkChoiceData(data: Record<string, unknown>): void {
  const keys = Object.keys(data);
  if (keys.length < 1) throw badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const key of keys) {
    if (!key.trim()) throw badRequest("'value' cannot be blank.");
    const choice = data[key];
    const where = `field_data["${key}"]`;
    if (!isPlainObject(choice)) throw badRequest(`${where} is not a dict`);
    onlyKeys(choice, ['text', 'order'], where);
    const text = requiredString(choice, 'text', where);
    checkPrintable(text, 'choice text');
    texts.add(text);
    requiredString(choice, 'order', where);
  }
  if (texts.size !== keys.length) throw badRequest('Field must not have duplicate choices.');
}

/** External account: {subtype} for a known service, or {subtype: "custom", url_pattern}. */
function checkExternalAccountData(data: Record<string, unknown>): void {
  onlyKeys(data, ['subtype', 'url_pattern'], 'field_data');
  const subtype = requiredString(data, 'subtype', 'field_data');
  if (data.url_pattern !== undefined) {
    if (typeof data.url_pattern !== 'string') throw badRequest('field_data["url_pattern"] is not a string');
    if (data.url_pattern.split('%(username)s').length !== 2)
      throw badRequest("URL pattern must contain '%(username)s'.");
    if (!isHttpUrl(data.url_pattern.replace('%(username)s', 'username')))
      throw badRequest('field_data["url_pattern"] is not a URL');
  }
  if (!Object.hasOwn(DEFAULT_EXTERNAL_ACCOUNTS, subtype)) {
    if (subtype !== 'custom') throw badRequest('Invalid external account type');
    if (data.url_pattern === undefined) throw badRequest('Custom external account must define URL pattern');
  }
}

/** A checked field, ready to insert: its name (defaulted for known external accounts), its data text. */
export function checkNewProfileField(
  ctx: ServiceContext,
  req: NewFieldRequest,
  /** The field being edited, which does not count against the summary limit. */
  exceptId = 0,
): { name: string; hint: string; fieldData: string } {
  const validTypes: number[] = Object.values(T).map((t) => t.id);
  if (!validTypes.includes(req.fieldType)) throw badRequest('Invalid field type.');

  const data = req.fieldData ?? {};
  if (!isPlainObject(data)) throw badRequest('field_data is not a dict');
  let fieldData = '';
  let name = req.name.trim();
  if (req.fieldType === T.CHOICE.id) {
    checkChoiceData(data);
    fieldData = JSON.stringify(data);
  } else if (req.fieldType === T.EXTERNAL_ACCOUNT.id) {
    checkExternalAccountData(data);
    fieldData = JSON.stringify(data);
    // A known service names its own field when the administrator gave no label.
    const subtype = data.subtype as string;
    if (!name && Object.hasOwn(DEFAULT_EXTERNAL_ACCOUNTS, subtype))
      name = DEFAULT_EXTERNAL_ACCOUNTS[subtype]?.text ?? '';
  } else if (Object.keys(data).length > 0) {
    throw badRequest('field_data is only allowed for list of options and external account fields');
  }

  if (!name) throw badRequest('Label cannot be blank.');
  if ([...name].length > MAX_FIELD_NAME_LENGTH)
    throw badRequest(`name is too long (limit: ${MAX_FIELD_NAME_LENGTH} characters)`);
  checkPrintable(name, 'field name');
  if ([...req.hint].length > MAX_FIELD_HINT_LENGTH)
    throw badRequest(`hint is too long (limit: ${MAX_FIELD_HINT_LENGTH} characters)`);

  if (req.displayInProfileSummary) {
    if (req.fieldType === T.LONG_TEXT.id || req.fieldType === T.USER.id)
      throw badRequest('Field type not supported for display in profile summary.');
    if (countSummaryProfileFields(ctx.db, ctx.realmId, exceptId) >= MAX_SUMMARY_FIELDS)
      throw badRequest(
        `Only ${MAX_SUMMARY_FIELDS} custom profile fields can be displayed in the profile summary.`,
      );
  }
  return { name, hint: req.hint, fieldData };
}

function sendFieldsEvent(ctx: ServiceContext, events: EventBatch) {
  events.send(
    { type: 'custom_profile_fields', fields: listProfileFields(ctx.db, ctx.realmId) },
    activeUserIds(ctx.db, ctx.realmId),
  );
}

/** Creates the field; everyone gets the whole new list. Returns the field id. */
export function doCreateProfileField(ctx: ServiceContext, req: NewFieldRequest): number {
  return runAction(ctx, (events) => {
    // Checked inside the transaction, so two concurrent requests cannot pass the limits together.
    const checked = checkNewProfileField(ctx, req);
    if (profileFieldNameTaken(ctx.db, ctx.realmId, checked.name))
      throw badRequest('A field with that label already exists.');
    const id = insertProfileField(ctx.db, {
      realmId: ctx.realmId,
      name: checked.name,
      hint: checked.hint,
      type: req.fieldType,
      fieldData: checked.fieldData,
      summary: req.displayInProfileSummary,
    });
    sendFieldsEvent(ctx, events);
    return id;
  });
}

/** PATCH /realm/profile_fields/{field_id}: what the request passed (undefined: unchanged). */
export interface FieldUpdateRequest {
  name?: string | undefined;
  hint?: string | undefined;
  fieldData?: unknown;
  displayInProfileSummary?: boolean | undefined;
}

const fieldNotFound = (fieldId: number) => badRequest(`Field id ${fieldId} not found.`);

function requireProfileField(ctx: ServiceContext, fieldId: number): ProfileFieldRow {
  const field = getProfileField(ctx.db, ctx.realmId, fieldId);
  if (!field) throw fieldNotFound(fieldId);
  return field;
}

/** The stored field_data, parsed (empty text: none). */
const storedFieldData = (field: ProfileFieldRow): unknown =>
  field.field_data ? (JSON.parse(field.field_data) as unknown) : undefined;

/** An external-account field of a known service: only its summary flag may change. */
function isDefaultExternalField(field: ProfileFieldRow): boolean {
  if (field.field_type !== T.EXTERNAL_ACCOUNT.id) return false;
  const data = storedFieldData(field);
  return isPlainObject(data) && typeof data.subtype === 'string' && data.subtype !== 'custom';
}

/**
 * Users holding a choice the new choices no longer have lose it, as in the family: a
 * realm_user update with value null each.
 */
function dropRemovedChoices(ctx: ServiceContext, events: EventBatch, field: ProfileFieldRow, data: string) {
  if (field.field_type !== T.CHOICE.id) return;
  const keep = Object.keys(JSON.parse(data) as Record<string, unknown>);
  for (const userId of usersWithProfileValueOutside(ctx.db, field.id, keep)) {
    applyProfileValues(ctx, events, userId, [{ field, value: null }]);
  }
}

/**
 * Changes a field's label, hint, data or summary flag, checked as a new field is; everyone
 * gets the whole new list.
 */
export function doUpdateProfileField(ctx: ServiceContext, fieldId: number, req: FieldUpdateRequest): void {
  runAction(ctx, (events) => {
    const field = requireProfileField(ctx, fieldId);
    const changesText = req.name !== undefined || req.hint !== undefined || req.fieldData !== undefined;
    if (changesText && isDefaultExternalField(field))
      throw badRequest('Default custom field cannot be updated.');
    const merged: NewFieldRequest = {
      name: req.name ?? field.name,
      hint: req.hint ?? field.hint,
      fieldType: field.field_type,
      fieldData: req.fieldData ?? storedFieldData(field),
      displayInProfileSummary: req.displayInProfileSummary ?? field.display_in_profile_summary === 1,
    };
    const checked = checkNewProfileField(ctx, merged, field.id);
    if (profileFieldNameTaken(ctx.db, ctx.realmId, checked.name, field.id))
      throw badRequest('A field with that label already exists.');
    updateProfileField(ctx.db, field.id, { ...checked, summary: merged.displayInProfileSummary });
    sendFieldsEvent(ctx, events);
    dropRemovedChoices(ctx, events, field, checked.fieldData);
  });
}

/** DELETE /realm/profile_fields/{field_id}: the field and every value of it. */
export function doDeleteProfileField(ctx: ServiceContext, fieldId: number): void {
  runAction(ctx, (events) => {
    const field = requireProfileField(ctx, fieldId);
    deleteProfileField(ctx.db, field.id);
    sendFieldsEvent(ctx, events);
  });
}

/** PATCH /realm/profile_fields: `order` lists every field's id once, in the new order. */
export function doReorderProfileFields(ctx: ServiceContext, order: number[]): void {
  runAction(ctx, (events) => {
    const ids = profileFieldIds(ctx.db, ctx.realmId);
    const complete = order.length === ids.length && new Set(order).size === order.length;
    if (!complete || !ids.every((id) => order.includes(id))) throw badRequest('Invalid order mapping.');
    for (const [index, id] of order.entries()) setProfileFieldOrder(ctx.db, id, index);
    sendFieldsEvent(ctx, events);
  });
}

/** DELETE /users/me/profile_data: clears the user's values of these fields (unset ones too). */
export function doRemoveProfileValues(ctx: ServiceContext, userId: number, fieldIds: number[]): void {
  runAction(ctx, (events) => {
    const values = fieldIds.map((id) => ({ field: requireProfileField(ctx, id), value: null }));
    applyProfileValues(ctx, events, userId, values);
  });
}

/** One entry of PATCH /users/me/profile_data's `data`, as sent. */
export interface ProfileValueUpdate {
  id: number;
  value: unknown;
}

interface CheckedValue {
  field: ProfileFieldRow;
  /** null clears the value. */
  value: string | null;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(text: string): boolean {
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Checks one value against its field's type; returns the text to store, or null to clear. */
function checkValue(ctx: ServiceContext, field: ProfileFieldRow, value: unknown): string | null {
  const name = field.name;
  if (field.field_type === T.USER.id) {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'number' && Number.isSafeInteger(v)))
      throw badRequest(`${name} is not a list of user IDs`);
    if (value.length === 0) return null;
    const ids = [...new Set(value as number[])];
    for (const id of ids) accessUserById(ctx, id, { error: invalidUserId });
    return JSON.stringify(ids);
  }
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  if (value === '') return null;
  if (value.includes('\0')) throw badRequest(`${name} contains NULL (0x00) characters.`);
  const limit = field.field_type === T.LONG_TEXT.id ? MAX_LONG_VALUE_LENGTH : MAX_SHORT_VALUE_LENGTH;
  switch (field.field_type) {
    case T.DATE.id:
      if (!isDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case T.URL.id:
      if (!isHttpUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    case T.CHOICE.id: {
      const choices = field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
      if (!Object.hasOwn(choices, value)) throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      return value;
    }
    default:
      if ([...value].length > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
      return value;
  }
}

/**
 * Checks every entry first: one bad entry rejects the request and changes nothing.
 * `nullClears`: a null value clears the field (an administrator's PATCH /users/{user_id}).
 */
export function checkProfileValues(
  ctx: ServiceContext,
  data: ProfileValueUpdate[],
  { nullClears = false }: { nullClears?: boolean } = {},
): CheckedValue[] {
  return data.map(({ id, value }) => {
    const field = requireProfileField(ctx, id);
    if (nullClears && value === null) return { field, value: null };
    return { field, value: checkValue(ctx, field, value) };
  });
}

/**
 * Stores the values that differ from the current ones; each change is a realm_user update
 * with `custom_profile_field` {id, value, rendered_value for Markdown types} to everyone.
 */
export function doUpdateProfileValues(ctx: ServiceContext, userId: number, values: CheckedValue[]): void {
  runAction(ctx, (events) => applyProfileValues(ctx, events, userId, values));
}

/** doUpdateProfileValues inside a caller's transaction. */
export function applyProfileValues(
  ctx: ServiceContext,
  events: EventBatch,
  userId: number,
  values: CheckedValue[],
): void {
  const realm = requireRealm(ctx.db);
  for (const { field, value } of values) {
    if ((getProfileValue(ctx.db, userId, field.id) ?? null) === value) continue;
    const fieldEvent: Record<string, unknown> = { id: field.id, value };
    if (value === null) {
      deleteProfileValue(ctx.db, userId, field.id);
    } else {
      const rendered = RENDERED_PROFILE_FIELD_TYPES.has(field.field_type) ? renderMarkdown(value) : null;
      setProfileValue(ctx.db, userId, field.id, value, rendered);
      if (rendered !== null) fieldEvent.rendered_value = rendered;
    }
    events.send(
      { type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: fieldEvent } },
      activeUserIds(ctx.db, realm.id),
    );
  }
}
