import type { ApiDescription, JsonValue, Model } from '@ninefold/model';
import { describeApi } from '@ninefold/model';
import { buildApp, openStore } from '@ninefold/server';
import { expect } from 'vitest';
import { signInAs } from '../../../server/test/support/sign-in';
import type { DataProvider } from '../../src/data/data-provider';
import { createHttpDataProvider } from '../../src/data/http-data-provider';
import { injectRequest } from './in-process-api';

/** Who calls, by name: a role of point 6 (null: nobody signed in) and the attributes its conditions read. */
export type People = Record<string, { role: string | null; attributes?: Record<string, JsonValue> }>;

/**
 * The prototype API of `ninefold serve`, in process on SQLite, and the client's HTTP data interface for
 * each person, signed in through the API's own sign-in call: the API side of the tests that hold the
 * tab's API and the memory provider to it.
 */
export async function servedToPeople(
  model: Model,
  people: People,
  options: { now: Date; domain: string },
): Promise<{ as(person: string): DataProvider; close(): Promise<void> }> {
  const store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model, store, now: () => options.now, liveUpdates: false });
  const api = describeApi(model) as ApiDescription;
  const providers = new Map<string, DataProvider>();
  for (const [name, person] of Object.entries(people)) {
    const signedIn =
      person.role === null
        ? undefined
        : await signInAs(app, store, person.role, person.attributes ?? {}, `${name}@${options.domain}`);
    providers.set(
      name,
      createHttpDataProvider(api, model, {
        fetch: (input, init) => injectRequest(app, input, init),
        retry: false,
        ...(signedIn ? { authHeaders: () => ({ authorization: signedIn.authorization }) } : {}),
      }),
    );
  }
  return {
    as: (person) => providers.get(person) as DataProvider,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}
