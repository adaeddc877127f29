// The OpenAPI contract of this API (docs/contract.md), with an example record of each entity made as
// `--seed` makes them, so that the examples obey point 5's constraints like the seed's records.
import {
  type ApiDescription,
  hasNumericKey,
  type JsonValue,
  type Model,
  openApiDocument,
} from '@ninefold/model';
import { generateRecords } from './seed/generate-records';

/**
 * The OpenAPI 3.1 document of the prototype API for a model, as `GET /openapi.json` and `ninefold
 * openapi` give it.
 *
 * @example
 * ```ts
 * contractDocument(model, prototypeApi(model)).openapi; // '3.1.0'
 * ```
 */
export function contractDocument(model: Model, api: ApiDescription): Record<string, unknown> {
  return openApiDocument(model, api, { examples: exampleRecords(model) });
}

function exampleRecords(model: Model): Map<string, Record<string, JsonValue>> {
  const examples = new Map<string, Record<string, JsonValue>>();
  if (!model.entities.shown) return examples;
  let generated: Map<string, Record<string, JsonValue>[]>;
  try {
    generated = generateRecords(model, 1) as Map<string, Record<string, JsonValue>[]>;
  } catch {
    // An example is a courtesy: a model the seed cannot fill still gets its contract.
    return examples;
  }
  for (const entity of model.entities.items) {
    const record = generated.get(entity.name)?.[0];
    if (!record) continue;
    // The store numbers integer keys; the seed leaves them out.
    const key = entity.key ?? 'id';
    examples.set(
      entity.name,
      hasNumericKey(entity) && record[key] === undefined ? { [key]: 1, ...record } : record,
    );
  }
  return examples;
}
