/**
 * Custom emoji: adding one (an image, for whom the organization's add_custom_emoji_policy
 * allows) and deactivating one (administrators, or its author). Each change sends the whole
 * `realm_emoji` map, as register gives it, to every active user.
 */
import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context';
import {
  activeRealmEmojiByName,
  activeRealmEmojiWithAuthor,
  deactivateRealmEmoji,
  insertRealmEmoji,
  realmEmojiFile,
} from '../db/emoji';
import { requireRealm } from '../db/realm';
import { realmSettingValue } from '../db/realm-settings';
import { activeUserIds, type UserRow } from '../db/users';
import { realmEmojiState } from '../emoji';
import { ApiFailure, badRequest } from '../errors';
import type { UploadedFile } from '../params/multipart';
import { isAdmin } from '../permissions';
import {
  discardFile,
  emojiPathId,
  IMAGE_EXTENSIONS,
  readStoredFile,
  sniffContentType,
  storeFile,
} from '../uploads';
import { insufficientPermission } from './access';
import { allowedBy } from './streams';
import { type EventBatch, runAction } from './transaction';

/** The largest emoji image, in MiB (the family's max_emoji_file_size). */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Lowercase letters, digits, dots, dashes and underscores, not ending in a punctuation mark. */
const EMOJI_NAME = /^[0-9a-z.\-_]+(?<![.\-_])$/;

function checkEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (!EMOJI_NAME.test(name)) throw badRequest('Invalid characters in emoji name');
}

function sendRealmEmoji(ctx: ServiceContext, events: EventBatch): void {
  events.send(
    { type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiState(ctx.db, ctx.realmId) },
    activeUserIds(ctx.db, ctx.realmId),
  );
}

/** The one image of the request and its file extension, from its content. */
function emojiImage(files: readonly UploadedFile[]): { data: Buffer; extension: string } {
  if (files.length !== 1) throw badRequest('You must upload exactly one file.');
  const data = (files[0] as UploadedFile).data;
  const extension = IMAGE_EXTENSIONS[sniffContentType(data)];
  if (extension === undefined) throw badRequest('Invalid image format');
  return { data, extension };
}

/** POST /realm/emoji/{emoji_name}. */
export async function doAddRealmEmoji(
  ctx: ServiceContext,
  user: UserRow,
  name: string,
  files: readonly UploadedFile[],
): Promise<void> {
  const policy = realmSettingValue(requireRealm(ctx.db), 'add_custom_emoji_policy') as number;
  if (!allowedBy(user, policy)) throw insufficientPermission();
  checkEmojiName(name);
  const { data, extension } = emojiImage(files);
  if (activeRealmEmojiByName(ctx.db, ctx.realmId, name)) {
    throw badRequest('A custom emoji with this name already exists.');
  }
  const fileName = `${randomBytes(12).toString('base64url')}.${extension}`;
  const pathId = emojiPathId(ctx.realmId, fileName);
  await storeFile(ctx.config.dataDir, pathId, data);
  try {
    runAction(ctx, (events) => {
      // Checked again inside the transaction: another request may have taken the name meanwhile.
      if (activeRealmEmojiByName(ctx.db, ctx.realmId, name)) {
        throw badRequest('A custom emoji with this name already exists.');
      }
      insertRealmEmoji(ctx.db, { realmId: ctx.realmId, name, authorId: user.id, fileName });
      sendRealmEmoji(ctx, events);
    });
  } catch (error) {
    await discardFile(ctx.config.dataDir, pathId);
    throw error;
  }
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it. */
export function doRemoveRealmEmoji(ctx: ServiceContext, user: UserRow, name: string): void {
  runAction(ctx, (events) => {
    const emoji = activeRealmEmojiWithAuthor(ctx.db, ctx.realmId, name);
    if (!emoji) throw badRequest(`Emoji '${name}' does not exist`);
    if (!isAdmin(user) && emoji.author_id !== user.id) {
      throw badRequest('Must be an organization administrator or emoji author');
    }
    deactivateRealmEmoji(ctx.db, emoji.id);
    sendRealmEmoji(ctx, events);
  });
}

/** A custom emoji's image (deactivated ones too), for anyone: emoji are the organization's. */
export async function realmEmojiImage(
  ctx: ServiceContext,
  emojiId: number,
  fileName: string,
): Promise<{ data: Buffer; contentType: string }> {
  const emoji = realmEmojiFile(ctx.db, ctx.realmId, emojiId);
  const notFound = () => new ApiFailure(404, 'NOT_FOUND', 'File not found');
  if (!emoji || emoji.file_name !== fileName) throw notFound();
  try {
    const data = await readStoredFile(ctx.config.dataDir, emojiPathId(ctx.realmId, fileName));
    return { data, contentType: sniffContentType(data) };
  } catch {
    throw notFound();
  }
}
