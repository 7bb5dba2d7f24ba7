/**
 * What the composers hold, per conversation: a Zustand store of entries (the recipient fields,
 * the text, the draft it is saved as), keyed by account and by the place the composer was
 * opened on (a narrow's key, or "new" for a new message), so text typed in one conversation is
 * there again when the user comes back. Also the requests other parts of the app make of the
 * composer on screen (`composeActions`: quote into it, restore an unsent message, focus it).
 */
import { create } from 'zustand';
import type { OutboxItem } from '../../../../../shared/ipc';
import { discardOutbox } from '../../../queries/outbox';
import type { ComposeTarget, TargetFields } from './target';

export interface ComposeEntry {
  accountId: string;
  fields: TargetFields;
  text: string;
  /** The draft this text is saved as (null: not saved yet). */
  draftLocalId: string | null;
  /** Bumped when the text is sent: a draft save still on its way belongs to the sent text. */
  generation: number;
  /** The conversation's newest draft may still be put in (nothing typed, drafts not read yet). */
  restorable: boolean;
}

/** A request to the composer on screen: switch to a conversation and add text to it. */
export interface ComposeRequest {
  seq: number;
  target: ComposeTarget;
  text: string;
}

interface ComposeStoreState {
  entries: Record<string, ComposeEntry>;
  request: ComposeRequest | null;
  /** Bumped to ask the composer on screen to take the focus. */
  focusSeq: number;
}

export const useComposeStore = create<ComposeStoreState>()(() => ({
  entries: {},
  request: null,
  focusSeq: 0,
}));

export const entryKey = (accountId: string, slot: string): string => `${accountId}|${slot}`;

export function readEntry(key: string): ComposeEntry | undefined {
  return useComposeStore.getState().entries[key];
}

/** Changes one entry (nothing when it does not exist, unless `create` gives its first value). */
export function writeEntry(
  key: string,
  update: (entry: ComposeEntry) => ComposeEntry,
  create?: () => ComposeEntry,
): void {
  useComposeStore.setState((state) => {
    const entry = state.entries[key] ?? create?.();
    if (!entry) return state;
    const next = update(entry);
    return next === state.entries[key] ? state : { entries: { ...state.entries, [key]: next } };
  });
}

let seq = 0;

/** What other parts of the app ask of the composer on screen. */
export const composeActions = {
  /** Quote and reply: the composer switches to the message's conversation and adds the quote. */
  quote(target: ComposeTarget, markdown: string): void {
    seq += 1;
    useComposeStore.setState((s) => ({ request: { seq, target, text: markdown }, focusSeq: s.focusSeq + 1 }));
  },
  /**
   * Restore to compose: an unsent (failed) message's conversation and text go back into the
   * composer, and the message leaves the outbox.
   */
  restore(item: OutboxItem): void {
    const target: ComposeTarget =
      item.type === 'stream'
        ? { type: 'stream', streamId: item.to[0] ?? 0, topic: item.topic }
        : { type: 'private', userIds: [...item.to] };
    seq += 1;
    useComposeStore.setState((s) => ({
      request: { seq, target, text: item.content },
      focusSeq: s.focusSeq + 1,
    }));
    void discardOutbox(item.localId).catch(() => {
      // Already gone (sent meanwhile, or discarded elsewhere): the text is back either way.
    });
  },
  /** Puts the keyboard focus in the message box. */
  focus(): void {
    useComposeStore.setState((s) => ({ focusSeq: s.focusSeq + 1 }));
  },
};

/** Takes the pending request (once). */
export function takeRequest(expected: number): ComposeRequest | null {
  const request = useComposeStore.getState().request;
  if (!request || request.seq !== expected) return null;
  useComposeStore.setState({ request: null });
  return request;
}
