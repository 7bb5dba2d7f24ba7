/**
 * Notifications: the triggers as one table (rows: kinds of messages, columns: desktop,
 * audible, mobile, email), the system's permission with a test notification, the other
 * notification settings, and the streams whose notifications differ from these defaults.
 */
import { BellRing, RotateCcw } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { call } from '../../bridge';
import {
  useAccountActions,
  useAccountId,
  useAccountStateShallow,
  useRealm,
  useSetting,
  useSubscription,
  useSubscriptionError,
  useSubscriptionProperty,
} from '../../stores/hooks';
import {
  Banner,
  Button,
  ConfirmDialog,
  EmptyState,
  IconButton,
  InlineError,
  Section,
  Select,
} from '../../ui';
import { isDoNotDisturb } from '../shell/dnd';
import {
  NOTIFICATIONS,
  notificationGroupTitle,
  TRIGGER_COLUMNS,
  TRIGGER_ROWS,
  WILDCARD_SETTING,
} from './catalog';
import { SettingControlView, SettingSwitch } from './controls';
import {
  differingProperties,
  effectiveValue,
  inheritLabel,
  ownProperties,
  STREAM_NOTIFICATION_PROPERTIES,
  type StreamNotificationProperty,
  type StreamValues,
} from './overrides';

export function NotificationsSection() {
  return (
    <>
      <Section
        headingLevel={3}
        title="Notification triggers"
        description="Which messages notify you, and how. Each stream can differ (below)."
      >
        <TriggersTable />
      </Section>
      <Section headingLevel={3} title="Desktop notifications">
        <PermissionRow />
      </Section>
      {NOTIFICATIONS.map((group) => (
        <Section key={group.title} headingLevel={3} title={notificationGroupTitle(group)}>
          {group.controls.map((control) => (
            <SettingControlView key={control.name} control={control} />
          ))}
        </Section>
      ))}
      <StreamOverrides />
    </>
  );
}

