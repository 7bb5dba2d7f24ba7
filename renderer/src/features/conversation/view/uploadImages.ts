/**
 * Uploaded images shown inline in messages: each one's bytes come from the main process
 * (`uploads.image`: the file needs the account's credentials, and the CSP loads images only
 * from the app and `data:` URLs), as a `data:` URL, with the image's size once decoded so a
 * row drawn again reserves its exact box at once.
 *
 * Rows are virtualized: a row scrolled back into view mounts again, so the images are kept in
 * a small LRU cache (at most 50, and a bound on their total size), and one image asked for by
 * several rows at once is fetched once. A failure is not kept: the next mount tries again.
 */

/** A loaded image: its `data:` URL and its size in pixels. */
export interface LoadedImage {
  src: string;
  width: number;
  height: number;
}

/** A map that forgets its least recently used entries beyond a count and a total weight. */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, now the most recently used; undefined when not held. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Holds the value as the most recently used; the oldest go until both bounds hold (never the newest). */
  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.weight += this.weigh(value);
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      if (oldest === key) break;
      this.entries.delete(oldest);
      this.weight -= this.weigh(old);
    }
  }

  delete(key: K): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.weight -= this.weigh(value);
  }

  keys(): K[] {
    return [...this.entries.keys()];
  }
}

/** How many images are kept. */
export const MAX_CACHED_IMAGES = 50;
/** Their `data:` URLs' total length at most (characters; a 10 MiB image is about 14 million). */
export const MAX_CACHED_IMAGE_CHARS = 64 * 1024 * 1024;

/** Loads one image of an account; the cache calls it once per image until it is held. */
export type ImageLoader = (accountId: string, path: string) => Promise<LoadedImage>;

/** The images of every account, by account and upload path. */
export class UploadImageCache {
  private readonly images: LruCache<string, LoadedImage>;
  private readonly loading = new Map<string, Promise<LoadedImage>>();

  constructor(
    private readonly load: ImageLoader,
    maxEntries = MAX_CACHED_IMAGES,
    maxChars = MAX_CACHED_IMAGE_CHARS,
  ) {
    this.images = new LruCache(maxEntries, maxChars, (image) => image.src.length);
  }

  /** The image when held (now the most recently used), else undefined. */
  peek(accountId: string, path: string): LoadedImage | undefined {
    return this.images.get(keyOf(accountId, path));
  }

  /** The image: held, being loaded (the same promise), or loaded now. */
  get(accountId: string, path: string): Promise<LoadedImage> {
    const key = keyOf(accountId, path);
    const held = this.images.get(key);
    if (held) return Promise.resolve(held);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(accountId, path).then(
        (image) => {
          this.loading.delete(key);
          this.images.set(key, image);
          return image;
        },
        (error: unknown) => {
          this.loading.delete(key);
          throw error;
        },
      );
      this.loading.set(key, pending);
    }
    return pending;
  }
}

const keyOf = (accountId: string, path: string) => `${accountId}\n${path}`;

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp']);

/** A `data:` URL of the bytes uploads.image answered; null for another type or text not base64. */
export function imageDataUrl(contentType: string, dataBase64: string): string | null {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!IMAGE_TYPES.has(type) || dataBase64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(dataBase64)) {
    return null;
  }
  return `data:${type};base64,${dataBase64}`;
}

/**
 * The box an image is shown in: its own size, scaled down (never up) to fit `maxWidth` ×
 * `maxHeight`, at least a pixel each way.
 */
export function fitImage(
  image: { width: number; height: number },
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  if (!(image.width > 0 && image.height > 0)) return { width: maxWidth, height: maxHeight };
  const scale = Math.min(1, maxWidth / image.width, maxHeight / image.height);
  return {
    width: Math.max(1, Math.round(image.width * scale)),
    height: Math.max(1, Math.round(image.height * scale)),
  };
}
