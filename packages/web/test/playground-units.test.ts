import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CompletionContext } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import type { ApiDescription } from '@ninefold/model';
import { describeApi, loadSpec, MAX_MARKDOWN_BYTES, markdownVocabulary } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import schema from '../../../schema/ninefold.schema.json';
import { markdownCompletion, yamlCompletion, yamlPathAt } from '../src/playground/editor-completion';
import { readDraft, writeDraft } from '../src/playground/playground-draft';
import { runCheck } from '../src/playground/run-check';
import { seedRecords } from '../src/playground/seed-records';
import { linkFragment, MAX_LINK_FRAGMENT, openFragment } from '../src/playground/share-link';
import { createTabApi, newTabState } from '../src/playground/tab-api';
import { demoPrincipal } from '../src/playground/tab-people';
import { recordsOf } from '../src/playground/tab-seed';

// The shared corpus of real OpenAPI documents, beside the repository (packages/openapi/test/support/corpus.ts).
const CORPUS = [
  process.env.NINEFOLD_CORPUS,
  resolve(import.meta.dirname, '../../../../shared/corpus/openapi'),
].find((path): path is string => path !== undefined && path !== '' && existsSync(path));
if (CORPUS === undefined) console.warn('OpenAPI corpus not found: the import report test is skipped.');
const corpusPath = (path: string) => resolve(CORPUS ?? '/nonexistent-corpus', path);

const ROOT = resolve(import.meta.dirname, '../../..');
const shopText = readFileSync(resolve(ROOT, 'examples/shop.md'), 'utf8');

function shop() {
  const loaded = loadSpec(shopText, { file: 'shop.md' });
  if (!loaded.model) throw new Error('the shop must load');
  return loaded.model;
}

describe('shared links', () => {
  it('carry a text and its format, and open to the same text', async () => {
    const link = await linkFragment(shopText, 'markdown');
    if (!link.ok) throw new Error('the rich example must fit in a link');
    expect(link.fragment).toMatch(/^md=[A-Za-z0-9_-]+$/);
    // The rich example's 15 kB pack into a link well under the limit.
    expect(link.fragment.length).toBeLessThan(MAX_LINK_FRAGMENT / 2);
    expect(await openFragment(`#${link.fragment}`)).toEqual({ ok: true, text: shopText, format: 'markdown' });
    const yaml = await linkFragment('product: not shown\n', 'yaml');
    expect(yaml.ok && (await openFragment(yaml.fragment))).toEqual({
      ok: true,
      text: 'product: not shown\n',
      format: 'yaml',
    });
  });

  it('refuse a text whose link would be too long, saying how long', async () => {
    // Random-looking text does not compress: 20,000 such characters make a link past the limit.
    let text = '';
    let state = 2463534242;
    for (let i = 0; i < 20_000; i++) {
      // xorshift32: deterministic, and as good as random to a compressor.
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      text += String.fromCharCode(33 + (state % 90));
    }
    const link = await linkFragment(text, 'markdown');
    expect(link).toMatchObject({ ok: false, reason: 'too-long', limit: MAX_LINK_FRAGMENT });
    expect(!link.ok && link.length).toBeGreaterThan(MAX_LINK_FRAGMENT);
  });

  it('say why a damaged or oversized link does not open, and ignore a fragment that is not one', async () => {
    expect(await openFragment('#orders')).toEqual({ ok: false });
    expect(await openFragment('')).toEqual({ ok: false });
    expect(await openFragment('#md=AAAA')).toMatchObject({
      ok: false,
      message: expect.stringContaining('damaged'),
    });
    expect(await openFragment(`#md=${'A'.repeat(MAX_LINK_FRAGMENT)}`)).toMatchObject({
      ok: false,
      message: expect.stringContaining('16,000'),
    });
    // A small link that unpacks past the Markdown loader's limit is stopped there, not unpacked whole.
    const bomb = await linkFragment('x'.repeat(MAX_MARKDOWN_BYTES + 1), 'markdown');
    if (!bomb.ok) throw new Error('repeated text packs small');
    expect(bomb.fragment.length).toBeLessThan(2_000);
    expect(await openFragment(bomb.fragment)).toMatchObject({
      ok: false,
      message: expect.stringContaining('200 KiB'),
    });
  });
});

