/**
 * A message's reactions: one chip per emoji with how many reacted (or, per
 * `display_emoji_reaction_users` and while there are few reactions, who), pressed when the
 * user is among them, its tooltip naming everyone who reacted; a click adds or takes back the
 * user's reaction. The `reaction` event
 * the server sends then updates the message everywhere, this window included.
 */
import { useMemo, useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import type { Message } from '../../../../../shared/protocol/messages';
import { useSetting } from '../../../stores/hooks';
import { Emoji, Tooltip } from '../../../ui';
import { errorText, useCall, useNameOf, useSelf } from './hooks';
import {
  groupReactions,
  joinNames,
  type ReactionGroup,
  reactionTitle,
  reactionToggle,
  reactorNames,
  showReactionNames,
} from './model';
import './actions.css';

export function Reactions({ message }: { message: Message }) {
  const { userId } = useSelf();
  const groups = useMemo(() => groupReactions(message.reactions, userId), [message.reactions, userId]);
  const everyone = useMemo(() => [...new Set(groups.flatMap((g) => g.userIds))], [groups]);
  const nameOf = useNameOf(everyone);
  const withNames = showReactionNames(groups, useSetting('display_emoji_reaction_users') === true);
  const [error, setError] = useState<string | null>(null);
  if (groups.length === 0) return null;
  return (
    <div className="message-reactions">
      {groups.map((group) => (
        <ReactionChip
          key={group.key}
          messageId={message.id}
          group={group}
          names={reactorNames(group, userId, nameOf)}
          withNames={withNames}
          onError={setError}
        />
      ))}
      {error && (
        <span role="alert" className="inline-error message-reactions-error">
          {error}
        </span>
      )}
    </div>
  );
}

function ReactionChip({
  messageId,
  group,
  names,
  withNames,
  onError,
}: {
  messageId: number;
  group: ReactionGroup;
  names: string[];
  withNames: boolean;
  onError: (error: string | null) => void;
}) {
  const call = useCall();
  const [pending, setPending] = useState(false);
  const toggle = async () => {
    const request = reactionToggle(messageId, group, group.reacted);
    setPending(true);
    onError(null);
    try {
      await call(request.method, request.path, request.params);
    } catch (e) {
      onError(errorText(e));
    } finally {
      setPending(false);
    }
  };
  return (
    <Tooltip text={reactionTitle(names, group.emojiName)}>
      <AriaButton
        className="reaction-chip"
        aria-label={`${group.emojiName}: ${group.userIds.length}`}
        aria-pressed={group.reacted}
        isDisabled={pending}
        onPress={() => void toggle()}
      >
        <span className="reaction-chip-inner">
          <Emoji
            name={group.emojiName}
            code={group.emojiCode}
            type={group.reactionType}
            decorative
            className="reaction-emoji"
          />
          <span className="reaction-count" aria-hidden="true">
            {withNames ? joinNames(names) : group.userIds.length}
          </span>
        </span>
      </AriaButton>
    </Tooltip>
  );
}
