/** Small file helpers shared by the stores of the profile directory. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * Writes `data` to `file` so that a reader (or a crash) sees either the old or the new
 * contents, never half of one: write a temp file in the same directory, fsync, rename.
 * The temp file is created with `mode` and chmodded again, because a umask can only narrow
 * a mode and an existing file keeps its own.
 */
export async function writeFileAtomic(file: string, data: string, mode = 0o600): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(tmp, mode);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** The file's text, or null when it does not exist. */
export async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * A profile file that holds nothing precious, read against its schema: its data, or null when
 * it does not exist. A damaged one (not JSON, or not of the schema) is set aside as
 * `<file>.damaged-<ms>` for a human to look at, and reads as null: the app starts rather than
 * refuse to.
 */
export async function readJsonOrSetAside<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.infer<S> | null> {
  const text = await readTextIfExists(file);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  await rename(file, `${file}.damaged-${Date.now()}`);
  return null;
}

/** Runs async tasks one at a time, in call order (read-modify-write of one file). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
