/**
 * The decoders of the catalogue's formats (shared/protocol/params.ts FormatValues): parameters
 * whose value needs more than its kind's rule, each checked item by item with the interface
 * family's wording. They check shape only; whether the streams, users and fields they name
 * exist, and whether the user may touch them, is the actions' business.
 */
import type { DraftParam } from '../../shared/protocol';
import {
  ALL_SETTINGS,
  checkSettingValue,
  type FormatValues,
  isSettingName,
  type NarrowTerm,
  type ParamFormat,
} from '../../shared/protocol';
import { badRequest } from '../errors';
import { FloatNumeral, jsonNumber } from './json';
import { type Decoder, isInteger, isPlainObject, listOf, parseJsonText } from './kinds';

/** A bare string without NUL characters (which no stored text may hold). */
const text: Decoder<string> = (name, raw) => {
  if (raw.includes('\0')) throw badRequest(`${name} contains NULL (0x00) characters.`);
  return raw;
};

/** Strings travel bare; every other kind of setting is JSON text (spec Conventions). */
const setting: Decoder<FormatValues['setting']> = (name, raw) => {
  if (!isSettingName(name)) throw new Error(`${name} is declared a setting but is none`);
  const kind = ALL_SETTINGS[name].type.kind;
  const value = kind === 'string' || kind === 'str-enum' ? raw : parseJsonText(name, raw);
  if ((kind === 'int' || kind === 'int-enum') && value instanceof FloatNumeral) {
    throw badRequest(`${name} is not an integer`);
  }
  const error = checkSettingValue(name, value);
  if (error !== null) throw badRequest(error);
  return value as FormatValues['setting'];
};

/** A JSON list of objects: every item is checked to be one before any is read. */
function listOfObjects(name: string, raw: string): Record<string, unknown>[] {
  return listOf(name, raw, (item, itemName) => {
    if (!isPlainObject(item)) throw badRequest(`${itemName} is not a dict`);
    return item;
  });
}

const streamSpecs: Decoder<FormatValues['stream-specs']> = (name, raw) =>
  listOfObjects(name, raw).map((item, i) => {
    if (!('name' in item)) throw badRequest(`name key is missing from ${name}[${i}]`);
    if (typeof item.name !== 'string') throw badRequest(`${name}[${i}]["name"] is not a string`);
    if ('description' in item && typeof item.description !== 'string') {
      throw badRequest(`${name}[${i}]["description"] is not a string`);
    }
    return typeof item.description === 'string'
      ? { name: item.name, description: item.description }
      : { name: item.name };
  });

const propertyChanges: Decoder<FormatValues['property-changes']> = (name, raw) =>
  listOfObjects(name, raw).map((item, i) => {
    for (const key of ['stream_id', 'property', 'value']) {
      if (!(key in item)) throw badRequest(`${key} key is missing from ${name}[${i}]`);
    }
    if (!isInteger(item.stream_id)) throw badRequest(`${name}[${i}]["stream_id"] is not an integer`);
    if (typeof item.property !== 'string') throw badRequest(`${name}[${i}]["property"] is not a string`);
    return { stream_id: item.stream_id, property: item.property, value: item.value };
  });

/** A list of {id, value}; value is text, or a list of user ids for person pickers. */
const profileData: Decoder<FormatValues['profile-data']> = (name, raw) =>
  listOf(name, raw, (item, itemName) => {
    if (!isPlainObject(item)) throw badRequest(`${itemName} is not a dict`);
    if (!('id' in item)) throw badRequest(`${itemName} key is missing: id`);
    if (!('value' in item)) throw badRequest(`${itemName} key is missing: value`);
    if (!isInteger(item.id)) throw badRequest(`${itemName}["id"] is not an integer`);
    return { id: item.id, value: item.value };
  });

const isOperand = (v: unknown): v is NarrowTerm['operand'] =>
  typeof v === 'string' || isInteger(v) || (Array.isArray(v) && v.every(isInteger));

/** Both narrow forms: `[["stream", "general"]]` and `[{"operator": ..., "operand": ...}]`. */
const messageNarrow: Decoder<NarrowTerm[]> = (name, raw) => {
  const value = parseJsonText(name, raw);
  if (!Array.isArray(value)) throw badRequest(`Invalid ${name}`);
  return value.map((term): NarrowTerm => {
    if (Array.isArray(term) && term.length === 2 && typeof term[0] === 'string' && isOperand(term[1]))
      return { operator: term[0], operand: term[1], negated: false };
    if (isPlainObject(term)) {
      const negated = term.negated ?? false;
      if (typeof term.operator === 'string' && isOperand(term.operand) && typeof negated === 'boolean')
        return { operator: term.operator, operand: term.operand, negated };
    }
    throw badRequest(`Invalid ${name}`);
  });
};

/** One decoder per format the catalogue may name: a missing one is a type error. */
export const FORMAT_DECODERS: { [F in ParamFormat]: Decoder<FormatValues[F]> } = {
  text,
  json: parseJsonText,
  setting,
  drafts: (name, raw) => listOf(name, raw, (item, itemName) => parseDraftObject(itemName, item)),
  draft: (name, raw) => parseDraftObject(name, parseJsonText(name, raw)),
  'stream-specs': streamSpecs,
  'property-changes': propertyChanges,
  'profile-data': profileData,
  'message-narrow': messageNarrow,
};

const DRAFT_KEYS = new Set(['type', 'to', 'topic', 'content', 'timestamp']);

/**
 * Checks the shape of one draft object (already parsed JSON), with the family's texts that
 * name the offending element, e.g. `drafts[0]["to"] is not a list`.
 */
export function parseDraftObject(name: string, value: unknown): DraftParam {
  if (!isPlainObject(value)) throw badRequest(`${name} is not a dict`);
  const obj = value;
  for (const key of ['type', 'to', 'topic', 'content']) {
    if (!(key in obj)) throw badRequest(`${name} key is missing: ${key}`);
  }
  // `id` included: the server sets it, a client must not send it.
  const unexpected = Object.keys(obj).filter((k) => !DRAFT_KEYS.has(k));
  if (unexpected.length > 0) throw badRequest(`Unexpected arguments: ${unexpected.join(', ')}`);

  const field = (key: string) => `${name}["${key}"]`;
  if (typeof obj.type !== 'string') throw badRequest(`${field('type')} is not a string`);
  if (obj.type !== '' && obj.type !== 'stream' && obj.type !== 'private') {
    throw badRequest(`Invalid ${field('type')}`);
  }
  if (!Array.isArray(obj.to)) throw badRequest(`${field('to')} is not a list`);
  obj.to.forEach((id, i) => {
    if (!isInteger(id)) throw badRequest(`${field('to')}[${i}] is not an integer`);
  });
  if (typeof obj.topic !== 'string') throw badRequest(`${field('topic')} is not a string`);
  if (typeof obj.content !== 'string') throw badRequest(`${field('content')} is not a string`);
  if (obj.content.trim() === '') throw badRequest(`${field('content')} cannot be blank.`);
  // Any number, a float (`1.7e9`) included.
  const timestamp = jsonNumber(obj.timestamp);
  if (obj.timestamp !== undefined && (timestamp === undefined || !Number.isFinite(timestamp))) {
    throw badRequest(`${field('timestamp')} is not a number`);
  }
  return {
    type: obj.type,
    to: obj.to as number[],
    topic: obj.topic,
    content: obj.content,
    ...(timestamp === undefined ? {} : { timestamp }),
  };
}
