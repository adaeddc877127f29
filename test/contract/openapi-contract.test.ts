import { readFileSync } from 'node:fs';
import {
  checkModel,
  hasErrors,
  loadSpec,
  type Model,
  openApiDocument,
  type Pagination,
  prototypeApi,
  type SignIn,
  toDocument,
} from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import { contractDocument } from '@ninefold/server';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { generateSpecYaml } from '../../bench/generate-spec';
import { loadModel, SPECS } from '../support/contract-specs';
import { pointsSaid } from '../support/points-said';

/**
 * Variants of the shop that reach every branch the writer has: each sign-in, each way of paging and
 * sorting, point 7 not shown, and every point not shown. Each must itself be a valid specification.
 */
function variants(): Array<{ name: string; model: Model }> {
  const shop = loadModel('examples/shop.yaml');
  const out: Array<{ name: string; model: Model }> = [];
  const signIns: SignIn[] = [
    { kind: 'none' },
    { kind: 'basic', session: 'memory' },
    { kind: 'token', session: 'memory' },
    { kind: 'api-key', in: 'header', name: 'X-Api-Key', session: 'memory' },
    {
      kind: 'oidc',
      issuer: 'https://id.example.com/',
      clientId: 'shop',
      scopes: ['openid'],
      session: 'memory',
    },
    {
      kind: 'oauth2',
      authorizationUrl: 'https://id.example.com/authorize',
      tokenUrl: 'https://id.example.com/token',
      scopes: ['orders'],
      session: 'memory',
    },
  ];
  for (const signIn of signIns) {
    if (!shop.roles.shown) break;
    const calls = shop.calls.shown
      ? { ...shop.calls, items: shop.calls.items.filter((call) => call.purpose !== 'sign-in') }
      : shop.calls;
    out.push({ name: `sign-in ${signIn.kind}`, model: { ...shop, roles: { ...shop.roles, signIn }, calls } });
  }
  const pages: Pagination[] = [
    { style: 'offset', offsetParam: 'offset', limitParam: 'limit', maxSize: { kind: 'number', value: 50 } },
    { style: 'cursor', cursorParam: 'after', sizeParam: 'first', nextField: 'next' },
    { style: 'link-header', sizeParam: 'per_page' },
    { style: 'none' },
  ];
  const styles = ['field:asc', 'param-per-field'] as const;
  if (shop.calls.shown) {
    for (const pagination of pages) {
      const items = shop.calls.items.map((call) =>
        call.purpose === 'list'
          ? {
              ...call,
              pagination,
              response: { shape: 'envelope' as const, entity: call.entity, items: 'items', total: 'total' },
            }
          : call,
      );
      out.push({ name: `pages ${pagination.style}`, model: { ...shop, calls: { ...shop.calls, items } } });
    }
    for (const style of styles) {
      const items = shop.calls.items.map((call) =>
        call.sort
          ? {
              ...call,
              sort: { ...call.sort, style, param: style === 'param-per-field' ? 'orderby.{field}' : 'sort' },
            }
          : call,
      );
      out.push({ name: `sort ${style}`, model: { ...shop, calls: { ...shop.calls, items } } });
    }
    // Without point 7, transitions and the sign-in name no call: the API's conventional ones serve them.
    const states = shop.states.shown
      ? {
          ...shop.states,
          machines: shop.states.machines.map((machine) => ({
            ...machine,
            transitions: machine.transitions.map(({ call: _call, ...transition }) => transition),
          })),
        }
      : shop.states;
    const roles = shop.roles.shown
      ? { ...shop.roles, signIn: { kind: 'password' as const, session: 'memory' as const } }
      : shop.roles;
    out.push({
      name: 'calls not shown',
      model: { ...shop, states, roles, calls: { shown: false, reason: 'conventional' } },
    });
  }
  out.push({ name: 'every point not shown', model: loadModel('examples/empty.md') });
  for (const variant of out) {
    const issues = checkModel(variant.model);
    if (hasErrors(issues))
      throw new Error(`variant ${variant.name} is not valid: ${JSON.stringify(issues[0])}`);
  }
  return out;
}

/** A specification made by the benchmarks' generator: every kind of field, constraints and a rule each. */
function generated(): { name: string; model: Model } {
  const loaded = loadSpec(pointsSaid(generateSpecYaml(12, 20)), { file: 'generated.yaml' });
  if (!loaded.model || !loaded.ok)
    throw new Error(`the generated specification did not load: ${JSON.stringify(loaded.issues[0])}`);
  return { name: 'generated: 12 entities of 20 fields', model: loaded.model };
}

const CASES = [...SPECS.map((file) => ({ name: file, model: loadModel(file) })), ...variants(), generated()];

/** Warnings of Redocly's recommended rules the contract keeps, each for a reason. */
const KEPT_WARNINGS = new Map([
  // Nothing is invented: a specification names no licence, so the contract names none either.
  ['info-license', 'the specification names no licence'],
]);

