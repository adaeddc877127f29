import { Alert, Anchor, Button, Fieldset, Group, List, Stack, Text, Title } from '@mantine/core';
import {
  type Call,
  catalogueWords,
  checkAction,
  type Entity,
  entityLabel,
  type FormScreen as FormScreenType,
  fieldAccess,
  findEntity,
  type JsonValue,
  type Model,
  planCreate,
  planUpdate,
  recordName,
} from '@ninefold/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from '../app/router';
import { screenFor } from '../app/routes';
import { useParentPath, useScreenParams } from '../app/ScreenParams';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import {
  ApiError,
  type EntityCalls,
  NetworkError,
  type PathValues,
  UnconfirmedWriteError,
  type VersionedRecord,
} from '../data/data-provider';
import { requireCall } from '../data/entity-calls';
import { DraftOffer } from '../drafts/DraftOffer';
import {
  browserStorage,
  createDraftStore,
  type Draft,
  type DraftAddress,
  type DraftStore,
} from '../drafts/draft-store';
import { isSecret, restoredValues } from '../drafts/draft-values';
import { newIdempotencyKey } from '../drafts/idempotency-key';
import { useDraftKeeper } from '../drafts/useDraftKeeper';
import { ErrorNotice, errorMessage } from '../errors/ErrorNotice';
import { errorView } from '../errors/error-view';
import { useErrorView } from '../errors/useErrorView';
import { notify } from '../feedback/feedback-store';
import { labelOf } from '../fields/display-props';
import { FieldInput } from '../fields/FieldInput';
import { fieldGroups } from '../fields/field-groups';
import { ConflictPanel } from '../form/ConflictPanel';
import { changedFields, sameValue } from '../form/changed-fields';
import { type ConflictChoice, type ConflictRow, conflictRows, mergedValues } from '../form/conflict-rows';
import { DerivedValue } from '../form/DerivedValue';
import { type FormEntry, formLayout } from '../form/form-fields';
import {
  type FormValues,
  forValidation,
  fromFormValues,
  type OutgoingRecord,
  referencesFrom,
  toFormValues,
} from '../form/form-values';
import { LiveChangeNotice } from '../form/LiveChangeNotice';
import { LoadFailure } from '../form/LoadFailure';
import { pointerToFormPath } from '../form/pointer-path';
import { invalidateEntity, recordKey } from '../form/query-keys';
import { ReadOnlyValue } from '../form/ReadOnlyValue';
import { RecordLoading } from '../form/RecordLoading';
import { recordIdFrom, recordPath } from '../form/record-path';
import { useRecord } from '../form/useRecord';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { feedback as feedbackMessages } from '../i18n/en/feedback';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { StatesSection } from '../states/StatesSection';
import { roleUnknown, settle } from './access-policy';
import { refusalText } from './access-text';
import { NotAllowed } from './NotAllowed';

addEnglish('form', formMessages);
addEnglish('feedback', feedbackMessages);

addEnglish('drafts', drafts);

/**
 * A create or edit screen (point 2) for one entity. Edit loads the record and keeps the version it was
 * read at; both check the values with the shared `validateRecord` before anything is sent, and send
 * nothing while a value is invalid.
 */
export default function FormScreen({ screen }: { screen: FormScreenType }) {
  const { model, data } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSession();
  const { principal } = session;
  const params = useScreenParams();
  const entity = findEntity(model, screen.entity);
  const editing = screen.kind === 'edit';
  const id = editing ? recordIdFrom(screen.route, params) : undefined;
  const canGet = data.calls(screen.entity).get !== undefined;
  const parents = useParentPath(screen.route, editing);
  const loaded = useRecord(screen.entity, id, { enabled: editing, ...(parents ? { path: parents } : {}) });

  if (!entity) {
    return <Alert color="yellow">{t('form.unknownEntity', { entity: screen.entity })}</Alert>;
  }
  if (!editing) return <DraftedForm screen={screen} entity={entity} />;
  if (!canGet) return <Alert color="yellow">{t('form.noGetCall', { entity: entityLabel(entity) })}</Alert>;
  if (id === undefined || loaded.isError) {
    return <LoadFailure error={loaded.error} entity={entity} id={id} onRetry={() => loaded.refetch()} />;
  }
  if (loaded.isPending) return <RecordLoading />;
  // The screen is the role's, but its grant's condition may exclude this record ("own records only").
  const verdict = settle(checkAction(model, principal, entity.name, 'update', loaded.data.record), session);
  if (!verdict.allowed) {
    const reason = refusalText(i18n, model, principal, verdict.reason, {
      entity: entity.name,
      action: 'update',
    });
    return <NotAllowed reason={reason} signIn={verdict.reason === 'not-signed-in'} />;
  }
  // One form per record: moving to another record's edit screen starts afresh.
  return <DraftedForm key={id} screen={screen} entity={entity} id={id} loaded={loaded.data} />;
}

