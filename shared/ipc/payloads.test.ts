/**
 * The typed write payloads of the IPC contract: settings.update and
 * subscriptions.updateProperties take the names and value types of shared/protocol/settings.ts.
 * A wrong name or value type is refused at run time (the router answers BAD_REQUEST) and is a
 * type error at compile time (the `@ts-expect-error` lines fail `npm run typecheck` otherwise).
 */
import { describe, expect, it } from 'vitest';
import { type InvokeRequest, invokeSchemas } from './index';

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
