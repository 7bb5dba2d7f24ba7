/**
 * An organization's custom emoji image. The renderer loads nothing from the server itself (its
 * CSP allows only its own files, and it never holds the account's key): the main process
 * fetches GET /user_uploads/emoji/{emoji_id}/{filename} (the address register's realm_emoji
 * gives as source_url) through api.call and answers its bytes, shown here as a data: URL,
 * which the CSP's img-src allows. An image at one address never changes (a new upload gets a
 * new id), so it is fetched once per window.
 */
import { useApiQuery } from '../queries/api';
import { useAccountState } from '../stores/hooks';

/** What the main process answers for an emoji image (electron/core/api-proxy.ts). */
export interface EmojiImageBody {
  content_type: string;
  data_base64: string;
}

const IMAGE_TYPES = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp']);

/** The data: URL of an answer, or null when it is not an image of a type shown here. */
export function emojiImageDataUrl(body: Partial<EmojiImageBody> | null | undefined): string | null {
  if (!body || typeof body.content_type !== 'string' || typeof body.data_base64 !== 'string') return null;
  const type = body.content_type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!IMAGE_TYPES.has(type) || !/^[A-Za-z0-9+/]*={0,2}$/.test(body.data_base64)) return null;
  return `data:${type};base64,${body.data_base64}`;
}

/** The image of the custom emoji with this id (as a data: URL), null while loading or without one. */
export function useRealmEmojiImage(emojiId: string | undefined): string | null {
  const sourceUrl = useAccountState((a) =>
    emojiId === undefined ? undefined : a.realmEmoji[emojiId]?.source_url,
  );
  const image = useApiQuery<EmojiImageBody, string | null>(sourceUrl ?? '', undefined, {
    enabled: sourceUrl?.startsWith('/user_uploads/emoji/') === true,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30 * 60_000,
    retry: 1,
    select: emojiImageDataUrl,
  });
  return image.data ?? null;
}
