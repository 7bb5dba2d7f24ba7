/**
 * The typed write payloads of the IPC contract: settings.update and
 * subscriptions.updateProperties take the names and value types of shared/protocol/settings.ts.
 * A wrong name or value type is refused at run time (the router answers BAD_REQUEST) and is a
 * type error at compile time (the `@ts-expect-error` lines fail `npm run typecheck` otherwise).
 */
import { describe, expect, it } from 'vitest';
import { DND_FOREVER, type InvokeRequest, invokeSchemas, isUploadFilePath } from './index';

const settings = (changes: unknown) =>
  invokeSchemas['settings.update'].safeParse({ accountId: 'a1', changes }).success;
const properties = (...updates: unknown[]) =>
  invokeSchemas['subscriptions.updateProperties'].safeParse({ accountId: 'a1', updates }).success;

describe('settings.update', () => {
  it('takes settings of the table with values of their types', () => {
    expect(settings({ twenty_four_hour_time: true, color_scheme: 2, emojiset: 'text' })).toBe(true);
    expect(settings({ default_language: 'de', timezone: 'Europe/Berlin' })).toBe(true);
    // Ranges are the server's to check, in its own words ("Invalid color_scheme").
    expect(settings({ color_scheme: 99 })).toBe(true);
  });

  it('refuses unknown names and values of another type', () => {
    expect(settings({ no_such_setting: true })).toBe(false);
    expect(settings({ dense_mode: 'yes' })).toBe(false);
    expect(settings({ color_scheme: '2' })).toBe(false);
    expect(settings({ emojiset: 'setC' })).toBe(false);
    expect(settings({ default_language: null })).toBe(false);
  });

  it('is typed by the table', () => {
    const ok: InvokeRequest<'settings.update'> = { accountId: 'a1', changes: { dense_mode: false } };
    const wrongValue: InvokeRequest<'settings.update'> = {
      accountId: 'a1',
      // @ts-expect-error dense_mode is a boolean
      changes: { dense_mode: 'no' },
    };
    const wrongName: InvokeRequest<'settings.update'> = {
      accountId: 'a1',
      // @ts-expect-error not a setting
      changes: { dense_mod: false },
    };
    expect([ok, wrongValue, wrongName].map((r) => settings(r.changes))).toEqual([true, false, false]);
  });
});

describe('subscriptions.updateProperties', () => {
  it('takes the properties of the table with values of their types', () => {
    expect(
      properties(
        { stream_id: 1, property: 'is_muted', value: true },
        { stream_id: 1, property: 'color', value: '#abcdef' },
        // null: follow the user's own setting.
        { stream_id: 1, property: 'desktop_notifications', value: null },
      ),
    ).toBe(true);
  });

  it('refuses unknown properties and values of another type', () => {
    expect(properties({ stream_id: 1, property: 'no_such_property', value: true })).toBe(false);
    expect(properties({ stream_id: 1, property: 'color', value: true })).toBe(false);
    expect(properties({ stream_id: 1, property: 'pin_to_top', value: null })).toBe(false);
    expect(properties({ stream_id: 0, property: 'pin_to_top', value: true })).toBe(false);
  });

  it('is typed by the table', () => {
    type Update = InvokeRequest<'subscriptions.updateProperties'>['updates'][number];
    const ok: Update = { stream_id: 1, property: 'audible_notifications', value: null };
    // @ts-expect-error is_muted takes a boolean, not null
    const wrongValue: Update = { stream_id: 1, property: 'is_muted', value: null };
    // @ts-expect-error not a subscription property
    const wrongName: Update = { stream_id: 1, property: 'is_mute', value: true };
    expect([ok, wrongValue, wrongName].map((u) => properties(u))).toEqual([true, false, false]);
  });
});

describe('api.call', () => {
  const call = (payload: Record<string, unknown>) =>
    invokeSchemas['api.call'].safeParse({ accountId: 'a1', method: 'GET', path: '/users/me', ...payload })
      .success;

  it('takes a method, a path and JSON params', () => {
    expect(call({})).toBe(true);
    expect(call({ method: 'POST', path: '/users/me/alert_words', params: { alert_words: ['x'] } })).toBe(
      true,
    );
    expect(call({ method: 'DELETE', params: { nested: { a: [1, null, 'b'] } } })).toBe(true);
  });

  it('refuses other methods, paths without a leading slash or over 500 characters', () => {
    expect(call({ method: 'PUT' })).toBe(false);
    expect(call({ method: 'get' })).toBe(false);
    expect(call({ path: 'users/me' })).toBe(false);
    expect(call({ path: '' })).toBe(false);
    expect(call({ path: `/${'a'.repeat(499)}` })).toBe(true);
    expect(call({ path: `/${'a'.repeat(500)}` })).toBe(false);
  });

  it('bounds params to 1 MB of JSON (UTF-8 bytes) and refuses what has no JSON', () => {
    const budget = 1_000_000 - '{"t":""}'.length;
    expect(call({ params: { t: 'x'.repeat(budget) } })).toBe(true);
    expect(call({ params: { t: 'x'.repeat(budget + 1) } })).toBe(false);
    // Two bytes each in UTF-8.
    expect(call({ params: { t: 'é'.repeat(Math.floor(budget / 2) + 1) } })).toBe(false);
    expect(call({ params: ['x'] })).toBe(false);
    expect(call({ params: { n: 1n } })).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(call({ params: cycle })).toBe(false);
  });
});

