/** Renderer test data: a register snapshot and local drafts as the main process hands them over. */
import type { AccountSnapshot, LocalDraft } from '../../shared/ipc';
import { DEFAULT_SHARED_SETTINGS, EMOJISET_CHOICES, type ServerEvent } from '../../shared/protocol';

export function snapshotFixture(
  overrides: { generation?: number; lastEventId?: number; accountId?: string } = {},
) {
  const snapshot: AccountSnapshot = {
    accountId: overrides.accountId ?? 'acct-1',
    generation: overrides.generation ?? 1,
    state: {
      last_event_id: overrides.lastEventId ?? 4,
      service_feature_level: 100,
      service_version: '1.0.0',
      service_merge_base: '1.0.0',
      user_id: 12,
      user_settings: {
        ...DEFAULT_SHARED_SETTINGS,
        emojiset_choices: EMOJISET_CHOICES,
        available_notification_sounds: ['chime'],
      },
    },
  };
  return snapshot;
}

export function settingEvent(id: number, property: string, value: boolean | number | string): ServerEvent {
  return { id, type: 'user_settings', op: 'update', property, value };
}

export function localDraftFixture(localId: string, content: string): LocalDraft {
  return {
    localId,
    serverId: null,
    type: '',
    to: [],
    topic: '',
    content,
    timestamp: 1_700_000_000,
    status: 'pending',
    syncError: null,
  };
}