/**
 * What the top of the form says when saving cannot go ahead: values the form itself found invalid, or a
 * failed call (shown as the error catalogue says). `messages` are those no input of the form can show.
 */
type Problem =
  | { kind: 'invalid'; messages: string[] }
  | { kind: 'failed'; error: unknown; messages: string[] };

interface DraftedFormProps {
  screen: FormScreenType;
  entity: Entity;
  id?: string;
  loaded?: VersionedRecord;
}

/**
 * The form with its draft: unsaved changes kept in this browser for this record (or for a new one) are
 * offered back above it, and restoring starts the form again from them, on the version they were based
 * on. A draft typed by someone else who signed in on this browser is not offered.
 */
function DraftedForm({ screen, entity, id, loaded }: DraftedFormProps) {
  const { model, api } = useSpec();
  const { principal } = useSession();
  const store = useMemo(() => createDraftStore(browserStorage()), []);
  const address = useMemo<DraftAddress>(
    () => ({ app: `${model.title ?? ''}@${api.base}`, entity: entity.name, id }),
    [model.title, api.base, entity.name, id],
  );
  const owner = ownerOf(principal.user);
  const [offer, setOffer] = useState<Draft | undefined>(() => {
    const found = store.read(address);
    return found && found.owner === owner ? found : undefined;
  });
  const [restored, setRestored] = useState<Draft | undefined>();
  const [generation, setGeneration] = useState(0);

  const notice = offer ? (
    <DraftOffer
      draft={offer}
      entity={entityLabel(entity)}
      changedSince={loaded !== undefined && changedSince(model, entity, offer, loaded)}
      onRestore={() => {
        setRestored(offer);
        setOffer(undefined);
        // A new form, from the draft's values and on the version the draft was based on.
        setGeneration((count) => count + 1);
      }}
      onDiscard={() => {
        // Typing since the form opened may have replaced the offered draft: that one stays.
        if (store.read(address)?.savedAt === offer.savedAt) store.remove(address);
        setOffer(undefined);
      }}
    />
  ) : undefined;

  return (
    <RecordForm
      key={generation}
      screen={screen}
      entity={entity}
      {...(id === undefined ? {} : { id })}
      {...(loaded ? { loaded } : {})}
      {...(restored ? { restored } : {})}
      drafts={{ store, address, ...(owner === undefined ? {} : { owner }) }}
      notice={notice}
    />
  );
}

/** Who typed a draft: the signed-in user's id, else their email; nobody without a session. */
function ownerOf(user: Record<string, JsonValue> | undefined): string | undefined {
  const who = user?.id ?? user?.email;
  return typeof who === 'string' || typeof who === 'number' ? String(who) : undefined;
}

/** Whether the record now differs from the one the draft was based on: by version, else by its values. */
function changedSince(model: Model, entity: Entity, draft: Draft, loaded: VersionedRecord): boolean {
  if (draft.basedOn !== undefined && loaded.version !== undefined) return draft.basedOn !== loaded.version;
  if (!draft.base) return false;
  const base = draft.base;
  return entity.fields.some(
    (field) => !isSecret(field) && !sameValue(model, field, base[field.name], loaded.record[field.name]),
  );
}

interface RecordFormProps {
  screen: FormScreenType;
  entity: Entity;
  id?: string;
  loaded?: VersionedRecord;
  /** The draft the person chose to restore: the form starts from its values. */
  restored?: Draft;
  drafts: { store: DraftStore; address: DraftAddress; owner?: string };
  /** Shown under the title: the offer of a draft. */
  notice?: ReactNode;
}

/** A 412 being resolved: the record as it is now, and the fields on which it differs from the form. */
interface Conflict {
  theirs: VersionedRecord;
  rows: ConflictRow[];
  error: ApiError;
}

