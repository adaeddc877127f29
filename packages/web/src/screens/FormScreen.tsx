import { Alert, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import {
  checkAction,
  type Entity,
  entityLabel,
  type FormScreen as FormScreenType,
  fieldAccess,
  findEntity,
  type JsonValue,
  validateRecord,
} from '@ninefold/spec';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { screenFor } from '../app/routes';
import { useScreenParams } from '../app/ScreenParams';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { ApiError, NetworkError, type VersionedRecord } from '../data/data-provider';
import { textOf } from '../fields/display-props';
import { FieldInput } from '../fields/FieldInput';
import { changedFields } from '../form/changed-fields';
import { DerivedValue } from '../form/DerivedValue';
import { formLayout } from '../form/form-fields';
import { forValidation, fromFormValues, type OutgoingRecord, toFormValues } from '../form/form-values';
import { LoadFailure } from '../form/LoadFailure';
import { pointerToFormPath } from '../form/pointer-path';
import { invalidateEntity, recordKey } from '../form/query-keys';
import { ReadOnlyValue } from '../form/ReadOnlyValue';
import { RecordLoading } from '../form/RecordLoading';
import { recordIdFrom, recordPath } from '../form/record-path';
import { useRecord } from '../form/useRecord';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { settle } from './access-policy';
import { refusalText } from './access-text';
import { NotAllowed } from './NotAllowed';

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
  const loaded = useRecord(screen.entity, id, { enabled: editing });

  if (!entity) {
    return <Alert color="yellow">{t('form.unknownEntity', { entity: screen.entity })}</Alert>;
  }
  if (!editing) return <RecordForm screen={screen} entity={entity} />;
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
  return <RecordForm key={id} screen={screen} entity={entity} id={id} loaded={loaded.data} />;
}

/** What the top of the form says when saving cannot go ahead. */
interface Problem {
  title: string;
  detail?: string;
  /** Messages about values the form has no input for (or the record as a whole). */
  messages: string[];
}

interface RecordFormProps {
  screen: FormScreenType;
  entity: Entity;
  id?: string;
  loaded?: VersionedRecord;
}

