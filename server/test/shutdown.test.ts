/** A SIGTERM ends the server process at once, even while a client polls in a loop. */
import { expect, it } from 'vitest';
import { loginAs, startServerProcess } from '../../test/support/server';

it('SIGTERM ends the server promptly while a client keeps polling', async () => {
  const server = await startServerProcess({ demo: true });
  const client = await loginAs(server, 'alice');
  const q = await client.registerQueue({});
  let stop = false;
  let markStopped = () => {};
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve;
  });
  const loop = (async () => {
    let last = q.last_event_id;
    while (!stop) {
      try {
        const r = await client.getEvents({ queue_id: q.queue_id as string, last_event_id: last });
        for (const e of r.events) last = Math.max(last, e.id);
      } catch {
        // The server went away, as the test is stopping it: wait for that, not for a guess.
        await stopped;
      }
    }
  })();
  await new Promise((r) => setTimeout(r, 500));
  const t = Date.now();
  await server.stop('SIGTERM');
  const ms = Date.now() - t;
  stop = true;
  markStopped();
  await loop;
  await server.dispose();
  // A hang here would run into the launcher's 10 s kill timeout; answering at once is the point.
  expect(server.exitCode).toBe(0);
  expect(ms).toBeLessThan(5000);
}, 60000);
