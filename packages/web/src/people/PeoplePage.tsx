import {
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type Account,
  type AccountStatus,
  exhaustiveSwitchError,
  humanize,
  type JsonValue,
  type Model,
  personAttributes,
  roleLabel,
  signInRoles,
} from '@ninefold/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PageTitle } from '../app/Shell';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { ApiError } from '../data/data-provider';
import { notify } from '../feedback/feedback-store';
import { addEnglish } from '../i18n/catalogue';
import { people as peopleMessages } from '../i18n/en/people';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { useSessionStore } from '../session/SessionProvider';
import { accountAction, changeAccount, inviteAccount, listAccounts } from './accounts';
import './people.css';

addEnglish('people', peopleMessages);

const QUERY_KEY = ['_accounts'];

/**
 * Everyone who signs in here, for a role of point 6 that manages people: invite a colleague by email,
 * change a role or the attributes its permissions read, deactivate or reactivate, end every session.
 * The API checks each step by point 6; this page offers what the specification says the role may do.
 */
export default function PeoplePage({ accounts }: { accounts: string }) {
  const { model, api } = useSpec();
  const { t } = useI18n();
  const session = useSessionStore();
  const { state } = useSession();
  useDocumentTitle(t('people.heading'));
  const ownId = state.status === 'signed-in' ? String(state.user.id ?? '') : '';
  const request = () => ({ headers: session.authHeaders() });
  const list = useQuery({
    queryKey: QUERY_KEY,
    queryFn: async ({ signal }) => {
      const headers = session.authHeaders();
      try {
        return await listAccounts(api.base, accounts, { headers, signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) session.unauthorized(error, headers);
        throw error;
      }
    },
  });
  const [editing, setEditing] = useState<Account | undefined>(undefined);
  // The account stays while the dialog closes, so that its words do not change as it fades.
  const [deactivating, setDeactivating] = useState<{ account?: Account; open: boolean }>({ open: false });
  const client = useQueryClient();
  const action = useMutation({
    mutationFn: async (step: {
      account: Account;
      kind: 'deactivate' | 'reactivate' | 'sign-out' | 'invitation';
    }) => {
      const { account, kind } = step;
      switch (kind) {
        case 'deactivate':
        case 'reactivate':
          await changeAccount(api.base, accounts, account.id, { active: kind === 'reactivate' }, request());
          return t(kind === 'deactivate' ? 'people.deactivatedNotice' : 'people.reactivatedNotice', {
            email: account.email,
          });
        case 'sign-out':
        case 'invitation':
          await accountAction(api.base, accounts, account.id, kind, request());
          return t(kind === 'sign-out' ? 'people.signedOutNotice' : 'people.resent', {
            email: account.email,
          });
        default:
          return exhaustiveSwitchError(kind);
      }
    },
    onSuccess: (message) => notify({ message, tone: 'done' }),
    onError: (error) => notify({ message: messageOf(error), tone: 'failed' }),
    onSettled: () => client.invalidateQueries({ queryKey: QUERY_KEY }),
  });

  return (
    <Stack gap="lg" maw={960}>
      <div>
        <PageTitle>{t('people.heading')}</PageTitle>
        <Text c="dimmed" size="sm" mt={-8}>
          {t('people.intro')}
        </Text>
      </div>
      <InviteForm
        accounts={accounts}
        onInvited={() => void client.invalidateQueries({ queryKey: QUERY_KEY })}
      />
      {list.isError ? (
        <Alert color="red" title={t('people.failed')}>
          <Stack gap="xs" align="start">
            <Text size="sm">{messageOf(list.error)}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('people.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <ul className="nf-people" aria-label={t('people.heading')} aria-busy={list.isPending || undefined}>
        {(list.data ?? []).map((account) => (
          <li key={account.id} className="nf-person">
            <Paper withBorder p="sm" radius="md">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {account.email}
                    {account.id === ownId ? (
                      <Text span c="dimmed" fw={400}>
                        {' '}
                        ({t('people.you')})
                      </Text>
                    ) : null}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {roleLabel(model, account.role)}
                    {Object.entries(account.attributes).map(
                      ([name, value]) => ` · ${humanize(name)}: ${String(value)}`,
                    )}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <StatusBadge status={account.status} />
                  <Button size="xs" variant="default" onClick={() => setEditing(account)}>
                    {t('people.change')}
                  </Button>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button
                        size="xs"
                        variant="subtle"
                        aria-label={t('people.moreFor', { email: account.email })}
                      >
                        …
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {account.status === 'invited' ? (
                        <Menu.Item onClick={() => action.mutate({ account, kind: 'invitation' })}>
                          {t('people.resend')}
                        </Menu.Item>
                      ) : null}
                      <Menu.Item onClick={() => action.mutate({ account, kind: 'sign-out' })}>
                        {t('people.signOut')}
                      </Menu.Item>
                      {account.id === ownId ? null : account.status === 'deactivated' ? (
                        <Menu.Item onClick={() => action.mutate({ account, kind: 'reactivate' })}>
                          {t('people.reactivate')}
                        </Menu.Item>
                      ) : (
                        <Menu.Item color="red" onClick={() => setDeactivating({ account, open: true })}>
                          {t('people.deactivate')}
                        </Menu.Item>
                      )}
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              </Group>
            </Paper>
          </li>
        ))}
      </ul>
      {editing ? (
        <ChangeDialog
          accounts={accounts}
          account={editing}
          own={editing.id === ownId}
          onClose={() => setEditing(undefined)}
          onChanged={() => void client.invalidateQueries({ queryKey: QUERY_KEY })}
        />
      ) : null}
      <Modal
        opened={deactivating.open}
        onClose={() => setDeactivating({ ...deactivating, open: false })}
        title={t('people.deactivate')}
        centered
      >
        <Stack gap="md">
          <Text size="sm">{t('people.deactivateConfirm', { email: deactivating.account?.email ?? '' })}</Text>
          <Group justify="end">
            <Button variant="default" onClick={() => setDeactivating({ ...deactivating, open: false })}>
              {t('people.cancel')}
            </Button>
            <Button
              color="red"
              onClick={() => {
                if (deactivating.account)
                  action.mutate({ account: deactivating.account, kind: 'deactivate' });
                setDeactivating({ ...deactivating, open: false });
              }}
            >
              {t('people.deactivate')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function StatusBadge({ status }: { status: AccountStatus }) {
  const { t } = useI18n();
  const color = status === 'active' ? 'green' : status === 'invited' ? 'blue' : 'gray';
  return (
    <Badge color={color} variant="light" miw="6.5rem">
      {t(`people.${status}`)}
    </Badge>
  );
}

/** Errors of the fields the API named (`/email`, `/attributes/section`), and its message for the rest. */
function fieldErrors(error: unknown): { fields: Record<string, string>; rest?: string } {
  if (!(error instanceof ApiError)) return { fields: {}, rest: messageOf(error) };
  const fields: Record<string, string> = {};
  for (const each of error.fieldErrors) fields[each.pointer] = each.message;
  return error.fieldErrors.length > 0 ? { fields } : { fields, rest: messageOf(error) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function InviteForm({ accounts, onInvited }: { accounts: string; onInvited: () => void }) {
  const { model, api } = useSpec();
  const { t } = useI18n();
  const session = useSessionStore();
  const roles = signInRoles(model);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState(roles[0] ?? '');
  const [attributes, setAttributes] = useState<Record<string, string>>({});
  const invite = useMutation({
    mutationFn: () =>
      inviteAccount(
        api.base,
        accounts,
        { email, role, attributes: chosen(model, role, attributes) },
        { headers: session.authHeaders() },
      ),
    onSuccess: () => {
      notify({ message: t('people.invitedNotice', { email: email.trim() }), tone: 'done' });
      setEmail('');
      setAttributes({});
      onInvited();
    },
  });
  const errors = invite.isError ? fieldErrors(invite.error) : { fields: {} as Record<string, string> };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="nf-invite-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text id="nf-invite-heading" fw={600}>
            {t('people.inviteHeading')}
          </Text>
          <Group align="start" gap="sm" wrap="wrap">
            <TextInput
              label={t('people.email')}
              type="email"
              autoComplete="off"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={errors.fields['/email']}
              style={{ flex: '1 1 16rem' }}
            />
            <NativeSelect
              label={t('people.role')}
              value={role}
              onChange={(event) => setRole(event.currentTarget.value)}
              data={roles.map((name) => ({ value: name, label: roleLabel(model, name) }))}
              error={errors.fields['/role']}
              style={{ flex: '0 1 12rem' }}
            />
            <AttributeInputs
              model={model}
              role={role}
              values={attributes}
              errors={errors.fields}
              onChange={setAttributes}
            />
          </Group>
          {errors.rest ? (
            <Text size="sm" c="red" role="alert">
              {errors.rest}
            </Text>
          ) : null}
          <Group>
            <Button type="submit" loading={invite.isPending}>
              {t('people.invite')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** One input per `user.<name>` the role's conditions read: the only attributes a person of it may have. */
function AttributeInputs({
  model,
  role,
  values,
  errors,
  onChange,
}: {
  model: Model;
  role: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (values: Record<string, string>) => void;
}) {
  const { t } = useI18n();
  return (
    <>
      {personAttributes(model, role).map((name) => (
        <TextInput
          key={name}
          label={t('people.attribute', { name: humanize(name) })}
          value={values[name] ?? ''}
          onChange={(event) => onChange({ ...values, [name]: event.currentTarget.value })}
          error={errors[`/attributes/${name}`]}
          style={{ flex: '1 1 12rem' }}
        />
      ))}
    </>
  );
}

/** The attributes typed for a role, only those its conditions read; empty ones are left unset. */
function chosen(model: Model, role: string, values: Record<string, string>): Record<string, JsonValue> {
  const kept: Record<string, JsonValue> = {};
  for (const name of personAttributes(model, role)) {
    const value = values[name]?.trim();
    if (value) kept[name] = value;
  }
  return kept;
}

function ChangeDialog({
  accounts,
  account,
  own,
  onClose,
  onChanged,
}: {
  accounts: string;
  account: Account;
  own: boolean;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { model, api } = useSpec();
  const { t } = useI18n();
  const session = useSessionStore();
  const [role, setRole] = useState(account.role);
  const [attributes, setAttributes] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(account.attributes).map(([name, value]) => [name, String(value)])),
  );
  const save = useMutation({
    mutationFn: () =>
      changeAccount(
        api.base,
        accounts,
        account.id,
        { ...(role === account.role ? {} : { role }), attributes: chosen(model, role, attributes) },
        { headers: session.authHeaders() },
      ),
    onSuccess: () => {
      notify({ message: t('people.changed', { email: account.email }), tone: 'done' });
      onChanged();
      onClose();
    },
  });
  const errors = save.isError ? fieldErrors(save.error) : { fields: {} as Record<string, string> };
  return (
    <Modal opened onClose={onClose} title={t('people.changeHeading', { email: account.email })} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Stack gap="sm">
          <NativeSelect
            label={t('people.role')}
            value={role}
            // Nobody changes their own role: the API refuses it, so the form does not offer it.
            disabled={own}
            onChange={(event) => setRole(event.currentTarget.value)}
            data={signInRoles(model).map((name) => ({ value: name, label: roleLabel(model, name) }))}
            error={errors.fields['/role']}
          />
          <AttributeInputs
            model={model}
            role={role}
            values={attributes}
            errors={errors.fields}
            onChange={setAttributes}
          />
          {errors.rest ? (
            <Text size="sm" c="red" role="alert">
              {errors.rest}
            </Text>
          ) : null}
          <Group justify="end">
            <Button variant="default" onClick={onClose}>
              {t('people.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('people.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
