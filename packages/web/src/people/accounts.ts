import type { Account, AccountStatus, JsonValue } from '@ninefold/model';
import { isObject, readServiceJson, type ServiceRead, sendServiceJson } from '../data/service-read';

// The prototype API's people (`api.accounts`) and its password links (`api.auth.passwordReset`,
// `api.auth.password`), as the People screen and the password pages call them. What the API answers is
// data: a person who is not the shape the contract gives is left out rather than shown half.

const STATUSES: readonly AccountStatus[] = ['invited', 'active', 'deactivated'];

export function serviceUrl(base: string, path: string, ...segments: string[]): string {
  const root = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+|\/+$/g, '')}`;
  return [root, ...segments.map(encodeURIComponent)].join('/');
}

export async function listAccounts(base: string, accounts: string, request: ServiceRead): Promise<Account[]> {
  const body = await readServiceJson(serviceUrl(base, accounts), request);
  const items = isObject(body) && Array.isArray(body.items) ? body.items : [];
  return items.flatMap((item) => {
    const account = accountFrom(item);
    return account ? [account] : [];
  });
}

export async function inviteAccount(
  base: string,
  accounts: string,
  invitation: { email: string; role: string; attributes: Record<string, JsonValue> },
  request: ServiceRead,
): Promise<Account | undefined> {
  return accountFrom(
    await sendServiceJson(serviceUrl(base, accounts), { method: 'POST', body: invitation }, request),
  );
}

export async function changeAccount(
  base: string,
  accounts: string,
  id: string,
  change: { role?: string; attributes?: Record<string, JsonValue>; active?: boolean },
  request: ServiceRead,
): Promise<Account | undefined> {
  return accountFrom(
    await sendServiceJson(serviceUrl(base, accounts, id), { method: 'PATCH', body: change }, request),
  );
}

/** Ends every session of a person, or sends their invitation again. */
export async function accountAction(
  base: string,
  accounts: string,
  id: string,
  action: 'sign-out' | 'invitation',
  request: ServiceRead,
): Promise<void> {
  await sendServiceJson(serviceUrl(base, accounts, id, action), { method: 'POST' }, request);
}

export async function askPasswordReset(base: string, path: string, email: string, request: ServiceRead) {
  await sendServiceJson(serviceUrl(base, path), { method: 'POST', body: { email } }, request);
}

export async function setPassword(
  base: string,
  path: string,
  token: string,
  password: string,
  request: ServiceRead,
): Promise<void> {
  await sendServiceJson(serviceUrl(base, path), { method: 'POST', body: { token, password } }, request);
}

/**
 * The token and purpose of a link (`/_/password#token=…&purpose=invitation`): from the fragment, which no
 * server saw, and which the page removes from the address and the history at once.
 */
export function linkFromHash(hash: string): { token: string; purpose: 'invitation' | 'reset' } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  if (!token || token.length > 512) return undefined;
  return { token, purpose: params.get('purpose') === 'invitation' ? 'invitation' : 'reset' };
}

function accountFrom(value: unknown): Account | undefined {
  if (!isObject(value)) return undefined;
  const { id, email, role, status, attributes } = value;
  if (typeof id !== 'string' || typeof email !== 'string' || typeof role !== 'string') return undefined;
  const known = STATUSES.find((candidate) => candidate === status);
  if (!known) return undefined;
  const kept: Record<string, JsonValue> = {};
  for (const [name, each] of Object.entries(isObject(attributes) ? attributes : {})) {
    if (typeof each === 'string' || typeof each === 'number' || typeof each === 'boolean') kept[name] = each;
  }
  return { id, email, role, status: known, attributes: kept };
}