describe('checking in the worker', () => {
  it('answers the model of a good text and the issues of a broken one, at their line', async () => {
    const good = await runCheck({ kind: 'check', id: 1, text: shopText, format: 'markdown', held: [] });
    expect(good).toMatchObject({ kind: 'checked', id: 1, ok: true, issues: [] });
    expect(good.kind === 'checked' && JSON.parse(good.modelJson ?? '{}').title).toBe('Harbor Supply');
    expect(good.kind === 'checked' && Object.keys(JSON.parse(good.recordsJson ?? '{}')).sort()).toEqual([
      'Customer',
      'Order',
      'Product',
    ]);
    // Records are made only for entities the page holds none for.
    const again = await runCheck({
      kind: 'check',
      id: 5,
      text: shopText,
      format: 'markdown',
      held: ['Customer', 'Order', 'Product'],
    });
    expect(again).toMatchObject({ kind: 'checked', ok: true });
    expect(again.kind === 'checked' && again.recordsJson).toBeUndefined();
    const broken = shopText.replace('| tags | list of text |', '| tags | list of Boat |');
    const answer = await runCheck({ kind: 'check', id: 2, text: broken, format: 'markdown', held: [] });
    if (answer.kind !== 'checked') throw new Error(answer.kind);
    expect(answer.ok).toBe(false);
    const line = broken.split('\n').findIndex((text) => text.includes('list of Boat')) + 1;
    expect(answer.issues.some((issue) => issue.severity === 'error' && issue.source?.line === line)).toBe(
      true,
    );
  });

  it('imports an OpenAPI document into nine-point YAML that loads, with its report', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          get: {
            responses: {
              200: {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
                  },
                },
              },
            },
          },
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
            },
            responses: { 201: { description: 'made' } },
          },
        },
        '/pets/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            responses: {
              200: {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: {
            type: 'object',
            required: ['name'],
            properties: { id: { type: 'integer' }, name: { type: 'string' } },
          },
        },
      },
    });
    const answer = await runCheck({ kind: 'import', id: 3, file: new Blob([text]), name: 'petstore.yaml' });
    if (answer.kind !== 'imported' || answer.text === undefined) throw new Error(JSON.stringify(answer));
    expect(answer.counts.mapped).toBeGreaterThan(0);
    const loaded = loadSpec(answer.text, { file: 'petstore.yaml' });
    expect(loaded.model?.entities.shown).toBe(true);
  });

  it.skipIf(CORPUS === undefined)(
    'lists what an import of a real document inferred or skipped, with its point and place, not counts alone',
    async () => {
      // RealWorld's Conduit API, written by others (the shared corpus).
      const text = readFileSync(corpusPath('realworld/conduit-openapi-3.1-v1.1.0.yml'), 'utf8');
      const answer = await runCheck({ kind: 'import', id: 9, file: new Blob([text]), name: 'conduit.yml' });
      if (answer.kind !== 'imported') throw new Error(JSON.stringify(answer));
      const listed = answer.counts.inferred + answer.counts.skipped;
      expect(listed).toBeGreaterThan(0);
      expect(answer.entries).toHaveLength(Math.min(listed, 300));
      for (const entry of answer.entries) {
        expect(['inferred', 'skipped']).toContain(entry.kind);
        expect(entry.point).toBeGreaterThanOrEqual(1);
        expect(entry.point).toBeLessThanOrEqual(9);
        expect(entry.pointer === '' || entry.pointer.startsWith('/')).toBe(true);
        expect(entry.message.length).toBeGreaterThan(0);
      }
    },
  );

  it('writes the text in the other format from its model, saying what Markdown cannot hold', async () => {
    const yaml = await runCheck({ kind: 'convert', id: 6, text: shopText, format: 'markdown', to: 'yaml' });
    if (yaml.kind !== 'converted') throw new Error(JSON.stringify(yaml));
    expect(loadSpec(yaml.text, { file: 'shop.yaml' }).model).toEqual(shop());
    const back = await runCheck({ kind: 'convert', id: 7, text: yaml.text, format: 'yaml', to: 'markdown' });
    expect(back).toMatchObject({ kind: 'converted', lost: [] });
    const broken = await runCheck({
      kind: 'convert',
      id: 8,
      text: shopText.replace('| tags | list of text |', '| tags | list of Boat |'),
      format: 'markdown',
      to: 'yaml',
    });
    expect(broken).toMatchObject({ kind: 'failed', message: expect.stringContaining('errors') });
  });

  it('refuses a document past the page limit before reading it', async () => {
    const huge = { size: 65 * 1024 * 1024, text: () => Promise.reject(new Error('must not be read')) };
    const answer = await runCheck({ kind: 'import', id: 4, file: huge as unknown as Blob, name: 'big.json' });
    expect(answer).toMatchObject({ kind: 'failed', message: expect.stringContaining('64 MB') });
  });
});

