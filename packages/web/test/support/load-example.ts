import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiDescription } from '@ninefold/model';
import { loadSpec, type Model } from '@ninefold/model';

/** Loads and checks an example specification of the repository, failing loudly if it has errors. */
export function loadExample(name: string): Model {
  const file = resolve(import.meta.dirname, '../../../../examples', name);
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.ok || !loaded.model) {
    throw new Error(`${name} did not load: ${loaded.issues.map((issue) => issue.message).join('; ')}`);
  }
  return loaded.model;
}

/** The calls the client uses for a model whose point 7 is shown, as the prototype API describes them. */
export function apiOf(model: Model): ApiDescription {
  return {
    base: '/api',
    conventional: false,
    calls: model.calls.shown ? model.calls.items : [],
    idempotency: true,
  };
}
