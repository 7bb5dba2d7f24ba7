/** Custom emoji: GET /realm/emoji, POST/DELETE /realm/emoji/{emoji_name}, their images, realm_emoji events. */
import { describe, expect, it } from 'vitest';
import { type ApiClient, basicAuthHeader } from '../../shared/client';
import { authOf, call, serviceWith } from './support/service';
import { verifyAction } from './support/verify-action';

const { svc, admin, alice, bob, guest } = await serviceWith(['admin', 'alice', 'bob', 'guest']);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function addEmoji(client: ApiClient, name: string, files: [string, Buffer][] = [['e.png', PNG]]) {
  const form = new FormData();
  for (const [fileName, data] of files) form.append(fileName, new Blob([data]), fileName);
  const [email, key] = authOf(client);
  const r = await fetch(`${svc.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { Authorization: basicAuthHeader(email, key) },
    body: form,
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const remove = (client: ApiClient, name: string) =>
  call(svc.url, 'DELETE', `/realm/emoji/${encodeURIComponent(name)}`, { auth: authOf(client) });

async function emojiList(): Promise<Record<string, Record<string, unknown>>> {
  return (await call(svc.url, 'GET', '/realm/emoji', { auth: authOf(guest) })).body.emoji as Record<
    string,
    Record<string, unknown>
  >;
}

const byName = async (name: string) =>
  Object.values(await emojiList()).find((e) => e.name === name && e.deactivated === false);

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

describe('custom emoji', () => {
  it('adds one, sends the whole map to everyone, and serves its image', async () => {
    const { events, result } = await verifyAction({
      clients: [admin, alice, guest],
      action: () => addEmoji(alice, 'party-parrot'),
    });
    expect(result).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const emoji = await byName('party-parrot');
    const aliceId = (await alice.request('GET', '/users/me')).user_id;
    expect(emoji).toEqual({
      id: expect.any(String),
      name: 'party-parrot',
      source_url: expect.stringMatching(/^\/user_uploads\/emoji\/\d+\/[A-Za-z0-9_-]+\.png$/),
      still_url: null,
      deactivated: false,
      author_id: aliceId,
    });
    for (const got of events) {
      expect(got).toEqual([{ type: 'realm_emoji', op: 'update', realm_emoji: await emojiList(), id: 0 }]);
    }
    const image = await fetch(`${svc.url}${emoji?.source_url as string}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await image.arrayBuffer())).toEqual(PNG);
  });

  it('deactivates one for its author, keeping it listed as deactivated', async () => {
    await addEmoji(bob, 'bobs');
    const id = (await byName('bobs'))?.id as string;
    const { events, result } = await verifyAction({
      clients: [alice, bob],
      action: () => remove(bob, 'bobs'),
    });
    expect(result.body).toEqual({ result: 'success', msg: '' });
    const sent = events[0]?.[0]?.realm_emoji as Record<string, { deactivated: boolean }> | undefined;
    expect(sent?.[id]?.deactivated).toBe(true);
    expect((await emojiList())[id]?.deactivated).toBe(true);
    // Its name is free again.
    expect((await addEmoji(bob, 'bobs')).status).toBe(200);
  });

  it('lets administrators remove anyone’s emoji, and no one else', async () => {
    await addEmoji(bob, 'removable');
    expect((await remove(alice, 'removable')).body).toEqual(
      error('Must be an organization administrator or emoji author'),
    );
    expect((await remove(admin, 'removable')).status).toBe(200);
    expect((await remove(admin, 'removable')).body).toEqual(error("Emoji 'removable' does not exist"));
  });

  it('follows add_custom_emoji_policy, and never lets guests add', async () => {
    expect((await addEmoji(guest, 'guesty')).body).toEqual(error('Insufficient permission'));
    await call(svc.url, 'PATCH', '/realm', { auth: authOf(admin), params: { add_custom_emoji_policy: '2' } });
    try {
      expect((await addEmoji(alice, 'adminonly')).body).toEqual(error('Insufficient permission'));
      expect((await addEmoji(admin, 'adminonly')).status).toBe(200);
    } finally {
      await call(svc.url, 'PATCH', '/realm', {
        auth: authOf(admin),
        params: { add_custom_emoji_policy: '1' },
      });
    }
  });

  // [label, name, files, msg]: 400, nothing added.
  const rows: [string, string, [string, Buffer][], string][] = [
    ['an uppercase name', 'Party', [['e.png', PNG]], 'Invalid characters in emoji name'],
    ['a name ending in a dash', 'party-', [['e.png', PNG]], 'Invalid characters in emoji name'],
    ['no file', 'nofile', [], 'You must upload exactly one file.'],
    [
      'two files',
      'twofiles',
      [
        ['a.png', PNG],
        ['b.png', PNG],
      ],
      'You must upload exactly one file.',
    ],
    [
      'an SVG image',
      'svg',
      [['e.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]],
      'Invalid image format',
    ],
    ['a name in use', 'party-parrot', [['e.png', PNG]], 'A custom emoji with this name already exists.'],
  ];
  it.each(rows)('refuses %s', async (_label, name, files, msg) => {
    const before = await emojiList();
    const r = await addEmoji(alice, name, files);
    expect(r).toEqual({ status: 400, body: error(msg) });
    expect(await emojiList()).toEqual(before);
  });

  it('refuses an image over 5 MiB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const r = await addEmoji(alice, 'huge', [['huge.png', big]]);
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Uploaded file is larger than the allowed limit of 5 MiB');
  });

  it('answers 404 for an image that does not exist', async () => {
    for (const path of ['/user_uploads/emoji/987654/x.png', '/user_uploads/emoji/abc/x.png']) {
      const r = await fetch(`${svc.url}${path}`);
      expect(r.status).toBe(404);
    }
  });
});
