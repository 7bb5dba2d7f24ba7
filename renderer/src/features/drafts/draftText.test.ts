import { describe, expect, it } from 'vitest';
import { draftPreview, draftStatusText, draftSyncHint, draftTarget } from './draftText';

describe('draft texts', () => {
  it('names the target of each kind of draft', () => {
    expect(draftTarget({ type: '', to: [], topic: '' })).toBe('No recipient yet');
    expect(draftTarget({ type: 'stream', to: [4], topic: 'lunch' })).toBe('To stream #4 · lunch');
    expect(draftTarget({ type: 'stream', to: [4], topic: '' })).toBe('To stream #4');
    expect(draftTarget({ type: 'private', to: [8, 9], topic: '' })).toBe('Private message to user 8, 9');
  });

  it('previews the first line, shortened', () => {
    expect(draftPreview('  \n')).toBe('(empty draft)');
    expect(draftPreview('first line\nsecond')).toBe('first line');
    expect(draftPreview('abcdefghij', 5)).toBe('abcd…');
  });

  it('says whether a draft is typed, saved here, or on the server', () => {
    expect(draftStatusText({ status: 'synced' }, true)).toBe('Saving…');
    expect(draftStatusText({ status: 'pending' }, false)).toBe('Saved locally');
    expect(draftStatusText({ status: 'local-only' }, false)).toBe('Saved locally');
    expect(draftStatusText({ status: 'synced' }, false)).toBe('Synced');
  });

  it('explains why a draft is not on the server', () => {
    expect(draftSyncHint({ status: 'synced', syncError: null, content: 'x' })).toBeNull();
    expect(draftSyncHint({ status: 'local-only', syncError: 'Invalid stream ID', content: 'x' })).toBe(
      'Kept on this computer only: the server refused it (Invalid stream ID).',
    );
    expect(draftSyncHint({ status: 'local-only', syncError: null, content: 'x' })).toBe(
      'Draft synchronization is off: this draft stays on this computer.',
    );
    expect(draftSyncHint({ status: 'pending', syncError: null, content: 'x' })).toBe(
      'Will be saved to the server when it can be reached.',
    );
  });
});
