/** GET /messages with `has:` (link, image, attachment), negated, and its unknown operands. */
import { beforeAll, describe, expect, it } from 'vitest';
import { authOf, call, serviceWith } from './support/service';

const { svc, alice } = await serviceWith(['alice'], { rateLimits: { user: 0, ip: 0 } });

const TOPIC = 'has-operator';
const narrowTopic = [
  ['stream', 'engineering'],
  ['topic', TOPIC],
];

async function send(content: string): Promise<number> {
  const r = await call(svc.url, 'POST', '/messages', {
    auth: authOf(alice),
    params: { type: 'stream', to: 'engineering', topic: TOPIC, content },
  });
  expect(r.status).toBe(200);
  return r.body.id as number;
}

async function idsIn(narrow: unknown[]): Promise<number[]> {
  const r = await call(svc.url, 'GET', '/messages', {
    auth: authOf(alice),
    params: { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify(narrow) },
  });
  expect(r.status).toBe(200);
  return (r.body.messages as { id: number }[]).map((m) => m.id);
}

const m: Record<string, number> = {};

beforeAll(async () => {
  m.plain = await send('no links here, only text about /user_uploads/ and image.png');
  m.link = await send('see https://example.com/page for details');
  m.upload = await send('[report.pdf](/user_uploads/2/ab/xyz/report.pdf)');
  m.uploadImage = await send('[cat.png](/user_uploads/2/cd/xyz/cat.png)');
  m.absoluteUpload = await send('[notes.txt](https://chat.example.com/user_uploads/2/ef/xyz/notes.txt)');
  m.imageLink = await send('[photo](https://example.com/photo.JPG)');
  // Content no Markdown of ours makes yet: an image element, and the family's inline preview.
  m.img = await send('an image element');
  svc.sql(
    'UPDATE messages SET rendered_content = ? WHERE id = ?',
    '<p><img src="/static/x.gif" alt="x"></p>',
    m.img,
  );
  m.preview = await send('an inline preview');
  svc.sql(
    'UPDATE messages SET rendered_content = ? WHERE id = ?',
    '<p>look</p><div class="message_inline_image"><span>x</span></div>',
    m.preview,
  );
});

describe('has: narrows', () => {
  it('has:link keeps messages whose rendered content has a link', async () => {
    expect(await idsIn([...narrowTopic, ['has', 'link']])).toEqual([
      m.link,
      m.upload,
      m.uploadImage,
      m.absoluteUpload,
      m.imageLink,
    ]);
  });

  it('has:image keeps image elements, inline previews and links to image files', async () => {
    expect(await idsIn([...narrowTopic, ['has', 'image']])).toEqual([
      m.uploadImage,
      m.imageLink,
      m.img,
      m.preview,
    ]);
  });

  it('has:attachment keeps links to uploaded files, relative or absolute', async () => {
    expect(await idsIn([...narrowTopic, { operator: 'has', operand: 'attachment' }])).toEqual([
      m.upload,
      m.uploadImage,
      m.absoluteUpload,
    ]);
  });

  it('negated has: keeps the others', async () => {
    expect(await idsIn([...narrowTopic, { operator: 'has', operand: 'link', negated: true }])).toEqual([
      m.plain,
      m.img,
      m.preview,
    ]);
    expect(await idsIn([...narrowTopic, { operator: 'has', operand: 'attachment', negated: true }])).toEqual([
      m.plain,
      m.link,
      m.imageLink,
      m.img,
      m.preview,
    ]);
    expect(
      await idsIn([...narrowTopic, ['has', 'link'], { operator: 'has', operand: 'image', negated: true }]),
    ).toEqual([m.link, m.upload, m.absoluteUpload]);
  });

  it.each([
    ['unknown operand', ['has', 'video'], "Invalid narrow operator: unknown 'has' operand video"],
    ['operand not text', ['has', 5], 'Invalid narrow operator: invalid operand for has'],
  ])('%s is BAD_NARROW', async (_name, term, msg) => {
    const r = await call(svc.url, 'GET', '/messages', {
      auth: authOf(alice),
      params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([term]) },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ result: 'error', msg, code: 'BAD_NARROW' });
  });
});
