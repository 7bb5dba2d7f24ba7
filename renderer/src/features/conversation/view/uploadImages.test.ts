/**
 * The inline images' cache: at most so many, least recently used first out, one load per
 * image however many rows ask at once, failures not kept; and the pure helpers (data URL, box).
 */
import { describe, expect, it } from 'vitest';
import {
  fitImage,
  imageDataUrl,
  type LoadedImage,
  LruCache,
  MAX_CACHED_IMAGES,
  UploadImageCache,
} from './uploadImages';

describe('LruCache', () => {
  it('forgets the least recently used entry beyond its count; a read makes an entry recent', () => {
    const cache = new LruCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.keys()).toEqual(['c', 'a', 'd']);
    expect(cache.get('b')).toBeUndefined();
    cache.set('c', 30);
    expect(cache.keys()).toEqual(['a', 'd', 'c']);
    expect(cache.get('c')).toBe(30);
    cache.delete('a');
    expect(cache.size).toBe(2);
  });

  it('forgets the oldest entries beyond its total weight, but never the newest', () => {
    const cache = new LruCache<string, string>(10, 10, (v) => v.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx');
    expect(cache.keys()).toEqual(['b', 'c']);
    cache.set('big', 'x'.repeat(20));
    expect(cache.keys()).toEqual(['big']);
    cache.set('d', 'xx');
    expect(cache.keys()).toEqual(['d']);
    // Replacing a value counts its new weight only.
    cache.set('e', 'xxxx');
    cache.set('e', 'xxxxxxxx');
    expect(cache.keys()).toEqual(['d', 'e']);
  });
});

const image = (n: number): LoadedImage => ({ src: `data:image/png;base64,${n}`, width: n, height: n });

function countingCache(fail = new Set<string>()) {
  const loads: string[] = [];
  const resolvers: (() => void)[] = [];
  const cache = new UploadImageCache(
    (accountId, path) =>
      new Promise<LoadedImage>((resolve, reject) => {
        loads.push(`${accountId} ${path}`);
        resolvers.push(() =>
          fail.has(path) ? reject(new Error(`no ${path}`)) : resolve(image(loads.length)),
        );
      }),
  );
  const settle = () => {
    for (const r of resolvers.splice(0)) r();
  };
  return { cache, loads, settle };
}

describe('UploadImageCache', () => {
  it('loads an image once however many rows ask, then answers it from memory', async () => {
    const { cache, loads, settle } = countingCache();
    expect(cache.peek('a1', '/user_uploads/1/ab/cd/x.png')).toBeUndefined();
    const first = cache.get('a1', '/user_uploads/1/ab/cd/x.png');
    const second = cache.get('a1', '/user_uploads/1/ab/cd/x.png');
    expect(loads).toEqual(['a1 /user_uploads/1/ab/cd/x.png']);
    settle();
    expect(await first).toEqual(image(1));
    expect(await second).toBe(await first);
    expect(cache.peek('a1', '/user_uploads/1/ab/cd/x.png')).toEqual(image(1));
    expect(await cache.get('a1', '/user_uploads/1/ab/cd/x.png')).toEqual(image(1));
    // Another account's file of the same path is another image.
    const other = cache.get('a2', '/user_uploads/1/ab/cd/x.png');
    settle();
    expect(await other).toEqual(image(2));
    expect(loads).toHaveLength(2);
  });

  it(`keeps the ${MAX_CACHED_IMAGES} most recently used images`, async () => {
    const { cache, loads, settle } = countingCache();
    const path = (n: number) => `/user_uploads/1/ab/cd/${n}.png`;
    for (let n = 0; n <= MAX_CACHED_IMAGES; n++) {
      const pending = cache.get('a1', path(n));
      settle();
      await pending;
      // The first is seen again on the way (scrolled back to): it stays.
      if (n === MAX_CACHED_IMAGES - 1) expect(cache.peek('a1', path(0))).toBeDefined();
    }
    expect(loads).toHaveLength(MAX_CACHED_IMAGES + 1);
    expect(cache.peek('a1', path(0))).toBeDefined();
    expect(cache.peek('a1', path(1))).toBeUndefined();
    expect(cache.peek('a1', path(2))).toBeDefined();
    expect(cache.peek('a1', path(MAX_CACHED_IMAGES))).toBeDefined();
  });

  it('keeps no failure: the next row to ask loads again', async () => {
    const { cache, loads, settle } = countingCache(new Set(['/user_uploads/1/ab/cd/bad.png']));
    const failed = cache.get('a1', '/user_uploads/1/ab/cd/bad.png');
    settle();
    await expect(failed).rejects.toThrow('no /user_uploads/1/ab/cd/bad.png');
    expect(cache.peek('a1', '/user_uploads/1/ab/cd/bad.png')).toBeUndefined();
    const again = cache.get('a1', '/user_uploads/1/ab/cd/bad.png');
    settle();
    await expect(again).rejects.toThrow();
    expect(loads).toHaveLength(2);
  });
});

describe('imageDataUrl and fitImage', () => {
  it('makes data URLs of the four image types only, of base64 text only', () => {
    expect(imageDataUrl('image/png', 'iVBORw0K')).toBe('data:image/png;base64,iVBORw0K');
    expect(imageDataUrl('image/GIF; charset=binary', 'R0lG')).toBe('data:image/gif;base64,R0lG');
    expect(imageDataUrl('image/svg+xml', 'PHN2Zz4=')).toBeNull();
    expect(imageDataUrl('text/html', 'PGI+')).toBeNull();
    expect(imageDataUrl('image/png', 'not base64!')).toBeNull();
    expect(imageDataUrl('image/png', 'abc')).toBeNull();
  });

  it('scales an image down to fit the box, keeping its shape, never up', () => {
    expect(fitImage({ width: 1, height: 1 }, 360, 240)).toEqual({ width: 1, height: 1 });
    expect(fitImage({ width: 1920, height: 1080 }, 360, 240)).toEqual({ width: 360, height: 203 });
    expect(fitImage({ width: 800, height: 1600 }, 360, 240)).toEqual({ width: 120, height: 240 });
    expect(fitImage({ width: 10000, height: 1 }, 360, 240)).toEqual({ width: 360, height: 1 });
    expect(fitImage({ width: 0, height: 0 }, 360, 240)).toEqual({ width: 360, height: 240 });
  });
});
