import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkAction,
  checkScreen,
  createdValues,
  fieldAccess,
  loadSpec,
  type Model,
  notShownModel,
  permissionsApply,
  recordAsSeen,
  writeViolations,
} from '../src';

function load(text: string, file: string): Model {
  const loaded = loadSpec(text, { file });
  if (!loaded.model) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  return loaded.model;
}

const shop = load(readFileSync(new URL('../../../examples/shop.yaml', import.meta.url), 'utf8'), 'shop.yaml');
const screen = (name: string) => {
  const found = shop.screens.shown ? shop.screens.items.find((s) => s.name === name) : undefined;
  if (!found) throw new Error(`no screen ${name}`);
  return found;
};

const owner = { role: 'owner', user: { id: 1 } };
// Order.ownerId is text: user ids are text too.
const clerk = { role: 'clerk', user: { id: 'u7' } };
const warehouse = { role: 'warehouse', user: { id: 9 } };
const customer = { role: 'customer', user: { id: 12, customerId: 3 } };

describe('actions on records (point 6 of the shop)', () => {
  it('allows what a grant names and refuses the rest, saying which role may not do what', () => {
    expect(checkAction(shop, owner, 'Order', 'delete')).toEqual({ allowed: true });
    expect(checkAction(shop, clerk, 'Order', 'update')).toEqual({ allowed: true });
    expect(checkAction(shop, clerk, 'Order', 'delete')).toEqual({
      allowed: false,
      reason: 'no-grant',
      message: 'The role Counter clerk may not delete orders.',
    });
    expect(checkAction(shop, customer, 'Customer', 'read')).toMatchObject({
      allowed: false,
      reason: 'no-grant',
    });
  });

  it("holds a grant's condition over the record and the user for read, update and delete", () => {
    const draftOfAnother = { id: 5, ownerId: 'u2', status: 'draft' };
    expect(checkAction(shop, clerk, 'Order', 'update', draftOfAnother)).toEqual({
      allowed: false,
      reason: 'condition',
      message: 'The role Counter clerk may change only some orders, and not this one.',
    });
    expect(checkAction(shop, clerk, 'Order', 'update', { ...draftOfAnother, ownerId: 'u7' })).toEqual({
      allowed: true,
    });
    expect(checkAction(shop, clerk, 'Order', 'read', { ...draftOfAnother, status: 'paid' })).toEqual({
      allowed: true,
    });
    // Own records only: another customer's order is refused even by id.
    expect(checkAction(shop, customer, 'Order', 'read', { id: 1, customer: 3 })).toEqual({ allowed: true });
    expect(checkAction(shop, customer, 'Order', 'read', { id: 2, customer: 4 })).toMatchObject({
      allowed: false,
      reason: 'condition',
    });
  });

  it('does not hold a condition that reads what the user lacks', () => {
    expect(
      checkAction(shop, { role: 'customer', user: { id: 12 } }, 'Order', 'read', { customer: 3 }),
    ).toMatchObject({
      allowed: false,
      reason: 'condition',
    });
  });

  it('refuses everything to someone not signed in, and nothing when point 6 is not shown', () => {
    expect(checkAction(shop, {}, 'Product', 'read')).toEqual({
      allowed: false,
      reason: 'not-signed-in',
      message: 'Sign in to see products.',
    });
    const open = { ...shop, roles: { shown: false as const } };
    expect(permissionsApply(open)).toBe(false);
    expect(checkAction(open, {}, 'Order', 'delete')).toEqual({ allowed: true });
    expect(permissionsApply(notShownModel('Empty'))).toBe(false);
  });
});

describe('screens', () => {
  it('shows a screen to the roles it names that may also do what it needs', () => {
    expect(checkScreen(shop, clerk, screen('new-order'))).toEqual({ allowed: true });
    expect(checkScreen(shop, warehouse, screen('new-order'))).toEqual({
      allowed: false,
      reason: 'role',
      message: 'The role Warehouse may not see this page.',
    });
    // The products list names no roles: every role that may read products sees it.
    expect(checkScreen(shop, customer, screen('products'))).toEqual({ allowed: true });
    // The customers list names the clerk, whose grant allows reading customers.
    expect(checkScreen(shop, clerk, screen('customers'))).toEqual({ allowed: true });
    expect(checkScreen(shop, {}, screen('customers'))).toMatchObject({ reason: 'not-signed-in' });
  });

  it('needs the create grant for a create screen and the update grant for an edit screen', () => {
    expect(checkScreen(shop, owner, screen('edit-product'))).toEqual({ allowed: true });
    expect(checkScreen(shop, clerk, screen('edit-product'))).toMatchObject({
      allowed: false,
      reason: 'role',
    });
  });
});

describe('fields', () => {
  it('leaves out of a record what the role may not read', () => {
    const order = { id: 1, ownerId: 'u7', customer: 3, attachment: 'f1', status: 'paid' };
    expect(fieldAccess(shop, warehouse, 'Order').hidden).toEqual(new Set(['attachment']));
    expect(recordAsSeen(shop, warehouse, 'Order', order)).toEqual({
      id: 1,
      ownerId: 'u7',
      customer: 3,
      status: 'paid',
    });
    expect(recordAsSeen(shop, customer, 'Order', order)).not.toHaveProperty('ownerId');
    expect(recordAsSeen(shop, owner, 'Order', order)).toBe(order);
  });

  it('refuses, field by field, a write of what the role may not read or change', () => {
    const model = load(
      `title: Notes
entities:
  Note:
    fields:
      title: { kind: text }
      owner: { kind: text }
      secret: { kind: text }
roles:
  signIn: { kind: password, session: memory }
  roles:
    writer:
      can:
        Note: { actions: [read, create, update], readOnly: [owner], hidden: [secret] }
`,
      'notes.yaml',
    );
    const writer = { role: 'writer', user: { id: 1 } };
    expect(writeViolations(model, writer, 'Note', { title: 'x', owner: 'me', secret: 's' })).toEqual([
      { field: 'owner', reason: 'read-only', message: 'The role writer may not change this field.' },
      { field: 'secret', reason: 'hidden', message: 'The role writer may not set this field.' },
    ]);
    expect(writeViolations(model, writer, 'Note', { title: 'x' })).toEqual([]);
  });
});

describe('fields set on create (the shop’s Order.ownerId = user.id)', () => {
  it('takes the value from who creates the record, and leaves it out when nobody is signed in', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(createdValues(shop, 'Order', { user: clerk.user, now })).toEqual({ ownerId: 'u7' });
    expect(createdValues(shop, 'Order', { user: {}, now })).toEqual({});
    expect(createdValues(shop, 'Customer', { user: clerk.user, now })).toEqual({});
  });
});
