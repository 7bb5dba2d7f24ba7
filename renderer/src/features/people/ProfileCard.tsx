/**
 * A person's profile card: who they are (initials, name, role, email), their status, whether
 * they are around ("Active now", "Last active 2 hours ago"), their local time (their time zone,
 * 12 or 24 hours per the setting, and how far it is from ours), and the organization's custom
 * profile fields as the field types want them shown.
 */
import { CalendarDays, Clock, Mail, Smile } from 'lucide-react';
import {
  useCustomProfileFields,
  useOwnUserId,
  usePresence,
  useSetting,
  useUser,
  useUserStatus,
} from '../../stores/hooks';
import { Avatar, Button, Dialog, Tag } from '../../ui';
import { Emoji } from '../../ui/Emoji';
import { appDialogs } from '../shell/dialogs';
import {
  type FieldDisplay,
  fieldDisplay,
  lastActiveText,
  localTime,
  roleName,
  timeDifference,
} from './peopleModel';
import { RichText } from './RichText';
import { useLastSeen, useNow } from './usePeople';

export function ProfileCard({
  userId,
  isOpen,
  onClose,
}: {
  userId: number;
  isOpen: boolean;
  onClose: () => void;
}) {
  const user = useUser(userId);
  const own = useOwnUserId() === userId;
  const name = user?.full_name ?? 'Unknown person';
  return (
    <Dialog
      title={name}
      isOpen={isOpen}
      onClose={onClose}
      size="sm"
      className="profile-card"
      footer={
        own ? (
          <Button
            icon={<Smile size={15} aria-hidden="true" />}
            onPress={() => {
              onClose();
              appDialogs.show('status');
            }}
          >
            Set status…
          </Button>
        ) : undefined
      }
    >
      {user ? (
        <ProfileBody userId={userId} />
      ) : (
        <p className="muted">This person is no longer in the organization.</p>
      )}
    </Dialog>
  );
}

function ProfileBody({ userId }: { userId: number }) {
  const user = useUser(userId);
  const status = useUserStatus(userId);
  const presence = usePresence(userId);
  const lastSeen = useLastSeen(userId);
  const fields = useCustomProfileFields();
  const twentyFour = useSetting('twenty_four_hour_time') === true;
  const now = useNow(30_000);
  if (!user) return null;
  const time = localTime(new Date(now), user.timezone, twentyFour);
  const difference = timeDifference(new Date(now), user.timezone);
  const email = user.delivery_email ?? user.email;
  const joinedDate = new Date(user.date_joined);
  const joined = Number.isNaN(joinedDate.getTime())
    ? null
    : new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(joinedDate);
  const shownFields = fields
    .map((field) => ({ field, display: fieldDisplay(field, user.profile_data?.[String(field.id)]) }))
    .filter((f): f is { field: (typeof fields)[number]; display: FieldDisplay } => f.display !== null);

  return (
    <div className="profile">
      <div className="profile-top">
        <Avatar name={user.full_name} userId={user.user_id} size="lg" presence={presence} />
        <div className="profile-who">
          <div className="profile-tags">
            <Tag tone={user.role <= 200 ? 'accent' : 'neutral'}>{roleName(user.role, user.is_bot)}</Tag>
            {!user.is_active && <Tag tone="warn">Deactivated</Tag>}
          </div>
          <p className="profile-presence">{lastActiveText(presence, lastSeen, now)}</p>
          {(status?.emoji_name || status?.status_text) && (
            <p className="profile-status">
              {status.emoji_name && (
                <Emoji name={status.emoji_name} code={status.emoji_code} type={status.reaction_type} />
              )}
              {status.status_text && <span>{status.status_text}</span>}
            </p>
          )}
        </div>
      </div>
      <dl className="profile-facts">
        {email && (
          <div className="profile-fact">
            <dt>
              <Mail size={14} aria-hidden="true" />
              Email
            </dt>
            <dd>
              <a href={`mailto:${email}`}>{email}</a>
            </dd>
          </div>
        )}
        <div className="profile-fact">
          <dt>
            <Clock size={14} aria-hidden="true" />
            Local time
          </dt>
          <dd>
            {time ? (
              <>
                {time} <span className="muted">({difference})</span>
              </>
            ) : (
              <span className="muted">No time zone set</span>
            )}
          </dd>
        </div>
        {joined && (
          <div className="profile-fact">
            <dt>
              <CalendarDays size={14} aria-hidden="true" />
              Joined
            </dt>
            <dd>{joined}</dd>
          </div>
        )}
        {shownFields.map(({ field, display }) => (
          <div className="profile-fact" key={field.id}>
            <dt>{field.name}</dt>
            <dd>
              <FieldValue display={display} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function FieldValue({ display }: { display: FieldDisplay }) {
  switch (display.kind) {
    case 'text':
      return <span>{display.text}</span>;
    case 'html':
      return <RichText html={display.html} className="profile-rich" />;
    case 'link':
      return (
        <a href={display.href} target="_blank" rel="noreferrer noopener">
          {display.text}
        </a>
      );
    case 'users':
      return (
        <span className="profile-users">
          {display.userIds.map((id) => (
            <UserName key={id} userId={id} />
          ))}
        </span>
      );
  }
}

function UserName({ userId }: { userId: number }) {
  const user = useUser(userId);
  return <span className="profile-user">{user?.full_name ?? 'Unknown person'}</span>;
}
