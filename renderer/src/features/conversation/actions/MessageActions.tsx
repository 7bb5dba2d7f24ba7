/**
 * What one can do to a message, shown on the row's hover and keyboard focus: "Add reaction"
 * (the emoji picker, frequently used first) and the "Message actions" menu (quote and reply,
 * edit, move, delete, star, mark as unread from here, copy link, edit history, source). An
 * action the user may not take stays listed, disabled, saying why. Writes go to the server;
 * its events then change the message in every view.
 */
import {
  Clock,
  FileCode,
  Link,
  MailOpen,
  MoreHorizontal,
  MoveRight,
  Pencil,
  Quote,
  SmilePlus,
  Star,
  Trash2,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import {
  Dialog as AriaDialog,
  Menu as AriaMenu,
  DialogTrigger,
  MenuItem,
  MenuTrigger,
  Popover,
  Separator,
  Text,
} from 'react-aria-components';
import { createPortal } from 'react-dom';
import type { AccountState } from '../../../../../shared/domain';
import { type Narrow, type NarrowTerm, narrowTerms } from '../../../../../shared/domain/narrow';
import { parseSearchQuery, type SearchLookup } from '../../../../../shared/domain/search';
import type { Message } from '../../../../../shared/protocol/messages';
import { useAccountState } from '../../../stores/hooks';
import { ConfirmDialog, cx, IconButton } from '../../../ui';
import { type EmojiChoice, EmojiPicker, loadUsage, recordUse, saveUsage } from '../../shell/emojiPicker';
import { composeActions, targetOfMessage } from '../compose';
import { editing } from './editing';
import { HistoryDialog } from './HistoryDialog';
import { errorText, type RawMessageAnswer, useCall, usePolicies, useSelf, useServerUrl } from './hooks';
import { MoveDialog } from './MoveDialog';
import {
  type Decision,
  deleteDecision,
  editDecision,
  type FlagsNarrowAnswer,
  historyDecision,
  markUnreadFrom,
  messageLink,
  moveDecision,
  quoteBlock,
  reactionToggle,
} from './model';
import { holdReads } from './readHold';
import { SourceDialog } from './SourceDialog';
import './actions.css';

type OpenDialog = 'move' | 'delete' | 'history' | 'source' | null;

export function MessageActions({ message, narrow }: { message: Message; narrow: Narrow }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const say = (text: string, tone: 'ok' | 'error' = 'ok') => {
    setNotice({ text, tone });
    window.setTimeout(() => setNotice((n) => (n?.text === text ? null : n)), 4000);
  };
  return (
    <div
      className="message-actions"
      data-open={menuOpen || pickerOpen || dialog !== null ? 'true' : undefined}
    >
      <DialogTrigger isOpen={pickerOpen} onOpenChange={setPickerOpen}>
        <IconButton label="Add reaction" icon={<SmilePlus size={16} aria-hidden="true" />} />
        <Popover className="popover reaction-picker-popover" placement="bottom end">
          <AriaDialog className="reaction-picker" aria-label="Add reaction">
            {pickerOpen && (
              <ReactionPicker message={message} onDone={() => setPickerOpen(false)} onError={say} />
            )}
          </AriaDialog>
        </Popover>
      </DialogTrigger>
      <MenuTrigger isOpen={menuOpen} onOpenChange={setMenuOpen}>
        <IconButton label="Message actions" icon={<MoreHorizontal size={16} aria-hidden="true" />} />
        <Popover className="popover menu-popover" placement="bottom end">
          <ActionsMenu message={message} narrow={narrow} openDialog={setDialog} say={say} />
        </Popover>
      </MenuTrigger>
      {dialog === 'move' && <MoveDialog message={message} onClose={() => setDialog(null)} />}
      {dialog === 'delete' && <DeleteDialog message={message} onClose={() => setDialog(null)} />}
      {dialog === 'history' && <HistoryDialog message={message} onClose={() => setDialog(null)} />}
      {dialog === 'source' && <SourceDialog message={message} onClose={() => setDialog(null)} />}
      {notice &&
        createPortal(
          <div
            className={cx('action-toast', notice.tone === 'error' && 'action-toast-error')}
            role={notice.tone === 'error' ? 'alert' : 'status'}
          >
            {notice.text}
          </div>,
          document.body,
        )}
    </div>
  );
}

/** Picking an emoji toggles the user's reaction with it and teaches the frequently used list. */
function ReactionPicker({
  message,
  onDone,
  onError,
}: {
  message: Message;
  onDone: () => void;
  onError: (text: string, tone: 'error') => void;
}) {
  const call = useCall();
  const { userId } = useSelf();
  const pick = (choice: EmojiChoice) => {
    onDone();
    saveUsage(recordUse(loadUsage(), choice));
    const reacted = message.reactions.some(
      (r) => r.user_id === userId && r.reaction_type === choice.type && r.emoji_code === choice.code,
    );
    const request = reactionToggle(
      message.id,
      { emojiName: choice.name, emojiCode: choice.code, reactionType: choice.type },
      reacted,
    );
    call(request.method, request.path, request.params).catch((e: unknown) =>
      onError(`Could not react: ${errorText(e)}`, 'error'),
    );
  };
  return <EmojiPicker onPick={pick} />;
}

/** The search narrow's terms, resolved against the account's streams and people. */
function searchLookup(state: AccountState): SearchLookup {
  return {
    streamIdByName: (name) =>
      Object.values(state.streams).find((s) => s.name.toLowerCase() === name.toLowerCase())?.stream_id ??
      null,
    userIdBy: (text) => {
      const t = text.toLowerCase();
      const asId = Number(text);
      if (Number.isInteger(asId) && state.users.active[asId]) return asId;
      return (
        Object.values(state.users.active).find(
          (u) => u.email.toLowerCase() === t || u.full_name.toLowerCase() === t,
        )?.user_id ?? null
      );
    },
  };
}

interface Item {
  id: string;
  label: string;
  icon: ReactNode;
  decision?: Decision;
  danger?: boolean;
  separatorBefore?: boolean;
  run: () => void;
}

/** The menu's items, judged when it opens (time limits run out while a row sits on screen). */
function ActionsMenu({
  message,
  narrow,
  openDialog,
  say,
}: {
  message: Message;
  narrow: Narrow;
  openDialog: (dialog: OpenDialog) => void;
  say: (text: string, tone?: 'ok' | 'error') => void;
}) {
  const call = useCall();
  const self = useSelf();
  const policies = usePolicies();
  const serverUrl = useServerUrl();
  const streamName = useAccountState((a) =>
    message.stream_id === undefined ? undefined : a.streams[message.stream_id]?.name,
  );
  // A search's terms are resolved against the streams and people (only a search needs them).
  const searchState = useAccountState((a) => (narrow.kind === 'search' ? a : null));
  const actor = { ...self, now: Date.now() / 1000 };
  const starred = message.flags.includes('starred');
  const link = () => messageLink(message, { serverUrl, streamName });

  const quote = async () => {
    try {
      const answer = await call<RawMessageAnswer>('GET', `/messages/${message.id}`, {
        apply_markdown: false,
      });
      composeActions.quote(
        targetOfMessage(message, self.userId),
        quoteBlock(message, link(), answer.raw_content),
      );
    } catch (e) {
      say(`Could not quote the message: ${errorText(e)}`, 'error');
    }
  };

  const star = () => {
    call('POST', '/messages/flags', {
      messages: [message.id],
      op: starred ? 'remove' : 'add',
      flag: 'starred',
    }).catch((e: unknown) =>
      say(`Could not ${starred ? 'unstar' : 'star'} the message: ${errorText(e)}`, 'error'),
    );
  };

  const markUnread = async () => {
    const narrowParam: NarrowTerm[] =
      narrow.kind === 'search' && searchState
        ? parseSearchQuery(narrow.query, searchLookup(searchState)).terms
        : narrowTerms(narrow);
    holdReads(narrow);
    try {
      const count = await markUnreadFrom(message.id, narrowParam, (params) =>
        call<FlagsNarrowAnswer>('POST', '/messages/flags/narrow', params),
      );
      say(count === 1 ? 'Marked 1 message as unread.' : `Marked ${count} messages as unread.`);
    } catch (e) {
      say(`Could not mark as unread: ${errorText(e)}`, 'error');
    }
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link());
      say('Link copied.');
    } catch (e) {
      say(`Could not copy the link: ${errorText(e)}`, 'error');
    }
  };

  const items: Item[] = [
    {
      id: 'quote',
      label: 'Quote and reply',
      icon: <Quote size={15} aria-hidden="true" />,
      run: () => void quote(),
    },
    {
      id: 'edit',
      label: 'Edit',
      icon: <Pencil size={15} aria-hidden="true" />,
      decision: editDecision(message, policies, actor),
      run: () => editing.start(message.id),
    },
    {
      id: 'move',
      label: 'Move',
      icon: <MoveRight size={15} aria-hidden="true" />,
      decision: moveDecision(message, policies, actor),
      run: () => openDialog('move'),
    },
    {
      id: 'delete',
      label: 'Delete',
      icon: <Trash2 size={15} aria-hidden="true" />,
      decision: deleteDecision(message, policies, actor),
      danger: true,
      run: () => openDialog('delete'),
    },
    {
      id: 'star',
      label: starred ? 'Unstar' : 'Star',
      icon: <Star size={15} aria-hidden="true" />,
      separatorBefore: true,
      run: star,
    },
    {
      id: 'unread',
      label: 'Mark as unread from here',
      icon: <MailOpen size={15} aria-hidden="true" />,
      run: () => void markUnread(),
    },
    {
      id: 'link',
      label: 'Copy link',
      icon: <Link size={15} aria-hidden="true" />,
      run: () => void copyLink(),
    },
    {
      id: 'history',
      label: 'View edit history',
      icon: <Clock size={15} aria-hidden="true" />,
      decision: historyDecision(policies),
      separatorBefore: true,
      run: () => openDialog('history'),
    },
    {
      id: 'source',
      label: 'View source',
      icon: <FileCode size={15} aria-hidden="true" />,
      run: () => openDialog('source'),
    },
  ];

  return (
    <AriaMenu
      className="menu message-actions-menu"
      aria-label="Message actions"
      disabledKeys={items.filter((i) => i.decision?.allowed === false).map((i) => i.id)}
      onAction={(key) => items.find((i) => i.id === key)?.run()}
    >
      {items.flatMap((item) => [
        ...(item.separatorBefore ? [<Separator key={`${item.id}-sep`} className="menu-separator" />] : []),
        <MenuItem
          key={item.id}
          id={item.id}
          textValue={item.label}
          className={cx('menu-item', 'message-action', item.danger && 'menu-item-danger')}
        >
          {item.icon}
          <span className="message-action-text">
            <Text slot="label">{item.label}</Text>
            {item.decision?.allowed === false && (
              <>
                {/* Shown to the eye (drawn by CSS from data-reason, so the item's text is its
                    label: the name a speech user says); said once, as the description. */}
                <span
                  className="message-action-reason"
                  aria-hidden="true"
                  data-reason={item.decision.reason}
                />
                <Text slot="description" className="visually-hidden">
                  {item.decision.reason}
                </Text>
              </>
            )}
          </span>
        </MenuItem>,
      ])}
    </AriaMenu>
  );
}

/** "Delete message?" then DELETE /messages/{id}; the service's refusal is shown as it is. */
function DeleteDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const call = useCall();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setPending(true);
    setError(null);
    try {
      await call('DELETE', `/messages/${message.id}`);
      onClose();
    } catch (e) {
      setError(errorText(e));
      setPending(false);
    }
  };
  return (
    <ConfirmDialog
      title="Delete message?"
      isOpen
      message="The message will be deleted for everyone. This cannot be undone."
      confirmLabel={pending ? 'Deleting…' : 'Delete'}
      onConfirm={() => void remove()}
      onCancel={onClose}
      danger
      pending={pending}
      error={error}
    />
  );
}
