import type { Entity } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, InvalidCursorError } from '../src/store/cursor';
import { diffPlans } from '../src/store/migrate';
import { planTables } from '../src/store/table-plan';
import { modelOf } from './store-model';

const Product: Entity = {
  name: 'Product',
  key: 'sku',
  fields: [
    { name: 'sku', kind: 'text' },
    { name: 'title', kind: 'markdown' },
    { name: 'price', kind: 'money' },
    { name: 'weight', kind: 'number' },
    { name: 'stock', kind: 'integer' },
    { name: 'active', kind: 'boolean' },
    { name: 'launched', kind: 'date' },
    { name: 'updated', kind: 'datetime' },
    { name: 'colour', kind: 'enum', values: [{ value: 'red' }] },
    { name: 'size', kind: 'object', entity: 'Size' },
    { name: 'photos', kind: 'list', of: { kind: 'file' } },
    { name: 'manual', kind: 'file' },
  ],
};
const Size: Entity = { name: 'Size', embedded: true, fields: [{ name: 'width', kind: 'number' }] };
const Review: Entity = {
  name: 'Review',
  fields: [
    { name: 'product', kind: 'reference', entity: 'Product' },
    { name: 'author', kind: 'reference', entity: 'Author' },
    { name: 'size', kind: 'reference', entity: 'Size' },
    { name: 'stars', kind: 'integer' },
  ],
};
const Author: Entity = { name: 'Author', fields: [{ name: 'name', kind: 'text' }] };

describe('planTables', () => {
  it('gives each stored entity a table with typed, nullable columns and its key', () => {
    const plan = planTables(modelOf({ entities: [Product, Size, Review, Author] }));
    expect(plan.tables.map((table) => table.name)).toEqual(['Product', 'Review', 'Author']);
    const [product, review, author] = plan.tables;
    expect(product?.key).toEqual({
      column: 'sku',
      generate: 'uuid',
      hidden: false,
      constraint: 'pk_Product',
    });
    expect(Object.fromEntries(product?.columns.map((column) => [column.name, column.type]) ?? [])).toEqual({
      sku: 'text',
      title: 'text',
      price: 'real',
      weight: 'real',
      stock: 'integer',
      active: 'boolean',
      launched: 'text',
      updated: 'text',
      colour: 'text',
      size: 'json',
      photos: 'json',
      manual: 'json',
    });
    expect(review?.key).toEqual({
      column: 'id',
      generate: 'identity',
      hidden: true,
      constraint: 'pk_Review',
    });
    expect(review?.columns).toEqual([
      { name: 'id', type: 'integer', kind: 'id' },
      {
        name: 'product',
        type: 'text',
        kind: 'reference',
        references: { table: 'Product', column: 'sku', constraint: 'fk_Review_product' },
      },
      {
        name: 'author',
        type: 'integer',
        kind: 'reference',
        references: { table: 'Author', column: 'id', constraint: 'fk_Review_author' },
      },
      // An embedded entity has no table to point at.
      { name: 'size', type: 'text', kind: 'reference' },
      { name: 'stars', type: 'integer', kind: 'integer' },
    ]);
    expect(review?.indexes).toEqual([
      { name: 'ix_Review_author', columns: ['author', 'id'], unique: false },
      { name: 'ix_Review_product', columns: ['product', 'id'], unique: false },
    ]);
    expect(author?.key.hidden).toBe(true);
  });

  it('indexes what screens and calls filter and sort on, pairwise, and unique fields', () => {
    const model = modelOf({
      entities: [Product, Size],
      screens: [
        {
          kind: 'list',
          name: 'products',
          route: '/products',
          entity: 'Product',
          columns: ['title', 'photos'],
          filters: ['colour', 'photos', 'missing'],
          sort: [{ field: 'price', direction: 'desc' }],
        },
      ],
      calls: [
        {
          name: 'listProducts',
          method: 'GET',
          path: '/products',
          purpose: 'list',
          entity: 'Product',
          parameters: [],
          filters: [{ field: 'active', param: 'active', op: 'eq' }],
          sort: { param: 'sort', fields: ['sku', 'launched'], style: 'field,-field' },
        },
      ],
      constraints: [
        { entity: 'Product', field: ['title'], unique: true },
        { entity: 'Product', field: ['size', 'width'], unique: true },
      ],
    });
    expect(planTables(model).tables[0]?.indexes).toEqual([
      { name: 'ix_Product_active', columns: ['active', 'sku'], unique: false },
      { name: 'ix_Product_active_launched', columns: ['active', 'launched', 'sku'], unique: false },
      { name: 'ix_Product_colour', columns: ['colour', 'sku'], unique: false },
      { name: 'ix_Product_colour_price', columns: ['colour', 'price', 'sku'], unique: false },
      { name: 'ix_Product_launched', columns: ['launched', 'sku'], unique: false },
      { name: 'ix_Product_price', columns: ['price', 'sku'], unique: false },
      { name: 'ux_Product_title', columns: ['title'], unique: true },
    ]);
  });

  it('keeps names within PostgreSQL’s 63 bytes, deterministically', () => {
    const long = 'a'.repeat(40);
    const entity: Entity = {
      name: `Entity${long}`,
      key: 'id',
      fields: [
        { name: 'id', kind: 'integer' },
        { name: `first${long}`, kind: 'text' },
        { name: `second${long}`, kind: 'text' },
      ],
    };
    const screen = {
      kind: 'list' as const,
      name: 'long',
      route: '/long',
      entity: entity.name,
      columns: [],
      filters: [`first${long}`],
      sort: [{ field: `second${long}`, direction: 'asc' as const }],
    };
    const names = () =>
      planTables(modelOf({ entities: [entity], screens: [screen] })).tables[0]?.indexes.map(
        (index) => index.name,
      );
    const first = names() ?? [];
    expect(first).toHaveLength(3);
    for (const name of first) expect(name.length).toBeLessThanOrEqual(63);
    expect(new Set(first).size).toBe(3);
    expect(names()).toEqual(first);
  });

  it('refuses field names the store keeps for itself', () => {
    const entity: Entity = { name: 'Thing', fields: [{ name: '_version', kind: 'integer' }] };
    expect(() => planTables(modelOf({ entities: [entity] }))).toThrow(/reserved/);
  });

  it('plans nothing for a model whose entities are not shown', () => {
    expect(planTables({ ...modelOf({ entities: [] }), entities: { shown: false } })).toEqual({
      format: 1,
      tables: [],
    });
  });
});