function TriggersTable() {
  const pushEnabled = useRealm('push_notifications_enabled');
  const mobileReason =
    pushEnabled === false ? 'Mobile notifications are not configured on this server.' : null;
  return (
    <table className="triggers-table">
      <caption className="visually-hidden">Notification triggers</caption>
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Messages</span>
          </th>
          {TRIGGER_COLUMNS.map((column) => (
            <th key={column.id} scope="col" className="trigger-column">
              <span className="trigger-column-label">{column.label}</span>
              <span className="trigger-column-hint">{column.explanation}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {TRIGGER_ROWS.map((row) => (
          <tr key={row.id}>
            <th scope="row" className="trigger-row-head">
              <span className="trigger-row-label">{row.label}</span>
              <span className="trigger-row-hint">{row.description}</span>
            </th>
            {TRIGGER_COLUMNS.map((column) => {
              const name = row.cells[column.id];
              return (
                <td key={column.id} className="trigger-cell" data-setting={name ?? undefined}>
                  {name && (
                    <SettingSwitch
                      className="cell-switch"
                      name={name}
                      label={
                        <span className="visually-hidden">{`${row.label}: ${column.label.toLowerCase()}`}</span>
                      }
                      disabledReason={column.id === 'mobile' ? mobileReason : null}
                    />
                  )}
                </td>
              );
            })}
          </tr>
        ))}
        <tr>
          <th scope="row" className="trigger-row-head">
            <span className="trigger-row-label">@-all mentions</span>
            <span className="trigger-row-hint">
              Whether mentions of everyone (@all, @everyone, @stream) notify you as mentions do.
            </span>
          </th>
          <td
            colSpan={TRIGGER_COLUMNS.length}
            className="trigger-cell trigger-wide"
            data-setting={WILDCARD_SETTING}
          >
            <SettingSwitch name={WILDCARD_SETTING} label="Treat @-all mentions as mentions of me" />
          </td>
        </tr>
      </tbody>
    </table>
  );
}

type Permission = NotificationPermission | 'unsupported';

function currentPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** The system's permission for notifications, and a test notification. */
function PermissionRow() {
  const [permission, setPermission] = useState<Permission>(currentPermission);
  const [sent, setSent] = useState<'sent' | 'held' | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // The permission can change in the system's settings meanwhile.
    const onFocus = () => setPermission(currentPermission());
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, []);
  const ask = async () => {
    const answer = await Notification.requestPermission();
    setPermission(answer);
  };
  const test = () => {
    // Do not disturb holds back every notification, this one too: say so rather than stay silent.
    if (isDoNotDisturb()) {
      setSent('held');
      setError(null);
      return;
    }
    try {
      new Notification('Confab', { body: 'This is a test notification.', tag: 'confab-test' });
      setSent('sent');
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  if (permission === 'unsupported') {
    return <Banner tone="warn">This window cannot show desktop notifications.</Banner>;
  }
  if (permission === 'denied') {
    return (
      <Banner tone="warn">
        Notifications are blocked for Confab. Allow them in your system’s notification settings, then come
        back here.
      </Banner>
    );
  }
  if (permission === 'default') {
    return (
      <Banner
        tone="info"
        action={
          <Button size="sm" variant="primary" onPress={() => void ask()}>
            Enable notifications
          </Button>
        }
      >
        Confab needs your permission to show desktop notifications.
      </Banner>
    );
  }
  return (
    <div className="permission-row">
      <p className="muted">Desktop notifications are allowed.</p>
      <Button icon={<BellRing size={16} aria-hidden="true" />} onPress={test}>
        Send a test notification
      </Button>
      <span role="status" className="muted">
        {sent === 'sent'
          ? 'Test notification sent.'
          : sent === 'held'
            ? 'Not sent: notifications are held back while do not disturb is on.'
            : ''}
      </span>
      {error && <InlineError>{error}</InlineError>}
    </div>
  );
}

// ---- per-stream overrides ---------------------------------------------------------------------

function useUserDefaults(): Record<string, unknown> {
  const desktop = useSetting('enable_stream_desktop_notifications');
  const audible = useSetting('enable_stream_audible_notifications');
  const push = useSetting('enable_stream_push_notifications');
  const email = useSetting('enable_stream_email_notifications');
  const wildcard = useSetting('wildcard_mentions_notify');
  return useMemo(
    () => ({
      enable_stream_desktop_notifications: desktop,
      enable_stream_audible_notifications: audible,
      enable_stream_push_notifications: push,
      enable_stream_email_notifications: email,
      wildcard_mentions_notify: wildcard,
    }),
    [desktop, audible, push, email, wildcard],
  );
}

/** The subscribed streams by name (the store's own objects: a new array only when one changes). */
function useStreamNotificationValues(): { streamId: number; name: string; values: StreamValues }[] {
  const subs = useAccountStateShallow((a) =>
    Object.values(a.subscriptions.subscribed).sort((x, y) => x.name.localeCompare(y.name)),
  );
  return useMemo(
    () =>
      subs.map((sub) => ({
        streamId: sub.stream_id,
        name: sub.name,
        values: sub as unknown as StreamValues,
      })),
    [subs],
  );
}

function StreamOverrides() {
  const defaults = useUserDefaults();
  const streams = useStreamNotificationValues();
  const [added, setAdded] = useState<number[]>([]);
  const listed = streams.filter(
    (s) => differingProperties(s.values, defaults).length > 0 || added.includes(s.streamId),
  );
  const others = streams.filter((s) => !listed.includes(s));
  const error = useSubscriptionError();
  const { dismissSubscriptionError } = useAccountActions();
  const failedStream = error ? streams.find((s) => s.streamId === error.streamId) : undefined;
  return (
    <Section
      headingLevel={3}
      title="Streams with their own notifications"
      description="Streams whose notifications differ from your triggers above. Reset one to follow your defaults again."
    >
      {error && (
        <Banner
          tone="danger"
          role="alert"
          action={
            <Button size="sm" variant="ghost" onPress={dismissSubscriptionError}>
              Dismiss
            </Button>
          }
        >
          Could not change #{failedStream?.name ?? error.streamId}: {error.message}
        </Banner>
      )}
      {listed.length === 0 ? (
        <EmptyState title="Every stream follows your defaults">
          Customize a stream to be notified differently about it.
        </EmptyState>
      ) : (
        <table className="overrides-table">
          <caption className="visually-hidden">Streams with their own notifications</caption>
          <thead>
            <tr>
              <th scope="col">Stream</th>
              {STREAM_NOTIFICATION_PROPERTIES.map((p) => (
                <th key={p.property} scope="col">
                  {p.label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {listed.map((s) => (
              <OverrideRow
                key={s.streamId}
                streamId={s.streamId}
                defaults={defaults}
                onReset={() => setAdded((list) => list.filter((id) => id !== s.streamId))}
              />
            ))}
          </tbody>
        </table>
      )}
      {others.length > 0 && (
        <Select
          className="customize-stream"
          label={listed.length === 0 ? 'Customize a stream' : 'Customize another stream'}
          placeholder="Choose a stream"
          options={others.map((s) => ({ id: s.streamId, label: `#${s.name}` }))}
          value={null}
          onChange={(id) => setAdded((list) => [...list, Number(id)])}
        />
      )}
    </Section>
  );
}

const INHERIT = 'inherit';

function OverrideRow({
  streamId,
  defaults,
  onReset,
}: {
  streamId: number;
  defaults: Record<string, unknown>;
  onReset: () => void;
}) {
  const sub = useSubscription(streamId);
  const accountId = useAccountId();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!sub) return null;
  const values = sub as unknown as StreamValues;
  const name = `#${sub.name}`;
  const reset = async () => {
    setConfirming(false);
    const properties = ownProperties(values);
    try {
      if (properties.length > 0) {
        // null: follow my own setting again (the spec's inherit).
        await call('api.call', {
          accountId,
          method: 'POST',
          path: '/users/me/subscriptions/properties',
          params: {
            subscription_data: properties.map((property) => ({ stream_id: streamId, property, value: null })),
          },
        });
      }
      setError(null);
      onReset();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <tr>
      <th scope="row" className="override-stream">
        {name}
        {sub.is_muted && <span className="muted"> (muted)</span>}
        {error && <InlineError>{error}</InlineError>}
      </th>
      {STREAM_NOTIFICATION_PROPERTIES.map((p) => (
        <td key={p.property}>
          <OverrideCell
            streamId={streamId}
            streamName={name}
            property={p.property}
            label={p.label}
            defaults={defaults}
          />
        </td>
      ))}
      <td>
        <IconButton
          label={`Reset ${name} to default`}
          icon={<RotateCcw size={16} aria-hidden="true" />}
          onPress={() => setConfirming(true)}
        />
        <ConfirmDialog
          title="Reset to default notifications?"
          isOpen={confirming}
          message={<p>{name} will notify you as your triggers above say.</p>}
          confirmLabel="Reset to default"
          onCancel={() => setConfirming(false)}
          onConfirm={() => void reset()}
        />
      </td>
    </tr>
  );
}

function OverrideCell({
  streamId,
  streamName,
  property,
  label,
  defaults,
}: {
  streamId: number;
  streamName: string;
  property: StreamNotificationProperty;
  label: string;
  defaults: Record<string, unknown>;
}) {
  const own = useSubscriptionProperty(streamId, property);
  const accountId = useAccountId();
  const { updateSubscriptionProperty } = useAccountActions();
  const [error, setError] = useState<string | null>(null);
  const inherited = effectiveValue({}, property, defaults);
  const value = typeof own === 'boolean' ? (own ? 'on' : 'off') : INHERIT;
  const onChange = async (next: string) => {
    if (next === value) return;
    if (next === INHERIT) {
      try {
        await call('api.call', {
          accountId,
          method: 'POST',
          path: '/users/me/subscriptions/properties',
          params: { subscription_data: [{ stream_id: streamId, property, value: null }] },
        });
        setError(null);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    } else {
      void updateSubscriptionProperty(streamId, property, next === 'on');
    }
  };
  return (
    <>
      <Select
        className="override-select"
        label={`${streamName}: ${label}`}
        labelHidden
        options={[
          { id: INHERIT, label: inheritLabel(inherited) },
          { id: 'on', label: 'On' },
          { id: 'off', label: 'Off' },
        ]}
        value={value}
        onChange={(key) => void onChange(String(key))}
      />
      {error && <InlineError>{error}</InlineError>}
    </>
  );
}
