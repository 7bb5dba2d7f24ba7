/**
 * Code playgrounds: the organization's list, a form to add one (language suggestions from
 * common Pygments names, the URL prefix checked before the server is asked) and delete with
 * a confirmation. The list follows realm_playgrounds events.
 */
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import type { Playground } from '../../../../shared/domain';
import { useApiMutation } from '../../queries/api';
import { useIsAdmin, usePlaygrounds } from '../../stores/hooks';
import {
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  IconButton,
  InlineError,
  LockNote,
  TextField,
} from '../../ui';
import { ADMIN_ONLY, playgroundUrlProblem, suggestLanguages } from './adminModel';
import { errorText } from './common';
import './admin.css';

export function PlaygroundsSection() {
  const isAdmin = useIsAdmin();
  const playgrounds = usePlaygrounds();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Playground | null>(null);
  return (
    <div className="admin-section">
      {!isAdmin && <LockNote>{ADMIN_ONLY} You can see the playgrounds code blocks link to.</LockNote>}
      <p className="admin-intro">
        A code block in a language with a playground gets a button that opens its code there.
      </p>
      <div className="admin-toolbar">
        <span className="admin-count">
          {playgrounds.length === 1 ? '1 playground' : `${playgrounds.length} playgrounds`}
        </span>
        {isAdmin && (
          <Button
            variant="primary"
            icon={<Plus size={16} aria-hidden="true" />}
            onPress={() => setAdding(true)}
          >
            Add playground
          </Button>
        )}
      </div>
      {playgrounds.length === 0 ? (
        <EmptyState title="No code playgrounds yet">
          {isAdmin ? 'Add one so people can run code blocks in one click.' : 'An administrator can add one.'}
        </EmptyState>
      ) : (
        <ul className="admin-list" aria-label="Code playgrounds">
          {playgrounds.map((p) => (
            <li key={p.id} className="admin-row">
              <div className="admin-row-main">
                <span className="admin-row-title">{p.name}</span>
                <span className="admin-row-sub admin-mono">{p.url_prefix}</span>
              </div>
              <div className="admin-row-tags">
                <span className="tag">{p.highlighter_language || p.pygments_language}</span>
              </div>
              {isAdmin && (
                <IconButton
                  label={`Delete ${p.name}`}
                  icon={<Trash2 size={16} aria-hidden="true" />}
                  onPress={() => setDeleting(p)}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {adding && <AddPlaygroundDialog onClose={() => setAdding(false)} />}
      {deleting && <DeletePlaygroundDialog playground={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}

function DeletePlaygroundDialog({ playground, onClose }: { playground: Playground; onClose: () => void }) {
  const remove = useApiMutation({ onSuccess: onClose });
  return (
    <ConfirmDialog
      isOpen
      title={`Delete ${playground.name}?`}
      message="Code blocks will no longer link to this playground."
      confirmLabel="Delete"
      danger
      pending={remove.isPending}
      error={remove.error ? errorText(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ method: 'DELETE', path: `/realm/playgrounds/${playground.id}` })}
    />
  );
}

function AddPlaygroundDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [url, setUrl] = useState('');
  const [urlTouched, setUrlTouched] = useState(false);
  const add = useApiMutation({ onSuccess: onClose });
  const urlProblem = playgroundUrlProblem(url);
  const submit = () => {
    setUrlTouched(true);
    if (urlProblem || !name.trim() || !language.trim()) return;
    add.mutate({
      method: 'POST',
      path: '/realm/playgrounds',
      params: { name: name.trim(), pygments_language: language.trim(), url_prefix: url.trim() },
    });
  };
  return (
    <Dialog
      title="Add a code playground"
      isOpen
      onClose={onClose}
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" isDisabled={add.isPending} onPress={submit}>
            Add playground
          </Button>
        </>
      }
    >
      <div className="admin-form">
        <LanguageCombo value={language} onChange={setLanguage} />
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          isRequired
          placeholder="Rust playground"
          description="Shown on the button: “View in …”."
        />
        <TextField
          label="URL prefix"
          type="url"
          value={url}
          onChange={setUrl}
          onBlur={() => setUrlTouched(true)}
          isRequired
          placeholder="https://play.rust-lang.org/?code="
          description="The code is added at the end of this address."
          error={urlTouched ? urlProblem : null}
        />
        {add.error && <InlineError>Could not add the playground: {errorText(add.error)}</InlineError>}
      </div>
    </Dialog>
  );
}

/** The language: type freely, or pick one of the common Pygments names (matched by alias too). */
function LanguageCombo({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const descriptionId = useId();
  const items = [
    ...suggestLanguages(value).map((l) => ({ id: l.name, name: l.name, aliases: l.aliases })),
    ...(value.trim() && !suggestLanguages(value).some((l) => l.name === value.trim())
      ? [{ id: `custom:${value.trim()}`, name: value.trim(), aliases: 'custom language' }]
      : []),
  ];
  return (
    <ComboBox
      className="field admin-combo"
      inputValue={value}
      onInputChange={onChange}
      onSelectionChange={(key) => {
        if (key === null) return;
        const text = String(key);
        onChange(text.startsWith('custom:') ? text.slice(7) : text);
      }}
      allowsCustomValue
      menuTrigger="focus"
      isRequired
      aria-describedby={descriptionId}
    >
      <Label className="field-label">Language</Label>
      <div className="admin-combo-box">
        <Input className="input" placeholder="Python" />
        <AriaButton className="admin-combo-toggle" aria-label="Show languages">
          ▾
        </AriaButton>
      </div>
      <Text slot="description" id={descriptionId} className="field-description">
        The code block language, as Pygments names it.
      </Text>
      <Popover className="popover select-popover">
        <ListBox className="listbox" items={items}>
          {(item) => (
            <ListBoxItem id={item.id} className="listbox-item" textValue={item.name}>
              <span>{item.name}</span>
              <span className="listbox-item-description">{item.aliases}</span>
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