describe('api.upload', () => {
  const upload = (payload: Record<string, unknown>) =>
    invokeSchemas['api.upload'].safeParse({
      accountId: 'a1',
      path: '/user_uploads',
      fileName: 'a.txt',
      mimeType: 'text/plain',
      dataBase64: 'aGk=',
      ...payload,
    }).success;

  it('takes a file name, a media type and base64 data', () => {
    expect(upload({})).toBe(true);
    expect(upload({ mimeType: '', dataBase64: '' })).toBe(true);
    expect(upload({ dataBase64: 'aGVsbG8=' })).toBe(true);
  });

  it('refuses data that is not base64, names with control characters, empty names', () => {
    expect(upload({ dataBase64: 'aGk' })).toBe(false);
    expect(upload({ dataBase64: 'a*k=' })).toBe(false);
    expect(upload({ dataBase64: 'aG=k' })).toBe(false);
    expect(upload({ fileName: '' })).toBe(false);
    expect(upload({ fileName: 'a\u0000.txt' })).toBe(false);
    expect(upload({ fileName: 'x'.repeat(256) })).toBe(false);
  });

  it('takes files of up to 25 MiB', () => {
    const max = 25 * 1024 * 1024;
    // 25 MiB is not a multiple of 3: the last group carries one byte and two "=".
    const exact = `${'A'.repeat(Math.floor(max / 3) * 4)}AA==`;
    expect(Buffer.from(exact, 'base64').length).toBe(max);
    expect(upload({ dataBase64: exact })).toBe(true);
    expect(upload({ dataBase64: `${'A'.repeat(Math.floor(max / 3) * 4)}AAA=` })).toBe(false);
  });
});

describe('uploads.image', () => {
  const image = (path: unknown) =>
    invokeSchemas['uploads.image'].safeParse({ accountId: 'a1', path }).success;

  it("takes an uploaded file's path: a numeric realm, then three plain segments", () => {
    expect(image('/user_uploads/2/ab/Xy_z-9/cat-photo.png')).toBe(true);
    expect(image('/user_uploads/2/ab/cd/caf%C3%A9.jpg')).toBe(true);
    expect(isUploadFilePath('/user_uploads/2/ab/cd/report.pdf')).toBe(true);
  });

  it('refuses any other path: other pages, dot segments, encoded slashes, queries, other hosts', () => {
    for (const path of [
      '',
      'user_uploads/2/ab/cd/x.png',
      '/user_uploads/2/ab/x.png',
      '/user_uploads/2/ab/cd/ef/x.png',
      '/user_uploads/emoji/1/x.png',
      '/user_uploads/temporary/1.2.sig/x.png',
      '/user_uploads/2/ab/../x.png',
      '/user_uploads/2/ab/%2e%2E/x.png',
      '/user_uploads/2/ab/cd/%2F',
      '/user_uploads/2/ab/cd/a%5Cb.png',
      '/user_uploads/2/ab/cd/%E0%A4%A.png',
      '/user_uploads/2/ab/cd/x.png?a=1',
      '/user_uploads/2/ab/cd/café.png',
      '/user_uploads/2//cd/x.png',
      `/user_uploads/2/ab/cd/${'a'.repeat(101)}`,
      'https://example.com/user_uploads/2/ab/cd/x.png',
    ]) {
      expect(image(path), path).toBe(false);
    }
    expect(image(42)).toBe(false);
  });
});

describe('dnd.set', () => {
  const set = (until: unknown) => invokeSchemas['dnd.set'].safeParse({ until }).success;

  it('takes an end in whole epoch ms up to DND_FOREVER, or null (off)', () => {
    expect(set(null)).toBe(true);
    expect(set(1_893_456_000_000)).toBe(true);
    expect(set(DND_FOREVER)).toBe(true);
    // An end already past is taken (it turns do not disturb off).
    expect(set(0)).toBe(true);
  });

  it('refuses negative, fractional, non-finite, absurdly far and other types', () => {
    for (const bad of [
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      DND_FOREVER + 1,
      Number.MAX_SAFE_INTEGER,
      '1893456000000',
      true,
      [],
      undefined,
    ]) {
      expect(set(bad)).toBe(false);
    }
    expect(invokeSchemas['dnd.set'].safeParse({}).success).toBe(false);
    expect(invokeSchemas['dnd.set'].safeParse(null).success).toBe(false);
  });

  it('is typed', () => {
    const ok: InvokeRequest<'dnd.set'> = { until: null };
    // @ts-expect-error until is epoch ms, not a date string
    const wrong: InvokeRequest<'dnd.set'> = { until: '2030-01-01' };
    expect([ok, wrong].map((r) => set(r.until))).toEqual([true, false]);
  });
});