function RecordForm({ screen, entity, id, loaded, restored, drafts, notice }: RecordFormProps) {
  const { model, data } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSession();
  const { principal } = session;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const titleId = useId();
  // The record's parents, from the route: a nested record is saved under them.
  const path = useParentPath(screen.route, screen.kind === 'edit');
  const under = path === undefined ? {} : { path };
  const editing = screen.kind === 'edit';
  // The record as it was read when the form opened (or as the restored draft was based on): changes are
  // computed against it and its version is sent, so a later background refresh cannot silently
  // overwrite someone else's change. It moves on only when the person settles a conflict.
  const [original, setOriginal] = useState<VersionedRecord | undefined>(() =>
    editing && restored?.base
      ? { record: restored.base, ...(restored.basedOn === undefined ? {} : { version: restored.basedOn }) }
      : loaded,
  );
  const originalRef = useRef(original);
  const stored = original?.record;
  // Fixed when the form opens, like its values: a form must not lose inputs while the person types.
  const [limits] = useState(() => fieldAccess(model, principal, entity.name));
  // The fields come from the body of the call that saves (a create's request may differ from the record
  // it answers: `NewPet` for `Pet`); the record, its calls and its screens stay the screen's entity's.
  const form = useMemo(
    () => formEntityOf(model, data.calls(entity.name), entity, editing, path),
    [model, data, entity, editing, path],
  );
  const layout = useMemo(() => formLayout(form, screen, limits), [form, screen, limits]);
  const [search] = useSearchParams();
  // A new record started from another one's page (a customer's "New order") points at it already.
  const [startValues] = useState(() => ({
    ...toFormValues(model, layout.inputs, stored, { defaults: !editing }),
    ...(editing ? {} : referencesFrom(layout.inputs, search)),
  }));
  /** The values of the record the form is based on: a draft equal to them is no draft. */
  const baseline = useRef<FormValues>(startValues);
  const [defaultValues] = useState(() =>
    restored ? restoredValues(startValues, restored.values) : startValues,
  );
  const methods = useForm({
    defaultValues,
    // Validation runs on save, over the whole record, with the rules the API runs.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const [problem, setProblem] = useState<Problem | undefined>();
  const [conflict, setConflict] = useState<Conflict | undefined>();
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const calls = data.calls(entity.name);
  const canSave = (editing ? calls.update : calls.create) !== undefined;
  // One key per form, kept in its draft: every try of this create (a double click, a retry after the
  // network failed, a save again after a reload) is the same request to the API, which creates once.
  const [firstKey] = useState(() =>
    editing ? undefined : (restored?.idempotencyKey ?? newIdempotencyKey()),
  );
  const idempotencyKey = useRef(firstKey);
  // A second click can come before React has drawn the disabled button.
  const saving = useRef(false);

  const keeper = useDraftKeeper({
    model,
    store: drafts.store,
    address: drafts.address,
    methods,
    fields: layout.inputs,
    baseline: () => baseline.current,
    extra: () => {
      const base = originalRef.current;
      return {
        ...(editing && base ? { base: withoutSecrets(form, base.record) } : {}),
        ...(editing && base?.version !== undefined ? { basedOn: base.version } : {}),
        ...(idempotencyKey.current === undefined ? {} : { idempotencyKey: idempotencyKey.current }),
        ...(drafts.owner === undefined ? {} : { owner: drafts.owner }),
      };
    },
  });

  const moveTo = (next: VersionedRecord) => {
    originalRef.current = next;
    setOriginal(next);
    baseline.current = toFormValues(model, layout.inputs, next.record, { defaults: false });
  };

  const detail = screenFor(model, 'detail', entity.name);
  const list = screenFor(model, 'list', entity.name);
  const detailOf = (recordId: string | undefined) =>
    detail && recordId !== undefined ? recordPath(detail.route, recordId) : undefined;
  const cancelTo = (editing ? detailOf(id) : undefined) ?? list?.route ?? '/';

  const display = entity.display ? stored?.[entity.display] : undefined;
  const name = display === undefined || display === null || display === '' ? id : labelOf(display);
  const title =
    screen.title ??
    (editing
      ? t('form.editTitle', { name: name ?? entityLabel(entity) })
      : t('form.createTitle', { entity: entityLabel(entity) }));
  useDocumentTitle(title);

  // After errors are shown, focus goes to the first invalid field in the page's order, else the message.
  useEffect(() => {
    if (focusRequest === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>(
      '[aria-invalid="true"], [data-nf-invalid="true"]',
    );
    (invalid ?? alertRef.current)?.focus();
  }, [focusRequest]);

  /** Puts each error on its input; answers the messages no input of this form can show. */
  const placeErrors = (errors: ReadonlyArray<{ pointer: string; message: string; code?: string }>) => {
    const unplaced: string[] = [];
    for (const error of errors) {
      const target = pointerToFormPath(model, form, error.pointer);
      if (target && layout.inputs.some((field) => field.name === target.field)) {
        methods.setError(target.name, { type: error.code ?? 'invalid', message: error.message });
      } else {
        unplaced.push(error.message);
      }
    }
    return unplaced;
  };

  const showError = (error: unknown) => {
    // The catalogue's message replaces the API's on the fields its entries name (point 8).
    const view = errorView(model, error, entity.name);
    setProblem({ kind: 'failed', error, messages: placeErrors(view.fieldErrors) });
    setFocusRequest((count) => count + 1);
  };

  /** The catalogue's "fix the field" action: to the input of the field its entry names. */
  const fixField = (pointer: string | undefined) => {
    const target = pointer === undefined ? undefined : pointerToFormPath(model, form, pointer);
    if (!target || !layout.inputs.some((field) => field.name === target.field)) {
      setFocusRequest((count) => count + 1);
      return;
    }
    // A list has no input to focus (its errors are at `lines.root`): its group takes focus instead. Field names are plain names (the
    // model's check), so they need no escaping in the selector.
    const groupName = target.name.replace(/\.root$/, '');
    const group = formRef.current?.querySelector<HTMLElement>(`[data-nf-field="${groupName}"]`);
    if (group) group.focus();
    else methods.setFocus(target.name);
  };

  /** Someone else saved first: both versions side by side, from the 412 itself or read again. */
  const openConflict = async (error: ApiError) => {
    let theirs: VersionedRecord | undefined = error.current
      ? { record: error.current, ...(error.currentVersion ? { version: error.currentVersion } : {}) }
      : undefined;
    if (!theirs && id !== undefined && calls.get) {
      theirs = await data.get({ entity: entity.name, id, ...under }).catch(() => undefined);
    }
    if (!theirs) {
      showError(error);
      return;
    }
    const base = originalRef.current?.record ?? {};
    const rows = conflictRows(model, layout.inputs, base, methods.getValues(), theirs.record);
    setConflict({ theirs, rows, error });
    setFocusRequest((count) => count + 1);
  };

  const mutation = useMutation({
    mutationFn: ({ values, version }: { values: OutgoingRecord; version?: string | undefined }) =>
      editing
        ? data.update({
            entity: entity.name,
            id: id ?? '',
            ...under,
            values,
            ...(version === undefined ? {} : { version }),
          })
        : data.create({
            entity: entity.name,
            ...under,
            values,
            ...(idempotencyKey.current === undefined ? {} : { idempotencyKey: idempotencyKey.current }),
          }),
    onSuccess: (saved) => {
      saving.current = false;
      keeper.clear();
      const key = saved.record[entity.key ?? 'id'];
      const savedId = key === undefined || key === null ? id : String(key);
      // Lists and choices of this entity are stale now; the saved record itself is known.
      invalidateEntity(queryClient, entity.name);
      if (savedId !== undefined) queryClient.setQueryData(recordKey(entity.name, savedId), saved);
      const savedName = recordName(entity, saved.record) ?? savedId ?? entityLabel(entity);
      notify({
        tone: 'done',
        message: editing
          ? t('feedback.saved', { name: savedName })
          : t('feedback.created', { entity: entityLabel(entity), name: savedName }),
      });
      void navigate(detailOf(savedId) ?? list?.route ?? '/');
    },
    onError: (error) => {
      saving.current = false;
      if (!editing && refusedOutright(error)) {
        // The API answered, so nothing was created under this key, and it keeps that answer for the
        // key: the next try, with whatever the person fixes, is a new request.
        idempotencyKey.current = newIdempotencyKey();
        keeper.flush({ force: true });
      }
      if (editing && error instanceof ApiError && error.status === 412) {
        void openConflict(error);
        return;
      }
      showError(error);
    },
  });

  /**
   * Checks the form's values with the core's write plan, as the API will (the role, its fields, point 5,
   * the grant's condition on the record as it will be), and sends them as a change of `base` (on edit)
   * or a new record. References and rules across records are the API's: the form has no reader.
   */
  const save = async (base: VersionedRecord | undefined) => {
    if (saving.current) return;
    methods.clearErrors();
    setProblem(undefined);
    const record = fromFormValues(model, layout.inputs, methods.getValues());
    const changed = editing && base ? changedFields(model, layout.inputs, base.record, record) : record;
    // A PUT replaces the record: it is sent whole, as its schema asks, where a PATCH sends the changes.
    const input =
      editing && calls.update?.method === 'PUT' && Object.keys(changed).length > 0 ? record : changed;
    if (editing && Object.keys(changed).length === 0) {
      keeper.clear();
      void navigate(cancelTo);
      return;
    }
    saving.current = true;
    // A refusal for want of a role is the API's to make when the client cannot know the role.
    const actor = { principal: roleUnknown(session) ? ('unchecked' as const) : principal, now: new Date() };
    const values = forValidation(input);
    const planned = editing
      ? await planUpdate(model, entity, base?.record ?? {}, values, actor, { shape: form })
      : await planCreate(model, entity, values, actor, { shape: form });
    if (!planned.ok) {
      saving.current = false;
      const { refusal } = planned;
      const messages = refusal.access
        ? [
            refusalText(i18n, model, principal, refusal.access, {
              entity: entity.name,
              action: editing ? 'update' : 'create',
            }),
          ]
        : refusal.errors.length > 0
          ? placeErrors(catalogueWords(model, form.name, refusal.errors))
          : [refusal.message];
      setProblem(messages.length > 0 ? { kind: 'invalid', messages } : undefined);
      setFocusRequest((count) => count + 1);
      return;
    }
    // Written before sending: if the tab dies before the answer, the draft and its key are still there.
    keeper.flush({ force: !editing });
    mutation.mutate({ values: input, version: base?.version });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending || conflict) return;
    void save(originalRef.current);
  };

  const resolveConflict = (next: FormValues | undefined, then: 'save' | 'stay') => {
    if (!conflict) return;
    moveTo(conflict.theirs);
    setConflict(undefined);
    if (next) methods.reset(next);
    if (then === 'save') void save(conflict.theirs);
  };

  const entryInput = ({ field, editable }: FormEntry) =>
    editable ? (
      <FieldInput
        key={field.name}
        field={field}
        name={field.name}
        scope={{ root: form.name, path: [field.name], owner: form.name }}
      />
    ) : field.derived !== undefined ? (
      <DerivedValue key={field.name} field={field} entity={form} inputs={layout.inputs} stored={stored} />
    ) : (
      <ReadOnlyValue
        key={field.name}
        field={field}
        value={stored?.[field.name] as JsonValue | undefined}
        entity={form.name}
      />
    );
  const anyRequired = useMemo(
    () =>
      model.validation.shown &&
      model.validation.fields.some((constraint) => constraint.entity === form.name && constraint.required),
    [model, form.name],
  );

  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2" id={titleId}>
        {title}
      </Title>
      {screen.description ? <Text c="dimmed">{screen.description}</Text> : null}
      {notice}
      {editing && id !== undefined ? (
        <LiveChangeNotice entity={entity.name} id={id} base={stored ?? {}} inputs={layout.inputs} />
      ) : null}
      {!canSave ? (
        <Alert color="yellow">{t('form.noSaveCall', { entity: entityLabel(entity) })}</Alert>
      ) : null}
      {conflict ? (
        <ConflictPanel
          key={conflict.theirs.version ?? 'current'}
          ref={alertRef}
          entityLabel={entityLabel(entity)}
          entity={entity.name}
          rows={conflict.rows}
          message={<ConflictMessage error={conflict.error} entity={entity.name} />}
          saving={mutation.isPending}
          onKeepMine={() => resolveConflict(undefined, 'save')}
          onTakeTheirs={() =>
            resolveConflict(
              toFormValues(model, layout.inputs, conflict.theirs.record, { defaults: false }),
              'stay',
            )
          }
          onSaveChoices={(choices: Record<string, ConflictChoice>) =>
            resolveConflict(
              mergedValues(model, layout.inputs, methods.getValues(), conflict.theirs.record, choices),
              'save',
            )
          }
        />
      ) : null}
      {problem?.kind === 'invalid' ? (
        <Alert ref={alertRef} tabIndex={-1} color="red" title={t('form.invalidTitle')}>
          <ProblemList messages={problem.messages} />
        </Alert>
      ) : problem?.kind === 'failed' ? (
        <ErrorNotice
          ref={alertRef}
          error={problem.error}
          entity={entity.name}
          title={
            problem.error instanceof UnconfirmedWriteError
              ? t('form.unconfirmedTitle')
              : problem.error instanceof NetworkError
                ? t('form.networkFailed')
                : t('form.saveFailed')
          }
          networkMessage={t('form.networkFailedDetail')}
          onRetry={() => save(originalRef.current)}
          retrying={mutation.isPending}
          onFixField={fixField}
          backTo={cancelTo}
        >
          <ProblemList messages={problem.messages} />
          {problem.error instanceof UnconfirmedWriteError && list ? (
            <Anchor component={Link} to={list.route} size="sm">
              {t('errors.unconfirmedLook')}
            </Anchor>
          ) : null}
        </ErrorNotice>
      ) : null}
      <FormProvider {...methods}>
        <form ref={formRef} noValidate onSubmit={submit} aria-labelledby={titleId}>
          <Stack gap="md">
            {anyRequired ? (
              <Text size="sm" c="dimmed">
                {t('form.requiredNote')}
              </Text>
            ) : null}
            {fieldGroups(layout.entries, (entry) => entry.field).map((group) =>
              group.name === undefined ? (
                group.items.map(entryInput)
              ) : (
                // Point 3's groups: a fieldset each, named by its legend.
                <Fieldset key={group.name} legend={group.name} variant="unstyled" className="nf-form-group">
                  <Stack gap="md">{group.items.map(entryInput)}</Stack>
                </Fieldset>
              ),
            )}
            {keeper.outcome === 'too-large' || keeper.outcome === 'unavailable' ? (
              <Text size="sm" c="dimmed">
                {t(keeper.outcome === 'too-large' ? 'drafts.tooLarge' : 'drafts.unavailable')}
              </Text>
            ) : null}
            <Group gap="sm">
              <Button
                type="submit"
                loading={mutation.isPending}
                disabled={mutation.isPending || !canSave || conflict !== undefined}
              >
                {t('form.save')}
              </Button>
              <Button component={Link} to={cancelTo} variant="default" onClick={() => keeper.clear()}>
                {t('form.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
      {editing && id !== undefined && stored ? (
        <StatesSection entity={entity} id={id} record={stored} version={original?.version} />
      ) : null}
    </Stack>
  );
}

function ProblemList({ messages }: { messages: readonly string[] }) {
  return messages.length > 0 ? (
    <List size="sm">
      {messages.map((message) => (
        <List.Item key={message}>{message}</List.Item>
      ))}
    </List>
  ) : null;
}

/** Why the save was refused, as the error catalogue says it for a 412 (else the client's words). */
function ConflictMessage({ error, entity }: { error: ApiError; entity: string }) {
  const i18n = useI18n();
  const view = useErrorView(error, entity);
  return view ? <Text size="sm">{errorMessage(view, i18n)}</Text> : null;
}

/** A record as a draft may keep it: without the values of secret fields, should an API send them. */
/**
 * The entity whose fields a form shows and sends: the saving call's body entity, chosen by the route's
 * parents as the call is, when it differs from the record's and has fields; else the record's own.
 */
function formEntityOf(
  model: Model,
  calls: EntityCalls,
  record: Entity,
  editing: boolean,
  path: PathValues | undefined,
): Entity {
  let call: Call | undefined;
  try {
    call = requireCall(calls, record.name, editing ? 'update' : 'create', path);
  } catch {
    return record;
  }
  const name = call.body?.entity;
  if (name === undefined || name === record.name) return record;
  const body = findEntity(model, name);
  return body !== undefined && body.fields.length > 0 ? body : record;
}

function withoutSecrets(entity: Entity, record: Record<string, JsonValue>): Record<string, JsonValue> {
  const secret = new Set(entity.fields.filter(isSecret).map((field) => field.name));
  return Object.fromEntries(Object.entries(record).filter(([name]) => !secret.has(name)));
}

/**
 * Whether the API answered a create with a refusal it keeps for the key (any 4xx): nothing was created,
 * so the next try must be a new request. A 5xx is not kept and a 409 "in progress" means the first try
 * is still running: both keep the key, as a lost answer (a network failure) does.
 */
function refusedOutright(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status < 500 &&
    !(error.status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS')
  );
}
