/**
 * Custom emoji: the organization's list (name, author), an upload form (pick a file or drop
 * one, the name checked as typed) and delete with a confirmation. Each emoji shows its image,
 * which the main process fetches (the renderer loads nothing from the server itself); a
 * placeholder glyph stands in until it is there.
 */
import { ImagePlus, Smile, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { DropZone, FileTrigger, Text } from 'react-aria-components';
import type { RealmEmoji } from '../../../../shared/protocol';
import { useApiMutation, useApiUpload } from '../../queries/api';
import {
  useAccountState,
  useIsAdmin,
  useOwnRole,
  useOwnUserId,
  useRealm,
  useRealmEmoji,
} from '../../stores/hooks';
import {
  Button,
  ConfirmDialog,
  Dialog,
  Emoji,
  EmptyState,
  IconButton,
  InlineError,
  LockNote,
  SearchField,
  TextField,
  useRealmEmojiImage,
} from '../../ui';
import { emojiAddReason, emojiNameForServer, emojiNameFromFile, emojiNameProblem } from './adminModel';
import { errorText } from './common';
import './admin.css';

const IMAGE_TYPES = ['image/png', 'image/gif', 'image/jpeg', 'image/webp'];

export function CustomEmojiSection() {
  const isAdmin = useIsAdmin();
  const emoji = useRealmEmoji();
  const ownId = useOwnUserId();
  const policy = useRealm('add_custom_emoji_policy');
  const role = useOwnRole();
  const addReason = emojiAddReason(typeof policy === 'number' ? policy : undefined, role);
  const [query, setQuery] = useState('');
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<RealmEmoji | null>(null);
  const shown = emoji.filter((e) => e.name.includes(query.trim().toLowerCase().replace(/ /g, '_')));
  return (
    <div className="admin-section">
      <p className="admin-intro">Everyone can use these in messages and reactions as :name:.</p>
      <div className="admin-toolbar">
        <SearchField label="Search custom emoji" value={query} onChange={setQuery} />
        <span className="admin-count">{emoji.length === 1 ? '1 emoji' : `${emoji.length} emoji`}</span>
        <Button
          variant="primary"
          icon={<Upload size={16} aria-hidden="true" />}
          onPress={() => setUploading(true)}
          isDisabled={addReason !== null}
        >
          Add emoji
        </Button>
      </div>
      {addReason && <LockNote>{addReason}</LockNote>}
      {emoji.length === 0 ? (
        <EmptyState title="No custom emoji yet">
          Add your team’s own emoji: a square image of up to 5 MB.
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title="No emoji matches">Try another part of the name.</EmptyState>
      ) : (
        <ul className="admin-list admin-emoji-list" aria-label="Custom emoji">
          {shown.map((e) => (
            <EmojiRow
              key={e.id}
              emoji={e}
              canDelete={isAdmin || (e.author_id != null && e.author_id === ownId)}
              onDelete={() => setDeleting(e)}
            />
          ))}
        </ul>
      )}
      {!isAdmin && <LockNote>Only administrators and the person who added an emoji can delete it.</LockNote>}
      {uploading && <UploadDialog onClose={() => setUploading(false)} />}
      {deleting && <DeleteEmojiDialog emoji={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function EmojiRow({
  emoji,
  canDelete,
  onDelete,
}: {
  emoji: RealmEmoji;
  canDelete: boolean;
  onDelete: () => void;
}) {
  const author = useAccountState((a) =>
    emoji.author_id == null
      ? undefined
      : (a.users.active[emoji.author_id] ?? a.users.nonActive[emoji.author_id])?.full_name,
  );
  const image = useRealmEmojiImage(emoji.id);
  return (
    <li className="admin-row">
      <span className="admin-emoji-glyph" aria-hidden="true">
        {image === null ? (
          <Smile size={18} />
        ) : (
          <Emoji name={emoji.name} code={emoji.id} type="realm_emoji" decorative />
        )}
      </span>
      <div className="admin-row-main">
        <span className="admin-row-title admin-mono">:{emoji.name}:</span>
        <span className="admin-row-sub">{author ? `Added by ${author}` : 'Added by an administrator'}</span>
      </div>
      {canDelete && (
        <IconButton
          label={`Delete :${emoji.name}:`}
          icon={<Trash2 size={16} aria-hidden="true" />}
          onPress={onDelete}
        />
      )}
    </li>
  );
}

function DeleteEmojiDialog({ emoji, onClose }: { emoji: RealmEmoji; onClose: () => void }) {
  const remove = useApiMutation({ onSuccess: onClose });
  return (
    <ConfirmDialog
      isOpen
      title={`Delete :${emoji.name}:?`}
      message="Messages and reactions that use it keep showing it; no one can add it anew."
      confirmLabel="Delete"
      danger
      pending={remove.isPending}
      error={remove.error ? errorText(remove.error) : null}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate({ method: 'DELETE', path: `/realm/emoji/${encodeURIComponent(emoji.name)}` })
      }
    />
  );
}

function UploadDialog({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useApiUpload({ onSuccess: onClose });
  const nameProblem = emojiNameProblem(name);
  const take = (f: File | undefined) => {
    if (!f) return;
    if (!IMAGE_TYPES.includes(f.type)) {
      setFileError('Choose a PNG, GIF, JPEG or WebP image.');
      return;
    }
    if (f.size > 5 * 1024 * 1024) {
      setFileError('The image is larger than 5 MB.');
      return;
    }
    setFileError(null);
    setFile(f);
    if (!name) setName(emojiNameFromFile(f.name));
  };
  const submit = () => {
    setTouched(true);
    if (!file || nameProblem) return;
    upload.mutate({ path: `/realm/emoji/${encodeURIComponent(emojiNameForServer(name))}`, file });
  };
  return (
    <Dialog
      title="Add a custom emoji"
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" isDisabled={!file || upload.isPending} onPress={submit}>
            {upload.isPending ? 'Uploading…' : 'Add emoji'}
          </Button>
        </>
      }
    >
      <div className="admin-form">
        <DropZone
          className="admin-dropzone"
          aria-label="Drop an image here"
          onDrop={async (event) => {
            for (const item of event.items) {
              if (item.kind === 'file') {
                take(await item.getFile());
                return;
              }
            }
          }}
        >
          <ImagePlus size={22} aria-hidden="true" />
          <Text slot="label">{file ? `Chosen: ${file.name}` : 'Drop an image here, or'}</Text>
          <FileTrigger
            acceptedFileTypes={IMAGE_TYPES}
            onSelect={(files) => take(files ? [...files][0] : undefined)}
          >
            <Button size="sm">{file ? 'Choose another image' : 'Choose an image'}</Button>
          </FileTrigger>
        </DropZone>
        {fileError && <InlineError>{fileError}</InlineError>}
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          onBlur={() => setTouched(true)}
          isRequired
          placeholder="party_parrot"
          description="Lowercase letters, digits, underscores, dashes and spaces (saved as underscores)."
          error={touched ? nameProblem : null}
        />
        {upload.error && <InlineError>Could not add the emoji: {errorText(upload.error)}</InlineError>}
      </div>
    </Dialog>
  );
}
