/**
 * A message's rendered content on screen: the server's HTML sanitized again (content.ts) and
 * drawn with the app's own pieces: emoji in the account's `emojiset`, mentions (one's own
 * highlighted), spoilers that open and close, uploaded files as links and uploaded images inline.
 *
 * Uploaded files: the server serves them only with the account's credentials, which the
 * renderer never holds, and the CSP loads no image from the server. So a file shows as a link
 * with its name; opening it asks the main process for a temporary URL (GET /user_uploads/…
 * answers one, valid for a minute, needing no credentials) and opens that outside the app.
 * An image is shown inline: its bytes come from the main process (`uploads.image`) as a
 * `data:` URL when its row mounts, kept in a small cache (uploadImages.ts), in a bounded box;
 * clicking it opens the file as a link does; when it cannot be had, its link shows instead.
 */
import { Paperclip } from 'lucide-react';
import { memo, type ReactNode, useEffect, useMemo, useState } from 'react';
import type { RealmEmoji } from '../../../../../shared/protocol';
import { call, getBridge } from '../../../bridge';
import { callApi } from '../../../bridge/api';
import { useAccountId, useAccountState, useAccounts, useOwnUserId, useSetting } from '../../../stores/hooks';
import { cx, Emoji, useSheetIndex } from '../../../ui';
import { emojiLookOf, type SheetIndex } from '../../../ui/emojiSheet';
import { type ContentContext, type ContentRenderers, convertContent, type EmojiRef } from './content';
import { fitImage, imageDataUrl, type LoadedImage, UploadImageCache } from './uploadImages';

const namesByCode = new WeakMap<SheetIndex, Map<string, string>>();
function nameOfCode(index: SheetIndex, code: string): string | null {
  let names = namesByCode.get(index);
  if (!names) {
    names = new Map();
    for (const [name, key] of index.byName) if (!names.has(key)) names.set(key, name);
    namesByCode.set(index, names);
  }
  return names.get(code) ?? null;
}

/** Opens an uploaded file outside the app by its temporary URL; the failure to show, if any. */
function useOpenUpload(path: string): { open: () => Promise<void>; error: string | null; href: string } {
  const accountId = useAccountId();
  const serverUrl = useAccounts().find((a) => a.id === accountId)?.serverUrl;
  const [error, setError] = useState<string | null>(null);
  const href = serverUrl ? new URL(path, serverUrl).href : path;
  const open = async () => {
    setError(null);
    try {
      const body = await callApi<{ url?: string }>(getBridge(), accountId, 'GET', path);
      if (!body.url) throw new Error('The server gave no address for this file.');
      window.open(new URL(body.url, serverUrl ?? window.location.href).href, '_blank', 'noopener,noreferrer');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return { open, error, href };
}

function UploadOpenError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <span className="message-upload-error" role="alert">
      {' '}
      Could not open the file: {error}
    </span>
  );
}

function UploadLink({ path, children }: { path: string; children: ReactNode[] }) {
  const { open, error, href } = useOpenUpload(path);
  return (
    <span className="message-upload">
      <a
        href={href}
        onClick={(event) => {
          event.preventDefault();
          void open();
        }}
      >
        <Paperclip size={13} aria-hidden="true" className="message-upload-icon" />
        {children}
      </a>
      <UploadOpenError error={error} />
    </span>
  );
}

/** The largest box an inline image is drawn in (CSS pixels); view.css has the same. */
const IMAGE_MAX_WIDTH = 360;
const IMAGE_MAX_HEIGHT = 240;

/** An image's bytes from the main process, decoded once to learn its size. */
async function loadUploadImage(accountId: string, path: string): Promise<LoadedImage> {
  const { contentType, dataBase64 } = await call('uploads.image', { accountId, path });
  const src = imageDataUrl(contentType, dataBase64);
  if (src === null) throw new Error(`Not an image: ${contentType}`);
  const image = new Image();
  image.src = src;
  await image.decode();
  return { src, width: image.naturalWidth, height: image.naturalHeight };
}

/** Every window's inline images: 50 at most, so scrolling back shows them without a request. */
const uploadImages = new UploadImageCache(loadUploadImage);

/** One image's state, for the account and path it was asked for (`key`). */
interface ImageState {
  key: string;
  image?: LoadedImage | undefined;
  failed?: true;
}