describe('completion', () => {
  const complete = (source: (context: CompletionContext) => unknown, doc: string) => {
    const state = EditorState.create({ doc });
    return source(new CompletionContext(state, doc.length, true)) as {
      options: Array<{ label: string }>;
    } | null;
  };

  it('offers the nine section headings and the current section table headers in Markdown', () => {
    const headings = complete(markdownCompletion, '# Shop\n\n##');
    expect(headings?.options.map((option) => option.label)).toEqual(
      markdownVocabulary().map((section) => `## ${section.number}. ${section.title}`),
    );
    const table = complete(markdownCompletion, '# Shop\n\n## 4. States and transitions\n\n|');
    expect(table?.options.map((option) => option.label)).toEqual([
      '| State | Label | Tone | Final |',
      expect.stringMatching(/^\| Transition \| Label \| From \| To \| Roles \| Guard/),
    ]);
    const property = complete(markdownCompletion, '# Shop\n\n## 3. Entities and fields\n\n### Order\n\n- Di');
    expect(property?.options.map((option) => option.label)).toContain('Display: ');
  });

  it('offers YAML keys and values from the JSON Schema at the cursor', () => {
    const root = schema as unknown as Parameters<typeof yamlCompletion>[0];
    const top = complete(yamlCompletion(root), 'product: not shown\nen');
    expect(top?.options.map((option) => option.label)).toEqual(
      expect.arrayContaining(['screens', 'entities', 'states', 'roles']),
    );
    const screen = complete(yamlCompletion(root), 'screens:\n  orders:\n    kind: ');
    expect(screen?.options.map((option) => option.label)).toEqual(
      expect.arrayContaining(['list', 'detail', 'create', 'edit', 'dashboard']),
    );
  });

  it('finds the path to the cursor from indentation, through list items', () => {
    const lines = ['entities:', '  Order:', '    fields:', '      - name: id', '        kind: integer'];
    expect(yamlPathAt(lines, '        lab')).toEqual(['entities', 'Order', 'fields', '*']);
    expect(yamlPathAt(lines, '      - ')).toEqual(['entities', 'Order', 'fields', '*']);
    expect(yamlPathAt(lines, '    ')).toEqual(['entities', 'Order']);
    expect(yamlPathAt(['# a comment', 'roles:', '  # note', ''], '  sig')).toEqual(['roles']);
  });
});

describe('the prototype API in the tab: records and people', () => {
  it('seeds as serve --seed does, and keeps the records of entities the last text had', async () => {
    const model = shop();
    const seeded = seedRecords(model);
    // The same model gives the same records (and the worker answers them again without making them).
    expect(seedRecords(structuredClone(model))).toEqual(seeded);
    expect(Object.keys(seeded).sort()).toEqual(['Customer', 'Order', 'Product']);
    expect(seeded.Order?.length).toBe(12);
    // Numbered fields are numbered.
    expect(seeded.Order?.[0]?.number).toMatch(/^ORD-0*1$/);
    const owner = () => demoPrincipal(model, 'owner', seeded);
    const state = newTabState();
    const api = { ...describeApi(model), base: '/api' } as ApiDescription;
    const first = createTabApi(model, api, seeded, { principal: owner, state });
    await first.create({ entity: 'Customer', values: { name: 'Kept', email: 'kept@example.com' } });
    // The next version of the text, with a field more: the records stay, the new one among them.
    const edited = loadSpec(
      shopText.replace('| tags | list of text |', '| tier | text |\n| tags | list of text |'),
      {
        file: 'shop.md',
      },
    ).model;
    if (!edited) throw new Error('the edited shop must load');
    const second = createTabApi(edited, api, seedRecords(edited), { principal: owner, state });
    const page = await second.list({ entity: 'Customer', filters: [], sort: [], page: { style: 'none' } });
    expect(page.items).toHaveLength(13);
    expect(page.items.some((customer) => customer.name === 'Kept')).toBe(true);
    expect(recordsOf(edited, state, {}).Customer).toHaveLength(13);
    // The next order gets the next number, after the seeded ones.
    const order = await second.create({
      entity: 'Order',
      values: {
        customer: 1,
        shippingAddress: { street: '1 Quay', city: 'Cowes', postcode: 'PO31', country: 'GB' },
        lines: [{ product: 1, quantity: 1, unitPrice: 10 }],
      },
    });
    expect(order.record.number).toMatch(/^ORD-0*13$/);
  });

  it('gives a role demo person the attributes its conditions compare, as serve does', () => {
    const model = shop();
    const records = recordsOf(model, newTabState(), seedRecords(model));
    const customer = demoPrincipal(model, 'customer', records);
    expect(customer).toMatchObject({
      role: 'customer',
      user: { email: 'customer@demo.test', role: 'customer' },
    });
    const customerId = customer.user?.customerId;
    expect(records.Order?.some((order) => order.customer === customerId)).toBe(true);
    expect(demoPrincipal(model, 'nobody', records)).toEqual({});
    expect(demoPrincipal(model, undefined, records)).toEqual({});
  });
});

describe('the draft', () => {
  it('is kept and read back, and a broken store is said rather than thrown', () => {
    const kept = new Map<string, string>();
    const storage = {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
    };
    expect(writeDraft({ text: '# Shop', format: 'markdown' }, storage)).toBe(true);
    expect(readDraft(storage)).toMatchObject({ text: '# Shop', format: 'markdown' });
    const full = {
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(writeDraft({ text: 'x', format: 'yaml' }, full)).toBe(false);
    expect(readDraft({ getItem: () => '{not json' })).toBeUndefined();
  });
});
