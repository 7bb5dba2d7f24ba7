/**
 * After "Mark as unread from here", the view must not mark those messages read again the
 * moment they are on screen (the family stops marking read in that view until the reader
 * opens a narrow again). The view asks `useReadsHeld(narrow)` before marking anything read
 * and calls `releaseReads()` when it opens a narrow.
 */
import { create } from 'zustand';
import { type Narrow, narrowKey } from '../../../../../shared/domain/narrow';

const useHoldStore = create<{ held: string | null }>()(() => ({ held: null }));

/** Whether marking read on sight is paused in this narrow. */
export const useReadsHeld = (narrow: Narrow): boolean => useHoldStore((s) => s.held === narrowKey(narrow));

/** Pauses marking read on sight in this narrow (until releaseReads). */
export const holdReads = (narrow: Narrow): void => useHoldStore.setState({ held: narrowKey(narrow) });

/** Lets the view mark read on sight again. */
export const releaseReads = (): void => useHoldStore.setState({ held: null });
