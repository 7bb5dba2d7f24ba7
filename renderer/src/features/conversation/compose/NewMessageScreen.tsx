/**
 * A new message, to anyone: the composer with no conversation chosen yet (stream and topic, or
 * people). Once sent, the conversation opens, showing the message on its way.
 */
import { useOwnUserId } from '../../../stores/hooks';
import { ScreenHeader } from '../../../ui';
import { useNavigate } from '../../shell/navigation';
import { Composer } from './Composer';
import { narrowOfTarget } from './target';

export function NewMessageScreen() {
  const navigate = useNavigate();
  const ownUserId = useOwnUserId();
  return (
    <div className="compose-screen">
      <ScreenHeader title="New message" />
      <div className="compose-screen-body">
        <Composer
          narrow={null}
          autoFocus
          onSent={(target) => navigate({ name: 'narrow', narrow: narrowOfTarget(target, ownUserId) })}
        />
      </div>
    </div>
  );
}