describe('diffPlans', () => {
  const plan = planTables(modelOf({ entities: [Product, Size] }));

  it('creates everything on an empty database and nothing when the plan is the same', () => {
    const created = diffPlans(undefined, plan);
    expect(created.steps.map((step) => step.kind)).toEqual(['create-table']);
    expect(created.unchanged).toBe(false);
    expect(diffPlans(plan, plan)).toMatchObject({ steps: [], destructive: [], unchanged: true });
  });

  it('sees no step in a kind change that keeps the storage (text to enum), but stores the new plan', () => {
    const next = planTables(
      modelOf({
        entities: [
          {
            ...Product,
            fields: Product.fields.map((field) =>
              field.name === 'title' ? { ...field, kind: 'text' } : field,
            ),
          },
          Size,
        ],
      }),
    );
    expect(diffPlans(plan, next)).toMatchObject({ steps: [], unchanged: false });
  });
});

describe('cursor', () => {
  it('round-trips the values of one order and refuses another order or garbage', () => {
    const cursor = encodeCursor('T:a asc,id asc', ['x', 1]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'T:a asc,id asc', 2)).toEqual(['x', 1]);
    expect(() => decodeCursor(cursor, 'T:a desc,id desc', 2)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(cursor, 'T:a asc,id asc', 3)).toThrow(InvalidCursorError);
    for (const garbage of ['', '!!', 'bnVsbA', 'W10', 'eyJvIjoxfQ', 'x'.repeat(9000)]) {
      expect(() => decodeCursor(garbage, 'T:a asc,id asc', 2)).toThrow(InvalidCursorError);
    }
  });
});