/** An uploaded image, asked for when it mounts (rows are virtualized), or its link on failure. */
function UploadImagePreview({ path, name, children }: { path: string; name: string; children: ReactNode[] }) {
  const accountId = useAccountId();
  const key = `${accountId}\n${path}`;
  const [state, setState] = useState<ImageState>(() => ({ key, image: uploadImages.peek(accountId, path) }));
  const current: ImageState = state.key === key ? state : { key, image: uploadImages.peek(accountId, path) };
  const { open, error } = useOpenUpload(path);
  const loaded = current.image;
  const failed = current.failed === true;

  useEffect(() => {
    if (loaded || failed) return;
    let live = true;
    uploadImages.get(accountId, path).then(
      (image) => live && setState({ key, image }),
      () => live && setState({ key, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [accountId, path, key, loaded, failed]);

  if (failed) return <UploadLink path={path}>{children}</UploadLink>;
  const box = loaded ? fitImage(loaded, IMAGE_MAX_WIDTH, IMAGE_MAX_HEIGHT) : null;
  return (
    <span className="message-image">
      <button
        type="button"
        className="message-image-button"
        aria-label={`Open ${name}`}
        aria-busy={loaded ? undefined : true}
        onClick={() => void open()}
      >
        {loaded && box ? (
          <img src={loaded.src} alt={name} width={box.width} height={box.height} draggable={false} />
        ) : (
          <span className="message-image-placeholder" />
        )}
      </button>
      <UploadOpenError error={error} />
    </span>
  );
}

export const MessageContent = memo(function MessageContent({
  html,
  isMeMessage = false,
}: {
  html: string;
  isMeMessage?: boolean;
}) {
  const ownUserId = useOwnUserId();
  const accountId = useAccountId();
  const serverUrl = useAccounts().find((a) => a.id === accountId)?.serverUrl;
  const realmEmoji = useAccountState((a) => a.realmEmoji);
  const look = emojiLookOf(useSetting('emojiset'));
  // The emoji data (names and codes), loaded once for any set: `:name:` in text needs the names.
  const index = useSheetIndex();

  const ctx = useMemo<ContentContext>(() => {
    const render: ContentRenderers = {
      emoji: (emoji: EmojiRef, key: string) => (
        <Emoji key={key} name={emoji.name} code={emoji.code} type={emoji.type} className="message-emoji" />
      ),
      mention: ({ userId, groupId, silent }, children, key) => (
        <span
          key={key}
          className={cx(
            'user-mention',
            silent && 'user-mention-silent',
            !silent &&
              groupId === undefined &&
              (userId === null || userId === ownUserId) &&
              'user-mention-me',
          )}
        >
          {children}
        </span>
      ),
      upload: (path, children, key) => (
        <UploadLink key={key} path={path}>
          {children}
        </UploadLink>
      ),
      image: ({ path, name }, fallback, key) => (
        <UploadImagePreview key={key} path={path} name={name}>
          {fallback}
        </UploadImagePreview>
      ),
    };
    const realmByName = new Map<string, RealmEmoji>();
    for (const emoji of Object.values(realmEmoji)) if (!emoji.deactivated) realmByName.set(emoji.name, emoji);
    return {
      render,
      serverUrl,
      emojiByName(name) {
        const realm = realmByName.get(name);
        if (realm) return { name, code: String(realm.id), type: 'realm_emoji' };
        const code = index?.byName.get(name);
        return code ? { name, code, type: 'unicode_emoji' } : null;
      },
      // The font draws emoji characters for the native and text sets; the image sets draw their own.
      ...(index && (look === 'google' || look === 'twitter')
        ? { emojiNameOfCode: (code: string) => nameOfCode(index, code) }
        : {}),
    };
  }, [ownUserId, serverUrl, realmEmoji, index, look]);

  const nodes = useMemo(() => {
    const body = new DOMParser().parseFromString(isMeMessage ? stripMe(html) : html, 'text/html').body;
    return convertContent(body, ctx);
  }, [html, isMeMessage, ctx]);

  return <div className={cx('message-content', isMeMessage && 'message-content-me')}>{nodes}</div>;
});

/** A /me message's text without its "/me " (the sender's name is shown before it instead). */
export function stripMe(html: string): string {
  return html.replace(/^(\s*<p>)\/me\s?/u, '$1');
}
