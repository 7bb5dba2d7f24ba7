/**
 * Test child process of the drafts log's durability test (electron/core/drafts/log.test.ts):
 * saves drafts as fast as it can and prints one line per acknowledged save, until the test
 * kills it with SIGKILL. Usage: drafts-crash-child.ts <log file>.
 */
import { DraftsService } from '../../electron/core/drafts/service';

const file = process.argv[2];
if (!file) throw new Error('usage: drafts-crash-child.ts <log file>');
const drafts = await DraftsService.open({ file });
let draft = await drafts.save({ type: '', to: [], topic: '', content: 'edit 0' });
process.stdout.write(`saved ${draft.localId} ${JSON.stringify(draft.content)}\n`);
for (let n = 1; ; n++) {
  // Alternate between editing the first draft and creating new ones, as typing does.
  const input = { type: '' as const, to: [], topic: '', content: `edit ${n}` };
  draft = await drafts.save(n % 2 === 0 ? { ...input, localId: draft.localId } : input);
  process.stdout.write(`saved ${draft.localId} ${JSON.stringify(draft.content)}\n`);
}