describe('the OpenAPI contract validates with Redocly', async () => {
  const config = await createConfig({ extends: ['recommended'] });
  it.each(CASES)('$name', async ({ model }) => {
    const text = JSON.stringify(contractDocument(model, prototypeApi(model)));
    const problems = await lintFromString({ source: text, absoluteRef: '/contract.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} ${p.message} at ${p.location[0]?.pointer}`);
    expect(found.filter((line) => line.startsWith('error'))).toEqual([]);
    expect(problems.filter((p) => !KEPT_WARNINGS.has(p.ruleId)).map((p) => p.message)).toEqual([]);
  });
});

/** Every path at which two authoring documents differ, with both values. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isRecord(a) && isRecord(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((key) =>
      differences(a[key], b[key], `${path}/${key}`),
    );
  }
  return [`${path}: ${JSON.stringify(a)} became ${JSON.stringify(b)}`];
}

/**
 * What does not come back through the contract, per case. Asserted exactly, so that it can only shrink:
 * a new loss fails here, and a fixed one must be taken off the list.
 */
const LOST: Record<string, string[]> = {};

describe('import(openapi(spec)) gives the model back', () => {
  it.each(CASES)('$name', ({ name, model }) => {
    const document = openApiDocument(model, prototypeApi(model));
    const back = importOpenApi({ text: JSON.stringify(document), file: 'contract.json' });
    expect(back.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(back.model).toBeDefined();
    expect(differences(toDocument(model), toDocument(back.model as Model))).toEqual(LOST[name] ?? []);
  });

  it("reads a person's edit of the standard parts where the extension says nothing", () => {
    const model = loadModel('examples/shop.yaml');
    const document = openApiDocument(model, prototypeApi(model)) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const product = document.components.schemas.Product;
    if (!product) throw new Error('no Product schema');
    product.properties.barcode = { type: 'string', title: 'Barcode' };
    const back = importOpenApi({ text: JSON.stringify(document), file: 'contract.json' });
    const fields = back.model?.entities.shown
      ? back.model.entities.items.find((e) => e.name === 'Product')?.fields
      : [];
    expect(fields?.map((f) => f.name)).toContain('barcode');
  });

  it('says which extension is wrong, and where, when one is broken', () => {
    const model = loadModel('examples/shop.yaml');
    const document = openApiDocument(model, prototypeApi(model));
    document['x-ninefold-states'] = {
      'Order.status': { initial: 'nowhere', states: 'many', transitions: {} },
    };
    const back = importOpenApi({ text: JSON.stringify(document), file: 'contract.json' });
    expect(back.ok).toBe(false);
    const errors = back.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((message) => message.startsWith('x-ninefold-states'))).toBe(true);
  });

  it('reads a contract of another version as plain OpenAPI, and says so', () => {
    const model = loadModel('examples/shop.yaml');
    const document = openApiDocument(model, prototypeApi(model));
    document['x-ninefold'] = { version: 99, conventional: false };
    const back = importOpenApi({ text: JSON.stringify(document), file: 'contract.json' });
    expect(back.model).toBeDefined();
    expect(back.issues.map((issue) => issue.message).join('\n')).toMatch(
      /version 99; this Ninefold reads version 1/,
    );
  });
});

/**
 * The standard parts alone, as any OpenAPI tool reads them (every `x-ninefold-*` taken out): how many
 * values of each point the import cannot tell from plain OpenAPI. A ceiling, so that it can only shrink.
 */
const PLAIN_OPENAPI_LOSSES: Record<string, number> = {
  product: 5,
  // 41 since the products screen chose its phone card's fields, which only x-ninefold carries.
  screens: 41,
  entities: 48,
  states: 1,
  validation: 38,
  roles: 5,
  // 106 with the audit trail's two paths, which plain OpenAPI reads as calls like the other services;
  // 108 with the password reset's two; 113 with the five calls of managing people (the shop's owner
  // manages people).
  calls: 113,
  errors: 1,
  constants: 10,
};

it('the standard parts alone carry the shop as far as plain OpenAPI can', () => {
  const model = loadModel('examples/shop.md');
  const document = openApiDocument(model, prototypeApi(model));
  const text = JSON.stringify(document, (key, value) => (key.startsWith('x-ninefold') ? undefined : value));
  const back = importOpenApi({ text, file: 'plain.json' });
  expect(back.ok).toBe(true);
  const lost: Record<string, number> = {};
  for (const line of differences(toDocument(model), toDocument(back.model as Model))) {
    const point = /^\/([^/:]+)/.exec(line)?.[1] ?? '';
    lost[point] = (lost[point] ?? 0) + 1;
  }
  for (const [point, count] of Object.entries(lost)) {
    expect(count, point).toBeLessThanOrEqual(PLAIN_OPENAPI_LOSSES[point] ?? 0);
  }
});

describe('docs/contract.md', () => {
  const guide = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');
  const table = guide.slice(guide.indexOf('## What OpenAPI cannot say'), guide.indexOf('## Reading it back'));
  const documented = new Set([...table.matchAll(/`(x-ninefold[a-z-]*)`/g)].map((m) => m[1] as string));

  it('names every extension the contract writes, and the contract writes every one it names', () => {
    const written = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value !== null && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key.startsWith('x-ninefold')) written.add(key);
          walk(inner);
        }
      }
    };
    for (const { model } of CASES) walk(contractDocument(model, prototypeApi(model)));
    expect([...written].sort()).toEqual([...documented].sort());
  });
});
