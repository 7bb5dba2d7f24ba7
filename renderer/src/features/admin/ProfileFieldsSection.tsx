/**
 * Custom profile fields: the list in order, reordered by drag or keyboard (the new order is
 * sent at once, and rolled back with the server's message if refused); a dialog per field with
 * a per-type editor (choices, external accounts), presets, the profile-summary switch with its
 * limit, and delete naming how many people have data in the field.
 */
import { ArrowDown, ArrowUp, GripVertical, MoreHorizontal, Plus, SortAsc, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button as AriaButton, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';
import type { CustomProfileField } from '../../../../shared/protocol';
import { useApiMutation } from '../../queries/api';
import { useCustomProfileFields, useIsAdmin } from '../../stores/hooks';
import {
  Banner,
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  IconButton,
  InlineError,
  LockNote,
  MenuButton,
  Select,
  Switch,
  Tag,
  TextField,
} from '../../ui';
import {
  ADMIN_ONLY,
  alphabetize,
  CHOICE_TYPE,
  type ChoiceRow,
  choicesFromFieldData,
  choicesProblem,
  choicesToFieldData,
  countUsersWithValue,
  EXTERNAL_ACCOUNT_TYPE,
  FIELD_PRESETS,
  FIELD_TYPES,
  fieldTypeLabel,
  MAX_HINT,
  MAX_NAME,
  moveBy,
  moveKeys,
  people,
  summaryDisabledReason,
  withTrailingEmpty,
} from './adminModel';
import { errorText, useAllUsers } from './common';
import './admin.css';

export function ProfileFieldsSection() {
  const isAdmin = useIsAdmin();
  const fields = useCustomProfileFields();
  const users = useAllUsers();
  const [order, setOrder] = useState<number[] | null>(null);
  const [editing, setEditing] = useState<CustomProfileField | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CustomProfileField | null>(null);
  const reorder = useApiMutation({ onError: () => setOrder(null) });
  const serverOrder = fields.map((f) => f.id).join(',');
  // The store's order arrived (by the event): the local one has done its job.
  const [seenOrder, setSeenOrder] = useState(serverOrder);
  if (seenOrder !== serverOrder) {
    setSeenOrder(serverOrder);
    setOrder(null);
  }
  const shown = useMemo(() => {
    if (!order) return fields;
    const byId = new Map(fields.map((f) => [f.id, f]));
    const ordered = order.map((id) => byId.get(id)).filter((f): f is CustomProfileField => f !== undefined);
    return ordered.length === fields.length ? ordered : fields;
  }, [fields, order]);

  const sendOrder = (next: CustomProfileField[]) => {
    const ids = next.map((f) => f.id);
    if (ids.join(',') === shown.map((f) => f.id).join(',')) return;
    setOrder(ids);
    reorder.mutate({ method: 'PATCH', path: '/realm/profile_fields', params: { order: ids } });
  };

  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) => [...keys].map((key) => ({ 'text/plain': String(key) })),
    onReorder: (e) =>
      sendOrder(
        moveKeys(
          shown,
          (f) => f.id,
          e.keys as Set<number>,
          e.target.key as number,
          e.target.dropPosition === 'after' ? 'after' : 'before',
        ),
      ),
    isDisabled: !isAdmin,
  });

  return (
    <div className="admin-section">
      {!isAdmin && (
        <LockNote>{ADMIN_ONLY} You can see the fields everyone fills in on their profile.</LockNote>
      )}
      <p className="admin-intro">
        Fields everyone can fill in on their profile, shown in this order. Up to 2 appear in the profile
        summary.
      </p>
      <div className="admin-toolbar">
        <span className="admin-count">{fields.length === 1 ? '1 field' : `${fields.length} fields`}</span>
        {isAdmin && (
          <Button
            variant="primary"
            icon={<Plus size={16} aria-hidden="true" />}
            onPress={() => setEditing('new')}
          >
            Add field
          </Button>
        )}
      </div>
      {reorder.error && (
        <Banner tone="danger">Could not reorder the fields: {errorText(reorder.error)}</Banner>
      )}
      {fields.length === 0 ? (
        <EmptyState title="No custom profile fields">
          {isAdmin
            ? 'Add one, such as pronouns, a team or a GitHub account.'
            : 'An administrator can add some.'}
        </EmptyState>
      ) : (
        <GridList
          aria-label="Custom profile fields"
          className="admin-list admin-grid"
          items={shown}
          dragAndDropHooks={dragAndDropHooks}
        >
          {(field) => {
            const index = shown.indexOf(field);
            const filled = countUsersWithValue(users, field.id);
            return (
              <GridListItem id={field.id} textValue={field.name} className="admin-row admin-grid-row">
                {isAdmin && (
                  <AriaButton slot="drag" className="admin-drag" aria-label={`Drag to reorder ${field.name}`}>
                    <GripVertical size={16} aria-hidden="true" />
                  </AriaButton>
                )}
                <div className="admin-row-main">
                  <span className="admin-row-title">{field.name}</span>
                  <span className="admin-row-sub">{field.hint || 'No hint'}</span>
                </div>
                <div className="admin-row-tags">
                  <Tag>{fieldTypeLabel(field.type)}</Tag>
                  {field.display_in_profile_summary && <Tag tone="accent">In summary</Tag>}
                  <span className="admin-row-muted">{people(filled)} filled in</span>
                </div>
                {isAdmin && (
                  <>
                    <Button
                      size="sm"
                      variant="ghost"
                      onPress={() => setEditing(field)}
                      aria-label={`Edit ${field.name}`}
                    >
                      Edit
                    </Button>
                    <MenuButton
                      label={`More actions for ${field.name}`}
                      icon={<MoreHorizontal size={16} aria-hidden="true" />}
                      actions={[
                        {
                          id: 'up',
                          label: 'Move up',
                          icon: <ArrowUp size={14} aria-hidden="true" />,
                          isDisabled: index === 0,
                          onAction: () => sendOrder(moveBy(shown, index, -1)),
                        },
                        {
                          id: 'down',
                          label: 'Move down',
                          icon: <ArrowDown size={14} aria-hidden="true" />,
                          isDisabled: index === shown.length - 1,
                          onAction: () => sendOrder(moveBy(shown, index, 1)),
                        },
                        {
                          id: 'delete',
                          label: 'Delete…',
                          danger: true,
                          separatorBefore: true,
                          onAction: () => setDeleting(field),
                        },
                      ]}
                    />
                  </>
                )}
              </GridListItem>
            );
          }}
        </GridList>
      )}
      {isAdmin && fields.length > 1 && (
        <p className="admin-reason">
          To reorder: drag a row by its handle, or focus the handle, press Enter, move with the arrow keys and
          press Enter again, or use “Move up” / “Move down”.
        </p>
      )}
      {editing && (
        <FieldDialog
          field={editing === 'new' ? null : editing}
          fields={fields}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <DeleteFieldDialog
          field={deleting}
          filled={countUsersWithValue(users, deleting.id)}
          onClose={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function DeleteFieldDialog({
  field,
  filled,
  onClose,
}: {
  field: CustomProfileField;
  filled: number;
  onClose: () => void;
}) {
  const remove = useApiMutation({ onSuccess: onClose });
  return (
    <ConfirmDialog
      isOpen
      title={`Delete “${field.name}”?`}
      message={
        filled === 0
          ? 'No one has filled it in yet.'
          : `${people(filled)} filled it in; their values will be deleted with the field.`
      }
      confirmLabel="Delete field"
      danger
      pending={remove.isPending}
      error={remove.error ? errorText(remove.error) : null}
      onCancel={onClose}
      onConfirm={() => remove.mutate({ method: 'DELETE', path: `/realm/profile_fields/${field.id}` })}
    />
  );
}

const EXTERNAL_SUBTYPES = [
  { id: 'github', label: 'GitHub' },
  { id: 'twitter', label: 'Twitter' },
  { id: 'custom', label: 'Custom' },
];

function parseData(field: CustomProfileField | null): Record<string, string> {
  try {
    return (JSON.parse(field?.field_data || '{}') as Record<string, string>) ?? {};
  } catch {
    return {};
  }
}

function FieldDialog({
  field,
  fields,
  onClose,
}: {
  field: CustomProfileField | null;
  fields: readonly CustomProfileField[];
  onClose: () => void;
}) {
  const users = useAllUsers();
  const initialData = parseData(field);
  const [preset, setPreset] = useState<string>('custom');
  const [type, setType] = useState<number>(field?.type ?? 1);
  const [name, setName] = useState(field?.name ?? '');
  const [hint, setHint] = useState(field?.hint ?? '');
  const [summary, setSummary] = useState(field?.display_in_profile_summary === true);
  const [rows, setRows] = useState<ChoiceRow[]>(() =>
    choicesFromFieldData(field?.type === CHOICE_TYPE ? field.field_data : '{}'),
  );
  const [subtype, setSubtype] = useState<string>(initialData.subtype ?? 'github');
  const [urlPattern, setUrlPattern] = useState<string>(initialData.url_pattern ?? '');
  const [removing, setRemoving] = useState<{ row: ChoiceRow; count: number } | null>(null);
  const save = useApiMutation({ onSuccess: onClose });

  const knownExternal = type === EXTERNAL_ACCOUNT_TYPE && subtype !== 'custom';
  // A known service's field has the service's name and hint, from its creation on (the server
  // refuses to change them afterwards).
  const lockedReason = knownExternal ? 'A known service’s field keeps its name and hint.' : null;
  const service =
    !field && knownExternal ? FIELD_PRESETS.find((p) => p.fieldData?.subtype === subtype) : null;
  const shownName = service?.name ?? name;
  const shownHint = service?.hint ?? hint;
  const summaryReason = summaryDisabledReason(type, fields, field?.id ?? null, summary);
  const problem =
    (!shownName.trim() && !knownExternal ? 'Enter a name.' : null) ??
    (type === CHOICE_TYPE ? choicesProblem(rows) : null) ??
    (type === EXTERNAL_ACCOUNT_TYPE && subtype === 'custom' && !urlPattern.includes('%(username)s')
      ? 'The URL pattern must contain %(username)s.'
      : null);

  const applyPreset = (id: string) => {
    setPreset(id);
    const p = FIELD_PRESETS.find((x) => x.id === id);
    if (!p) return;
    setType(p.type);
    setName(p.name);
    setHint(p.hint);
    if (p.fieldData?.subtype) setSubtype(p.fieldData.subtype);
  };

  const setRowText = (rowId: string, text: string) =>
    setRows((current) => withTrailingEmpty(current.map((r) => (r.rowId === rowId ? { ...r, text } : r))));
  const removeRow = (row: ChoiceRow) =>
    setRows((current) => withTrailingEmpty(current.filter((r) => r.rowId !== row.rowId)));
  const askRemove = (row: ChoiceRow) => {
    const count = row.key && field ? countUsersWithValue(users, field.id, row.key) : 0;
    if (count > 0) setRemoving({ row, count });
    else removeRow(row);
  };

  const buildParams = () => {
    const params: Record<string, unknown> = {
      name: shownName.trim(),
      hint: shownHint.trim(),
      display_in_profile_summary: summary,
    };
    if (type === CHOICE_TYPE) params.field_data = choicesToFieldData(rows);
    if (type === EXTERNAL_ACCOUNT_TYPE)
      params.field_data = subtype === 'custom' ? { subtype, url_pattern: urlPattern.trim() } : { subtype };
    return params;
  };
  // An edit saves only once something changed (a new field always may).
  const snapshot = JSON.stringify(buildParams());
  const [initialSnapshot] = useState(snapshot);
  const unchanged = field !== null && snapshot === initialSnapshot;

  const submit = () => {
    if (problem || unchanged) return;
    const params = buildParams();
    if (field) {
      if (lockedReason) {
        save.mutate({
          method: 'PATCH',
          path: `/realm/profile_fields/${field.id}`,
          params: { display_in_profile_summary: summary },
        });
      } else save.mutate({ method: 'PATCH', path: `/realm/profile_fields/${field.id}`, params });
    } else
      save.mutate({ method: 'POST', path: '/realm/profile_fields', params: { ...params, field_type: type } });
  };

  return (
    <Dialog
      title={field ? `Edit “${field.name}”` : 'Add a custom profile field'}
      isOpen
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button
            variant="primary"
            isDisabled={problem !== null || unchanged || save.isPending}
            onPress={submit}
          >
            {field ? 'Save field' : 'Add field'}
          </Button>
        </>
      }
    >
      <div className="admin-form">
        {!field && (
          <div className="admin-form-pair">
            <Select
              label="Start from"
              options={[
                { id: 'custom', label: 'A blank field' },
                ...FIELD_PRESETS.map((p) => ({ id: p.id, label: p.label })),
              ]}
              value={preset}
              onChange={applyPreset}
            />
            <Select
              label="Type"
              options={FIELD_TYPES}
              value={type}
              onChange={(t) => {
                setType(t);
                setPreset('custom');
              }}
            />
          </div>
        )}
        {field && (
          <p className="admin-row-sub">Type: {fieldTypeLabel(type)} (a field’s type cannot change)</p>
        )}
        {type === EXTERNAL_ACCOUNT_TYPE && (
          <div className="admin-form-pair">
            <Select
              label="Service"
              options={EXTERNAL_SUBTYPES}
              value={subtype}
              onChange={(s) => {
                setSubtype(s);
                setPreset(FIELD_PRESETS.find((p) => p.fieldData?.subtype === s)?.id ?? 'custom');
              }}
              disabledReason={field ? 'The service of an existing field cannot change.' : null}
            />
            {subtype === 'custom' && (
              <TextField
                label="URL pattern"
                value={urlPattern}
                onChange={setUrlPattern}
                placeholder="https://example.com/u/%(username)s"
                description="Where %(username)s stands for what people enter."
                isReadOnly={Boolean(field)}
              />
            )}
          </div>
        )}
        <TextField
          label="Name"
          value={shownName}
          onChange={setName}
          maxLength={MAX_NAME}
          isRequired
          isReadOnly={lockedReason !== null}
          // Always a description: react-aria links one present from the start (the lock may come later).
          description={lockedReason ?? 'The field’s label on everyone’s profile.'}
        />
        <TextField
          label="Hint"
          value={shownHint}
          onChange={setHint}
          maxLength={MAX_HINT}
          isReadOnly={lockedReason !== null}
          description="Shown to people as they fill the field in."
        />
        {type === CHOICE_TYPE && (
          <fieldset className="admin-choices">
            <legend className="field-label">Choices</legend>
            <ol className="admin-choice-list">
              {rows.map((row, index) => {
                const last = index === rows.length - 1;
                return (
                  <li key={row.rowId} className="admin-choice-row">
                    <TextField
                      label={last ? 'New choice' : `Choice ${index + 1}`}
                      labelHidden
                      value={row.text}
                      onChange={(text) => setRowText(row.rowId, text)}
                      placeholder={last ? 'Type a new choice' : undefined}
                    />
                    {!last && (
                      <>
                        <IconButton
                          label={`Move “${row.text}” up`}
                          icon={<ArrowUp size={14} aria-hidden="true" />}
                          isDisabled={index === 0}
                          onPress={() => setRows((r) => withTrailingEmpty(moveBy(r.slice(0, -1), index, -1)))}
                        />
                        <IconButton
                          label={`Move “${row.text}” down`}
                          icon={<ArrowDown size={14} aria-hidden="true" />}
                          isDisabled={index >= rows.length - 2}
                          onPress={() => setRows((r) => withTrailingEmpty(moveBy(r.slice(0, -1), index, 1)))}
                        />
                        <IconButton
                          label={`Remove “${row.text}”`}
                          icon={<X size={14} aria-hidden="true" />}
                          onPress={() => askRemove(row)}
                        />
                      </>
                    )}
                  </li>
                );
              })}
            </ol>
            <Button
              size="sm"
              variant="ghost"
              icon={<SortAsc size={14} aria-hidden="true" />}
              onPress={() => setRows(alphabetize)}
            >
              Alphabetize
            </Button>
          </fieldset>
        )}
        <Switch
          label="Display in profile summary"
          isSelected={summary}
          onChange={setSummary}
          description="Shown on the small profile card, at most 2 fields."
          disabledReason={summaryReason}
        />
        {problem && <p className="admin-reason">{problem}</p>}
        {save.error && <InlineError>Could not save the field: {errorText(save.error)}</InlineError>}
      </div>
      {removing && (
        <ConfirmDialog
          isOpen
          title={`Remove “${removing.row.text}”?`}
          message={`${people(removing.count)} ${removing.count === 1 ? 'has' : 'have'} it selected; their value will be cleared when you save.`}
          confirmLabel="Remove choice"
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            removeRow(removing.row);
            setRemoving(null);
          }}
        />
      )}
    </Dialog>
  );
}
