/** The local drafts log: replay, compaction, and durability through kill -9. */
import { spawn } from 'node:child_process';
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, REPO_ROOT, removeDir } from '../../../test/support/server';
import { DraftLog, draftsFileFor, replay } from './log';
import { DraftsService } from './service';

let root: string;
beforeAll(async () => {
  root = await makeTempDir('confab-drafts-log-');
});
afterAll(async () => {
  if (root) await removeDir(root);
});

let counter = 0;
const freshFile = () => join(root, `p${++counter}`, 'drafts', 'acct-test.jsonl');

describe('the drafts log', () => {
  it('lives in the profile directory per account, and never outside it', () => {
    expect(draftsFileFor('/profile', 'acct-0123abcd')).toBe('/profile/drafts/acct-0123abcd.jsonl');
    expect(draftsFileFor('/profile', '../../etc/passwd')).toMatch(/^\/profile\/drafts\/[0-9a-f]{32}\.jsonl$/);
  });

  it('replays to the last state, skips a torn last line, and compacts on open (0600)', async () => {
    const file = freshFile();
    const first = await DraftsService.open({ file });
    const a = await first.save({ type: '', to: [], topic: '', content: 'one' });
    await first.save({ type: '', to: [], topic: '', content: 'one two', localId: a.localId });
    const b = await first.save({ type: 'private', to: [9], topic: '', content: 'gone soon' });
    await first.delete(b.localId);
    await first.close();
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(5);
    // A crash in the middle of a write leaves half a line.
    await appendFile(file, '{"op":"put","draft":{"localId":"x","con');

    const { log, contents } = await DraftLog.open(file);
    await log.close();
    expect([...contents.drafts.values()].map((d) => d.content)).toEqual(['one two']);
    expect(contents.syncEnabled).toBeNull();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).op)).toEqual(['sync', 'put']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(replay('not json\n{"op":"nope"}\n').drafts.size).toBe(0);
  });

  it('compacts itself while in use, keeping the latest text', { timeout: 120_000 }, async () => {
    const file = freshFile();
    const drafts = await DraftsService.open({ file });
    const draft = await drafts.save({ type: '', to: [], topic: '', content: 'v0' });
    for (let n = 1; n <= 2_100; n++) {
      await drafts.save({ type: '', to: [], topic: '', content: `v${n}`, localId: draft.localId });
    }
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.length).toBeLessThan(200);
    expect(drafts.list().map((d) => d.content)).toEqual(['v2100']);
    await drafts.close();
    expect([...replay(await readFile(file, 'utf8')).drafts.values()].map((d) => d.content)).toEqual([
      'v2100',
    ]);
  });

  it('keeps every acknowledged edit through kill -9', { timeout: 120_000 }, async () => {
    const file = freshFile();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'test/support/drafts-crash-child.ts'), file],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, s) => resolve(s)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child wrote too little:\n${out}\n${err}`)), 60_000);
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        // Killed in the middle of its writing, after at least 30 acknowledged saves.
        if (out.split('\n').length > 30 && child.exitCode === null) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(`child exited early:\n${err}`)));
    });
    expect(await exited).toBe('SIGKILL');

    // The last acknowledged content of every draft the child reported.
    const acknowledged = new Map<string, string>();
    for (const line of out.split('\n')) {
      const match = /^saved (\S+) (".*")$/.exec(line);
      if (match?.[1] && match[2]) acknowledged.set(match[1], JSON.parse(match[2]) as string);
    }
    expect(acknowledged.size).toBeGreaterThan(10);
    const contents = replay(await readFile(file, 'utf8')).drafts;
    for (const [localId, content] of acknowledged) {
      const found = contents.get(localId);
      expect(found, `draft ${localId}`).toBeDefined();
      // Equal, or a later edit the child made but had not yet printed.
      expect(Number(found?.content.split(' ')[1])).toBeGreaterThanOrEqual(Number(content.split(' ')[1]));
    }
  });
});
