/** The "saving / saved" state of one setting for its SaveMark, from the store's pending writes. */
import { useEffect, useRef, useState } from 'react';
import { useSettingError, useSettingPending } from '../../stores/hooks';
import type { SaveState } from '../../ui';

/** How long "Saved" stays beside a setting. */
const SAVED_MS = 2500;

export function useSaveState(name: string): SaveState {
  const pending = useSettingPending(name);
  const error = useSettingError();
  const [saved, setSaved] = useState(false);
  const wasPending = useRef(false);
  useEffect(() => {
    if (pending) {
      wasPending.current = true;
      setSaved(false);
      return;
    }
    if (!wasPending.current) return;
    wasPending.current = false;
    if (error?.property === name) return;
    setSaved(true);
    const timer = setTimeout(() => setSaved(false), SAVED_MS);
    return () => clearTimeout(timer);
  }, [pending, error, name]);
  return pending ? 'saving' : saved ? 'saved' : 'idle';
}
