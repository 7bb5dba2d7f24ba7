/**
 * GET /messages/{message_id}/read_receipts: who has read a message the user can access,
 * honouring each reader's send_read_receipts setting and the organization's
 * enable_read_receipts; never the sender, nor users muted by or muting the viewer.
 */
import type { ServiceContext } from '../context';
import { messageSettings } from '../db/message-settings';
import { messageReaders } from '../db/messages';
import { getUserById, readUserSettings, type UserRow } from '../db/users';
import { badRequest } from '../errors';
import { accessMessage } from './access';

export function readReceipts(ctx: ServiceContext, user: UserRow, messageId: number): number[] {
  if (!messageSettings(ctx.db).enable_read_receipts)
    throw badRequest('Read receipts are disabled in this organization.');
  const { row } = accessMessage(ctx, user, messageId);
  return messageReaders(ctx.db, row.id, user.id).filter((id) => {
    const reader = getUserById(ctx.db, id);
    return reader !== undefined && readUserSettings(reader).send_read_receipts;
  });
}