function RecordForm({ screen, entity, id, loaded }: RecordFormProps) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const { principal } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const titleId = useId();
  const editing = screen.kind === 'edit';
  // The record as it was read when the form opened: changes are computed against it and its version is
  // sent, so a later background refresh cannot silently overwrite someone else's change.
  const [original] = useState(loaded);
  const stored = original?.record;
  // Fixed when the form opens, like its values: a form must not lose inputs while the person types.
  const [limits] = useState(() => fieldAccess(model, principal, entity.name));
  const layout = useMemo(() => formLayout(entity, screen, limits), [entity, screen, limits]);
  const [defaultValues] = useState(() => toFormValues(model, layout.inputs, stored, { defaults: !editing }));
  const methods = useForm({
    defaultValues,
    // Validation runs on save, over the whole record, with the rules the API runs.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const [problem, setProblem] = useState<Problem | undefined>();
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const calls = data.calls(entity.name);
  const canSave = (editing ? calls.update : calls.create) !== undefined;

  const detail = screenFor(model, 'detail', entity.name);
  const list = screenFor(model, 'list', entity.name);
  const detailOf = (recordId: string | undefined) =>
    detail && recordId !== undefined ? recordPath(detail.route, recordId) : undefined;
  const cancelTo = (editing ? detailOf(id) : undefined) ?? list?.route ?? '/';

  const display = entity.display ? stored?.[entity.display] : undefined;
  const name = display === undefined || display === null || display === '' ? id : textOf(display);
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
      const target = pointerToFormPath(model, entity, error.pointer);
      if (target && layout.inputs.some((field) => field.name === target.field)) {
        methods.setError(target.name, { type: error.code ?? 'invalid', message: error.message });
      } else {
        unplaced.push(error.message);
      }
    }
    return unplaced;
  };

  const mutation = useMutation({
    mutationFn: (values: OutgoingRecord) =>
      editing
        ? data.update({
            entity: entity.name,
            id: id ?? '',
            values,
            ...(original?.version === undefined ? {} : { version: original.version }),
          })
        : data.create({ entity: entity.name, values }),
    onSuccess: (saved) => {
      const key = saved.record[entity.key ?? 'id'];
      const savedId = key === undefined || key === null ? id : String(key);
      // Lists and choices of this entity are stale now; the saved record itself is known.
      invalidateEntity(queryClient, entity.name);
      if (savedId !== undefined) queryClient.setQueryData(recordKey(entity.name, savedId), saved);
      void navigate(detailOf(savedId) ?? list?.route ?? '/');
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        const unplaced = placeErrors(error.fieldErrors);
        setProblem({
          title: error.title,
          ...(error.detail && error.detail !== error.title ? { detail: error.detail } : {}),
          messages: unplaced,
        });
      } else if (error instanceof NetworkError) {
        setProblem({ title: t('form.networkFailed'), detail: t('form.networkFailedDetail'), messages: [] });
      } else {
        console.error('[ninefold] saving failed', error);
        setProblem({ title: t('form.saveFailed'), messages: [] });
      }
      setFocusRequest((count) => count + 1);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    methods.clearErrors();
    setProblem(undefined);
    const record = fromFormValues(model, layout.inputs, methods.getValues());
    const input = editing && stored ? changedFields(model, layout.inputs, stored, record) : record;
    if (editing && Object.keys(input).length === 0) {
      void navigate(cancelTo);
      return;
    }
    const checked = validateRecord(
      model,
      entity.name,
      forValidation(input),
      editing ? { mode: 'update', old: stored ?? {} } : { mode: 'create' },
    );
    if (!checked.ok) {
      const unplaced = placeErrors(checked.errors);
      setProblem(unplaced.length > 0 ? { title: t('form.invalidTitle'), messages: unplaced } : undefined);
      setFocusRequest((count) => count + 1);
      return;
    }
    mutation.mutate(input);
  };

  const anyRequired = useMemo(
    () =>
      model.validation.shown &&
      model.validation.fields.some((constraint) => constraint.entity === entity.name && constraint.required),
    [model, entity.name],
  );

  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2" id={titleId}>
        {title}
      </Title>
      {screen.description ? <Text c="dimmed">{screen.description}</Text> : null}
      {!canSave ? (
        <Alert color="yellow">{t('form.noSaveCall', { entity: entityLabel(entity) })}</Alert>
      ) : null}
      {problem ? (
        <Alert ref={alertRef} tabIndex={-1} color="red" title={problem.title}>
          {problem.detail ? <Text size="sm">{problem.detail}</Text> : null}
          {problem.messages.length > 0 ? (
            <List size="sm" mt={problem.detail ? 'xs' : 0}>
              {problem.messages.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          ) : null}
        </Alert>
      ) : null}
      <FormProvider {...methods}>
        <form ref={formRef} noValidate onSubmit={submit} aria-labelledby={titleId}>
          <Stack gap="md">
            {anyRequired ? (
              <Text size="sm" c="dimmed">
                {t('form.requiredNote')}
              </Text>
            ) : null}
            {layout.entries.map(({ field, editable }) =>
              editable ? (
                <FieldInput
                  key={field.name}
                  field={field}
                  name={field.name}
                  scope={{ root: entity.name, path: [field.name], owner: entity.name }}
                />
              ) : field.derived !== undefined ? (
                <DerivedValue
                  key={field.name}
                  field={field}
                  entity={entity}
                  inputs={layout.inputs}
                  stored={stored}
                />
              ) : (
                <ReadOnlyValue
                  key={field.name}
                  field={field}
                  value={stored?.[field.name] as JsonValue | undefined}
                  entity={entity.name}
                />
              ),
            )}
            <Group gap="sm">
              <Button type="submit" loading={mutation.isPending} disabled={mutation.isPending || !canSave}>
                {t('form.save')}
              </Button>
              <Button component={Link} to={cancelTo} variant="default">
                {t('form.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Stack>
  );
}
