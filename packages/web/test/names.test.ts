// Names of references a role may not open and of people (issue 20), as the client asks for them: which
// columns are named how, batched requests, and answers read as data whatever the API sends.

import type { ApiDescription, JsonValue } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import type { DataProvider, NamesParams } from '../src/data/data-provider';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createNamesReader } from '../src/data/names-reader';
import { nameSource, ownName } from '../src/fields/reference-access';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.md');

function signedIn(role: string, user: { id: string; email: string; name?: string }): SessionValue {
  const attributes: Record<string, JsonValue> = user.name === undefined ? {} : { name: user.name };
  return {
    state: { status: 'signed-in', user: { id: user.id, email: user.email, role, attributes } },
    principal: { role, user: { ...attributes, id: user.id, email: user.email, role } },
  };
}

/** A provider whose names call answers from `known`, and records what it was asked. */
function namingProvider(known: Record<string, string>) {
  const asked: NamesParams[] = [];
  const data: DataProvider = {
    ...createMemoryDataProvider(shop, apiOf(shop), {}),
    names: async (params) => {
      asked.push(params);
      return new Map((params.ids ?? []).flatMap((id) => (known[id] ? [[id, known[id]] as const] : [])));
    },
  };
  return { data, asked };
}

describe('how a reference is named, by role', () => {
  const warehouse = signedIn('warehouse', { id: 'u-w', email: 'warehouse@demo.test' });
  const owner = signedIn('owner', { id: 'u-o', email: 'owner@demo.test' });

  it('reads the record where the role may, and asks the names call where it may not', () => {
    const { data } = namingProvider({});
    expect(nameSource(shop, data, owner, 'Customer')).toEqual({ kind: 'record', display: 'name' });
    expect(nameSource(shop, data, warehouse, 'Customer')).toEqual({ kind: 'names', display: 'name' });
  });

  it('leaves the id where the API names nothing (a real API)', () => {
    const data = createMemoryDataProvider(shop, apiOf(shop), {});
    expect(data.names).toBeUndefined();
    expect(nameSource(shop, data, warehouse, 'Customer')).toBeUndefined();
  });

  it('names the signed-in person themself without asking', () => {
    expect(ownName(signedIn('clerk', { id: 'u1', email: 'c@x.test', name: 'Cleo' }), 'u1')).toBe('Cleo');
    expect(ownName(signedIn('clerk', { id: 'u1', email: 'c@x.test' }), 'u1')).toBe('c@x.test');
    expect(ownName(signedIn('clerk', { id: 'u1', email: 'c@x.test' }), 'u2')).toBeUndefined();
  });
});

describe('the names reader', () => {
  function setUp(known: Record<string, string>) {
    const { data, asked } = namingProvider(known);
    let flushes: Array<() => void> = [];
    const reader = createNamesReader(data, (run) => {
      flushes.push(run);
    });
    const flush = () => {
      const now = flushes;
      flushes = [];
      for (const run of now) run();
    };
    return { reader, asked, flush };
  }

  it('asks for the ids of one turn together, once each, per entity and for people apart', async () => {
    const { reader, asked, flush } = setUp({ '1': 'Ada', '3': 'Tom', u1: 'Dana' });
    const customers = ['3', '1', '3', '9'].map((id) =>
      reader.read({ kind: 'records', entity: 'Customer' }, id),
    );
    const person = reader.read({ kind: 'people' }, 'u1');
    flush();
    expect(await Promise.all(customers)).toEqual(['Tom', 'Ada', 'Tom', undefined]);
    expect(await person).toBe('Dana');
    expect(asked.map((params) => [params.of, params.ids])).toEqual([
      [{ kind: 'records', entity: 'Customer' }, ['3', '1', '9']],
      [{ kind: 'people' }, ['u1']],
    ]);
  });

  it('splits more than 100 ids over requests of 100', async () => {
    const { reader, asked, flush } = setUp({});
    const all = Array.from({ length: 230 }, (_, index) =>
      reader.read({ kind: 'records', entity: 'Customer' }, String(index)),
    );
    flush();
    await Promise.all(all);
    expect(asked.map((params) => params.ids?.length)).toEqual([100, 100, 30]);
  });
});

describe('the names call over HTTP', () => {
  const api: ApiDescription = { ...apiOf(shop), names: '/_names', people: '/_people' };

  function provider(body: unknown) {
    const urls: string[] = [];
    const headers: Array<Record<string, string>> = [];
    const data = createHttpDataProvider(api, shop, {
      retry: false,
      authHeaders: () => ({ authorization: 'Bearer secret-token' }),
      fetch: async (input, init = {}) => {
        urls.push(String(input));
        headers.push(init.headers as Record<string, string>);
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      },
    });
    return { data, urls, headers };
  }

  it('asks by id or by text, with the token in a header and never in the address', async () => {
    const { data, urls, headers } = provider({ items: [{ id: '7', name: 'Ada' }] });
    const of = { kind: 'records', entity: 'Customer' } as const;
    expect(await data.names?.({ of, ids: ['7', '8'] })).toEqual(new Map([['7', 'Ada']]));
    expect(await data.names?.({ of, search: 'ad a' })).toEqual(new Map([['7', 'Ada']]));
    await data.names?.({ of: { kind: 'people' }, ids: ['u/1'] });
    expect(urls).toEqual([
      '/api/_names/Customer?id=7&id=8',
      '/api/_names/Customer?q=ad+a',
      '/api/_people?id=u%2F1',
    ]);
    expect(urls.join(' ')).not.toContain('secret-token');
    expect(headers[0]?.authorization).toBe('Bearer secret-token');
  });

  it('reads a hostile answer as data: only ids asked for, only plain values, long names clipped', async () => {
    const long = 'x'.repeat(5000);
    const { data } = provider({
      items: [
        { id: '1', name: '<img src=x onerror=alert(1)>' },
        { id: '2', name: { nested: true } },
        { id: 3, name: 'number id' },
        { id: '4', name: long },
        { id: 'not-asked', name: 'Mallory' },
        null,
        'text',
      ],
    });
    const names = (await data.names?.({
      of: { kind: 'records', entity: 'Customer' },
      ids: ['1', '2', '3', '4'],
    })) as ReadonlyMap<string, JsonValue>;
    expect([...names.keys()]).toEqual(['1', '4']);
    expect(names.get('1')).toBe('<img src=x onerror=alert(1)>');
    expect(String(names.get('4')).length).toBeLessThan(400);
    const { data: empty } = provider({ rows: 'not items' });
    expect(await empty.names?.({ of: { kind: 'people' }, ids: ['u1'] })).toEqual(new Map());
  });
});
