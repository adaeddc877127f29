import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import { checkModel, checkModelWithOffsets } from '../src/check';
import type { Issue } from '../src/issues';
import { ISSUE_CODES } from '../src/issues';
import type {
  Call,
  Entities,
  ErrorCatalogue,
  Model,
  Roles,
  Screen,
  StateMachine,
  Transition,
  Validation,
} from '../src/model';
import { notShownModel } from '../src/model';

// ------------------------------------------------------------------------------------------ fixtures

/** A model with every point not shown, with the given points replaced. */
function makeModel(overrides: Partial<Model> = {}): Model {
  return { ...notShownModel('Test'), ...overrides };
}

const entities: Entities = {
  items: [
    {
      name: 'Order',
      key: 'id',
      display: 'number',
      fields: [
        { name: 'id', kind: 'text', readOnly: true },
        { name: 'number', kind: 'text' },
        { name: 'customer', kind: 'reference', entity: 'Customer' },
        {
          name: 'status',
          kind: 'enum',
          values: [
            { value: 'draft' },
            { value: 'placed' },
            { value: 'paid' },
            { value: 'shipped' },
            { value: 'cancelled' },
            { value: 'archived' },
          ],
        },
        { name: 'lines', kind: 'list', of: { kind: 'object', entity: 'OrderLine' } },
        { name: 'shippingAddress', kind: 'object', entity: 'Address' },
        { name: 'subtotal', kind: 'money', currency: 'EUR' },
        { name: 'shippingCost', kind: 'money', currency: 'EUR' },
        { name: 'total', kind: 'money', currency: 'EUR', derived: 'record.subtotal + record.shippingCost' },
        { name: 'itemCount', kind: 'integer' },
        { name: 'express', kind: 'boolean' },
        { name: 'placedAt', kind: 'datetime' },
        { name: 'paidAt', kind: 'datetime' },
        { name: 'deliveryDate', kind: 'date' },
        { name: 'notes', kind: 'markdown' },
        { name: 'invoice', kind: 'file', accept: ['application/pdf'] },
        { name: 'ownerId', kind: 'text' },
        { name: 'tags', kind: 'list', of: { kind: 'text' } },
      ],
    },
    {
      name: 'OrderLine',
      embedded: true,
      fields: [
        { name: 'product', kind: 'reference', entity: 'Product' },
        { name: 'quantity', kind: 'integer' },
        { name: 'unitPrice', kind: 'money' },
      ],
    },
    {
      name: 'Address',
      embedded: true,
      fields: [
        { name: 'street', kind: 'text' },
        { name: 'postcode', kind: 'text' },
        { name: 'city', kind: 'text' },
      ],
    },
    {
      name: 'Customer',
      key: 'id',
      display: 'name',
      fields: [
        { name: 'id', kind: 'text' },
        { name: 'name', kind: 'text' },
        { name: 'email', kind: 'text', format: 'email' },
        { name: 'vip', kind: 'boolean' },
        { name: 'address', kind: 'object', entity: 'Address' },
      ],
    },
    {
      name: 'Product',
      key: 'sku',
      display: 'name',
      fields: [
        { name: 'sku', kind: 'text' },
        { name: 'name', kind: 'text' },
        { name: 'price', kind: 'money' },
        { name: 'stock', kind: 'integer' },
      ],
    },
  ],
};

const screens: Screen[] = [
  { kind: 'dashboard', name: 'home', route: '/', tiles: ['orders', 'customers'], figures: [] },
  {
    kind: 'list',
    name: 'orders',
    route: '/orders',
    entity: 'Order',
    columns: ['number', 'customer', 'status', 'total'],
    filters: ['status', 'express'],
    sort: [{ field: 'placedAt', direction: 'desc' }],
    pageSize: { kind: 'constant', name: 'PAGE_SIZE' },
    roles: ['clerk', 'manager'],
  },
  {
    kind: 'detail',
    name: 'order',
    route: '/orders/:id',
    entity: 'Order',
    fields: ['number', 'status', 'lines'],
    hidden: true,
  },
  { kind: 'create', name: 'newOrder', route: '/orders/new', entity: 'Order', fields: ['customer', 'lines'] },
  { kind: 'edit', name: 'editOrder', route: '/orders/:id/edit', entity: 'Order', hidden: true },
  {
    kind: 'list',
    name: 'customers',
    route: '/customers',
    entity: 'Customer',
    columns: ['name', 'email'],
    filters: [],
    sort: [{ field: 'name', direction: 'asc' }],
    pageSize: { kind: 'number', value: 25 },
  },
  { kind: 'detail', name: 'customer', route: '/customers/:customerId', entity: 'Customer' },
  {
    kind: 'list',
    name: 'products',
    route: '/products',
    entity: 'Product',
    columns: ['sku'],
    filters: [],
    sort: [],
  },
  { kind: 'sign-in', name: 'signIn', route: '/sign-in' },
  { kind: 'custom', name: 'report', route: '/reports/sales', component: 'SalesReport', roles: ['manager'] },
];

const transitions: Transition[] = [
  {
    name: 'place',
    from: ['draft'],
    to: 'placed',
    guard: 'record.lines.size() > 0 && record.total <= MAX_ORDER_TOTAL',
    guardMessage: 'An order needs at least one line and may not exceed the maximum total.',
    set: [{ field: 'placedAt', expression: 'now' }],
  },
  {
    name: 'pay',
    from: ['placed'],
    to: 'paid',
    roles: ['clerk', 'manager'],
    call: 'payOrder',
    set: [{ field: 'paidAt', expression: 'now' }],
  },
  { name: 'ship', from: ['paid'], to: 'shipped', roles: ['manager'], set: [] },
  {
    name: 'cancel',
    from: ['draft', 'placed'],
    to: 'cancelled',
    confirm: 'Cancel this order?',
    guard: 'user.role == "manager" || record.ownerId == user.id',
    set: [],
  },
];

const machine: StateMachine = {
  entity: 'Order',
  field: 'status',
  initial: 'draft',
  states: [
    { name: 'draft', tone: 'neutral' },
    { name: 'placed', tone: 'info' },
    { name: 'paid', tone: 'success' },
    { name: 'shipped', tone: 'success', final: true },
    { name: 'cancelled', tone: 'danger', final: true },
  ],
  transitions,
};

const validation: Validation = {
  fields: [
    { entity: 'Order', field: ['number'], required: true, pattern: '^ORD-[0-9]{4,}$' },
    {
      entity: 'Order',
      field: ['total'],
      min: { kind: 'number', value: 0 },
      max: { kind: 'constant', name: 'MAX_ORDER_TOTAL' },
    },
    { entity: 'Order', field: ['shippingAddress', 'postcode'], required: true, pattern: '^\\p{Nd}{4,5}$' },
    {
      entity: 'Order',
      field: ['lines'],
      min: { kind: 'number', value: 1 },
      max: { kind: 'constant', name: 'MAX_LINES' },
    },
    {
      entity: 'Order',
      field: ['deliveryDate'],
      min: { kind: 'date', value: '2024-01-01' },
      max: { kind: 'constant', name: 'LAST_DELIVERY' },
    },
    { entity: 'Customer', field: ['email'], required: true, unique: true, pattern: '^[^@\\s]+@[^@\\s]+$' },
    { entity: 'Customer', field: ['address', 'city'], required: true },
    { entity: 'Product', field: ['stock'], min: { kind: 'number', value: 0 } },
  ],
  rules: [
    {
      name: 'delivery-after-placing',
      entity: 'Order',
      check: '!has(record.deliveryDate) || !has(record.placedAt) || record.deliveryDate >= record.placedAt',
      message: 'The delivery date cannot be before the order was placed.',
      field: 'deliveryDate',
      on: ['create', 'update'],
    },
    {
      name: 'paid-total-is-final',
      entity: 'Order',
      check: 'old.status != "paid" || record.total == old.total',
      message: 'The total of a paid order cannot change.',
      on: ['update'],
    },
    {
      entity: 'Order',
      check: 'record.itemCount <= MAX_LINES && record.placedAt <= now',
      message: 'Too many items.',
      field: 'itemCount',
      on: ['create', 'update'],
    },
  ],
};

const roles: Roles = {
  signIn: { kind: 'password', call: 'signIn', session: 'memory' },
  roles: [{ name: 'clerk', label: 'Clerk' }, { name: 'manager' }],
  grants: [
    {
      role: 'clerk',
      entity: 'Order',
      actions: ['read', 'create', 'update'],
      where: 'record.ownerId == user.id',
      hidden: [],
      readOnly: ['total'],
    },
    { role: 'clerk', entity: 'Customer', actions: ['read'], hidden: ['email'], readOnly: [] },
    {
      role: 'manager',
      entity: 'Order',
      actions: ['read', 'create', 'update', 'delete'],
      hidden: [],
      readOnly: [],
    },
    { role: 'manager', entity: 'Customer', actions: ['read', 'update'], hidden: [], readOnly: ['id'] },
  ],
};

const idParameter = { name: 'id', in: 'path' as const, required: true, type: { kind: 'text' as const } };
const calls: Call[] = [
  {
    name: 'listOrders',
    method: 'GET',
    path: '/orders',
    purpose: 'list',
    entity: 'Order',
    parameters: [],
    response: { shape: 'envelope', entity: 'Order', items: 'items', total: 'total' },
    pagination: {
      style: 'page',
      pageParam: 'page',
      sizeParam: 'size',
      maxSize: { kind: 'constant', name: 'MAX_PAGE_SIZE' },
    },
    sort: { param: 'sort', fields: ['placedAt', 'total'], style: 'field,-field' },
    filters: [{ field: 'status', param: 'status', op: 'eq' }],
  },
  {
    name: 'getOrder',
    method: 'GET',
    path: '/orders/{id}',
    purpose: 'get',
    entity: 'Order',
    parameters: [idParameter],
    response: { shape: 'one', entity: 'Order' },
    filters: [],
  },
  {
    name: 'createOrder',
    method: 'POST',
    path: '/orders',
    purpose: 'create',
    entity: 'Order',
    parameters: [],
    body: { entity: 'Order', fields: ['customer', 'lines', 'shippingAddress'], encoding: 'json' },
    response: { shape: 'one', entity: 'Order' },
    filters: [],
  },
  {
    name: 'payOrder',
    method: 'POST',
    path: '/orders/{id}/pay',
    purpose: 'transition',
    entity: 'Order',
    parameters: [idParameter],
    response: { shape: 'one', entity: 'Order' },
    filters: [],
  },
  {
    name: 'uploadInvoice',
    method: 'PUT',
    path: '/orders/{id}/invoice.{format}',
    purpose: 'upload',
    entity: 'Order',
    parameters: [idParameter],
    body: { entity: 'Order', fields: ['invoice'], encoding: 'multipart' },
    filters: [],
  },
  { name: 'signIn', method: 'POST', path: '/session', purpose: 'sign-in', parameters: [], filters: [] },
  {
    name: 'listCustomers',
    method: 'GET',
    path: '/customers',
    purpose: 'list',
    parameters: [],
    response: { shape: 'array', entity: 'Customer' },
    pagination: { style: 'none' },
    sort: { param: 'sort', fields: ['name'], style: 'field:asc' },
    filters: [{ field: 'vip', param: 'vip', op: 'eq' }],
  },
];

const errors: ErrorCatalogue = {
  entries: [
    {
      match: { status: 409, code: 'OUT_OF_STOCK' },
      message: 'Not in stock.',
      action: 'fix-field',
      field: 'Order.lines',
    },
    {
      match: { status: 422, type: 'https://example.com/problems/postcode' },
      message: 'Unknown postcode.',
      action: 'fix-field',
      field: 'Order.shippingAddress.postcode',
    },
    { match: { status: 401 }, message: 'Please sign in again.', action: 'sign-in' },
    { match: { status: '5xx' }, message: 'The server failed; try again.', action: 'retry' },
    { match: {}, message: 'Something went wrong.', action: 'contact-support' },
  ],
};

/** Orders, customers and products: every point shown, every check passing. */
function richModel(): Model {
  return structuredClone({
    title: 'Shop',
    product: {
      shown: true,
      summary: 'Orders for a small shop',
      audience: ['clerks', 'managers'],
      home: 'home',
    },
    screens: { shown: true, items: screens },
    entities: { shown: true, ...entities },
    states: { shown: true, machines: [machine] },
    validation: { shown: true, ...validation },
    roles: { shown: true, ...roles },
    calls: { shown: true, baseUrl: 'https://api.example.com', items: calls },
    errors: { shown: true, ...errors },
    constants: {
      shown: true,
      items: [
        { name: 'PAGE_SIZE', value: 25, unit: 'rows' },
        { name: 'MAX_PAGE_SIZE', value: 100, unit: 'rows' },
        { name: 'MAX_ORDER_TOTAL', value: 10000, unit: 'EUR' },
        { name: 'MAX_LINES', value: 50 },
        { name: 'LAST_DELIVERY', value: '2030-12-31' },
        { name: 'SUPPORT_EMAIL', value: 'help@example.com' },
        { name: 'EXPRESS_ENABLED', value: true },
        { name: 'VAT_RATE', value: 0.21 },
      ],
    },
  } satisfies Model);
}

/** The rich model with one change made by `change` (on a copy). */
function rich(change: (model: Shown) => void): Model {
  const model = richModel();
  change(model as Shown);
  return model;
}

/** The rich model with every point's content reachable without narrowing, for terse changes in tests. */
type Shown = {
  [K in keyof Model]: Model[K] extends infer P ? (P extends { shown: true } ? P : never) : never;
} & { title?: string };

function screen(model: Shown, name: string): Record<string, unknown> {
  const found = model.screens.items.find((item) => item.name === name);
  if (!found) throw new Error(`no screen ${name}`);
  return found as unknown as Record<string, unknown>;
}

function entity(model: Shown, name: string) {
  const found = model.entities.items.find((item) => item.name === name);
  if (!found) throw new Error(`no entity ${name}`);
  return found;
}

function field(model: Shown, entityName: string, fieldName: string): Record<string, unknown> {
  const found = entity(model, entityName).fields.find((item) => item.name === fieldName);
  if (!found) throw new Error(`no field ${fieldName}`);
  return found as unknown as Record<string, unknown>;
}

function transition(model: Shown, name: string): Transition {
  const found = model.states.machines[0]?.transitions.find((item) => item.name === name);
  if (!found) throw new Error(`no transition ${name}`);
  return found;
}

function firstMachine(model: Shown): StateMachine {
  const found = model.states.machines[0];
  if (!found) throw new Error('no machine');
  return found;
}

function call(model: Shown, name: string): Call {
  const found = model.calls.items.find((item) => item.name === name);
  if (!found) throw new Error(`no call ${name}`);
  return found;
}

/** What a test asserts of an issue: everything but the message (checked separately where it matters). */
function summary(issue: Issue) {
  return {
    code: issue.code,
    severity: issue.severity,
    path: issue.path,
    ...(issue.hint === undefined ? {} : { hint: issue.hint }),
  };
}

function summaries(model: Model) {
  return checkModel(model).map(summary);
}

// ------------------------------------------------------------------------------------------ clean models

describe('checkModel on clean models', () => {
  it('finds nothing in a rich, consistent model', () => {
    expect(checkModel(richModel())).toEqual([]);
  });

  it('finds nothing in a model whose nine points are all not shown', () => {
    expect(checkModel(makeModel())).toEqual([]);
  });

  it('leaves source empty and uses only known codes', () => {
    const issues = checkModel(
      rich((model) => {
        model.product.home = 'hom';
        screen(model, 'orders').route = 'orders';
      }),
    );
    expect(issues.length).toBe(2);
    for (const issue of issues) {
      expect(issue.source).toBeUndefined();
      expect(ISSUE_CODES).toContain(issue.code);
      expect(issue.message.length).toBeGreaterThan(20);
    }
  });
});

// ------------------------------------------------------------------------------------------ 1. product

describe('point 1: product', () => {
  it('resolves the home screen, with did-you-mean', () => {
    const issues = checkModel(
      rich((model) => {
        model.product.home = 'hme';
      }),
    );
    expect(issues.map(summary)).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['product', 'home'],
        hint: 'did you mean "home"?',
      },
    ]);
    expect(issues[0]?.message).toContain('"hme"');
    expect(issues[0]?.message).toContain('point 2');
  });

  it('reports a home screen named while point 2 is not shown', () => {
    const model = makeModel({ product: { shown: true, audience: [], home: 'home' } });
    const issues = checkModel(model);
    expect(issues.map(summary)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: ['product', 'home'] },
    ]);
    expect(issues[0]?.message).toContain('point 2 (screens and routes) is not shown');
    expect(issues[0]?.message).toContain('remove the reference');
  });
});

// ------------------------------------------------------------------------------------------ 2. screens

describe('point 2: screens', () => {
  it('reports a duplicate screen name on the second one', () => {
    expect(
      summaries(
        rich((model) => void model.screens.items.push({ kind: 'sign-in', name: 'signIn', route: '/login' })),
      ),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: ['screens', 'signIn'] }]);
  });

  it('reports an unknown screen kind', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'signIn').kind = 'sign_in';
        }),
      ),
    ).toEqual([
      {
        code: 'invalid-value',
        severity: 'error',
        path: ['screens', 'signIn', 'kind'],
        hint: 'did you mean "sign-in"?',
      },
    ]);
  });

  it('resolves the entity, with did-you-mean', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'orders').entity = 'Ordr';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'orders', 'entity'],
        hint: 'did you mean "Order"?',
      },
    ]);
  });

  it('reports an entity named while point 3 is not shown, once', () => {
    const model = makeModel({
      screens: {
        shown: true,
        items: [
          {
            kind: 'list',
            name: 'orders',
            route: '/orders',
            entity: 'Order',
            columns: ['total'],
            filters: [],
            sort: [],
          },
        ],
      },
    });
    const issues = checkModel(model);
    expect(issues.map(summary)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: ['screens', 'orders', 'entity'] },
    ]);
    expect(issues[0]?.message).toContain('Screen "orders"');
    expect(issues[0]?.message).toContain('point 3 (entities and fields) is not shown');
    expect(issues[0]?.message).toContain('Write point 3');
  });

  it('requires an entity on list, detail, create and edit screens', () => {
    for (const name of ['orders', 'order', 'newOrder', 'editOrder']) {
      expect(summaries(rich((model) => void delete screen(model, name).entity))).toEqual([
        { code: 'missing-key', severity: 'error', path: ['screens', name, 'entity'] },
      ]);
    }
  });

  it('refuses an embedded entity on a list screen', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'products').entity = 'Address';
        }),
      ),
    ).toEqual(
      [
        { code: 'unknown-reference', severity: 'error', path: ['screens', 'products', 'columns', 0] },
        { code: 'kind-mismatch', severity: 'error', path: ['screens', 'products', 'entity'] },
      ].reverse(),
    );
  });

  it('resolves columns, filters, sort keys and fields against the entity', () => {
    const model = rich((m) => {
      screen(m, 'orders').columns = ['number', 'totl'];
      screen(m, 'orders').filters = ['stauts'];
      screen(m, 'orders').sort = [{ field: 'placed', direction: 'asc' }];
      screen(m, 'order').fields = ['number', 'lins'];
    });
    expect(summaries(model)).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'orders', 'columns', 1],
        hint: 'did you mean "total"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'orders', 'filters', 0],
        hint: 'did you mean "status"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'orders', 'sort', 0],
        hint: 'did you mean "placedAt"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'order', 'fields', 1],
        hint: 'did you mean "lines"?',
      },
    ]);
    expect(checkModel(model)[0]?.message).toContain('entity "Order" (point 3) does not have');
  });

  it('resolves dashboard tiles to list screens', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'home').tiles = ['ordrs', 'order'];
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'home', 'tiles', 0],
        hint: 'did you mean "orders"?',
      },
      {
        code: 'kind-mismatch',
        severity: 'error',
        path: ['screens', 'home', 'tiles', 1],
        hint: 'did you mean "orders"?',
      },
    ]);
  });

  it('resolves screen roles, or says point 6 is not shown', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'report').roles = ['manger'];
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'report', 'roles', 0],
        hint: 'did you mean "manager"?',
      },
    ]);
    const model = makeModel({
      screens: {
        shown: true,
        items: [{ kind: 'custom', name: 'x', route: '/x', component: 'X', roles: ['admin'] }],
      },
    });
    expect(summaries(model)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: ['screens', 'x', 'roles', 0] },
    ]);
  });

  it('requires a component on a custom screen, and accepts an embedded entity there', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'report').component = '';
        }),
      ),
    ).toEqual([{ code: 'missing-key', severity: 'error', path: ['screens', 'report', 'component'] }]);
    expect(
      checkModel(
        rich((model) => {
          screen(model, 'report').entity = 'Address';
        }),
      ),
    ).toEqual([]);
  });

  it.each([
    ['orders', 'does not start with "/"'],
    ['/orders/', 'empty segment'],
    ['/orders//x', 'empty segment'],
    ['/orders/:order-id', 'not a plain name'],
    ['/orders/:', 'not a plain name'],
    ['/orders/{id}', 'written ":name"'],
    ['/orders/:id/lines/:id', 'twice'],
    ['/orders?page=1', 'neither literal'],
  ])('reports the invalid route %s', (route, words) => {
    const issues = checkModel(
      rich((model) => {
        screen(model, 'orders').route = route;
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-route', severity: 'error', path: ['screens', 'orders', 'route'] },
    ]);
    expect(issues[0]?.message).toContain(words);
  });

  it('requires a parameter in detail and edit routes', () => {
    expect(
      summaries(
        rich((model) => {
          screen(model, 'order').route = '/order';
        }),
      ),
    ).toEqual([{ code: 'invalid-route', severity: 'error', path: ['screens', 'order', 'route'] }]);
    expect(
      summaries(
        rich((model) => {
          screen(model, 'editOrder').route = '/orders/edit';
        }),
      ),
    ).toEqual([{ code: 'invalid-route', severity: 'error', path: ['screens', 'editOrder', 'route'] }]);
  });

  it('reports routes that match the same addresses on the second screen', () => {
    const issues = checkModel(
      rich((model) => {
        screen(model, 'customer').route = '/orders/:orderId';
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'conflicting-route', severity: 'error', path: ['screens', 'customer', 'route'] },
    ]);
    expect(issues[0]?.message).toContain('screen "order"');
    expect(
      summaries(
        rich((model) => {
          screen(model, 'products').route = '/Customers';
        }),
      ),
    ).toEqual([{ code: 'conflicting-route', severity: 'error', path: ['screens', 'products', 'route'] }]);
  });

  it('checks a page size constant', () => {
    const unknown = rich((model) => {
      screen(model, 'orders').pageSize = { kind: 'constant', name: 'PAGESIZE' };
    });
    expect(summaries(unknown)).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['screens', 'orders', 'pageSize'],
        hint: 'did you mean "PAGE_SIZE"?',
      },
    ]);
    const text = rich((model) => {
      screen(model, 'orders').pageSize = { kind: 'constant', name: 'SUPPORT_EMAIL' };
    });
    expect(summaries(text)).toEqual([
      { code: 'kind-mismatch', severity: 'error', path: ['screens', 'orders', 'pageSize'] },
    ]);
    const notShown = rich((model) => {
      model.constants = { shown: false } as never;
    });
    expect(summaries(notShown)).toEqual(
      expect.arrayContaining([
        { code: 'not-shown-reference', severity: 'error', path: ['screens', 'orders', 'pageSize'] },
      ]),
    );
  });
});

// ------------------------------------------------------------------------------------------ 3. entities

describe('point 3: entities', () => {
  it('reports duplicate entities and fields', () => {
    expect(
      summaries(
        rich((model) => void model.entities.items.push({ name: 'Address', embedded: true, fields: [] })),
      ),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: ['entities', 'Address'] }]);
    expect(
      summaries(
        rich((model) => void entity(model, 'Product').fields.push({ name: 'stock', kind: 'number' })),
      ),
    ).toEqual([
      { code: 'duplicate-name', severity: 'error', path: ['entities', 'Product', 'fields', 'stock'] },
    ]);
  });

  it('resolves key and display', () => {
    expect(
      summaries(
        rich((model) => {
          entity(model, 'Product').key = 'skuu';
          entity(model, 'Product').display = 'title';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['entities', 'Product', 'key'],
        hint: 'did you mean "sku"?',
      },
      { code: 'unknown-reference', severity: 'error', path: ['entities', 'Product', 'display'] },
    ]);
  });

  it('resolves reference and object targets, also inside lists', () => {
    expect(
      summaries(
        rich((model) => {
          field(model, 'Order', 'customer').entity = 'Customers';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['entities', 'Order', 'fields', 'customer', 'entity'],
        hint: 'did you mean "Customer"?',
      },
    ]);
    expect(
      summaries(
        rich((model) => {
          field(model, 'Order', 'lines').of = { kind: 'object', entity: 'Line' };
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['entities', 'Order', 'fields', 'lines', 'of', 'entity'],
      },
    ]);
  });

  it('warns about an object of a non-embedded entity and a reference to an embedded one', () => {
    expect(
      summaries(
        rich((model) => {
          field(model, 'Order', 'customer').kind = 'object';
        }),
      ),
    ).toEqual([
      {
        code: 'kind-mismatch',
        severity: 'warning',
        path: ['entities', 'Order', 'fields', 'customer', 'entity'],
      },
    ]);
    // The constraint on Customer.address.city now goes through a reference, which has no fields.
    expect(
      summaries(
        rich((model) => {
          field(model, 'Customer', 'address').kind = 'reference';
        }),
      ),
    ).toEqual([
      {
        code: 'kind-mismatch',
        severity: 'warning',
        path: ['entities', 'Customer', 'fields', 'address', 'entity'],
      },
      { code: 'kind-mismatch', severity: 'error', path: ['validation', 'fields', 'Customer.address.city'] },
    ]);
  });

  it('reports an unknown field kind', () => {
    expect(
      summaries(
        rich((model) => {
          field(model, 'Product', 'stock').kind = 'int';
        }),
      ),
    ).toEqual([
      {
        code: 'invalid-value',
        severity: 'error',
        path: ['entities', 'Product', 'fields', 'stock', 'kind'],
      },
    ]);
  });

  it('checks derived expressions over record only, with the error offset', () => {
    const model = rich((m) => {
      field(m, 'Order', 'total').derived = 'record.subtotl + record.shippingCost';
    });
    const checked = checkModelWithOffsets(model);
    expect(checked.map(({ issue, offset }) => ({ ...summary(issue), offset }))).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: ['entities', 'Order', 'fields', 'total', 'derived'],
        hint: 'did you mean "subtotal"?',
        offset: 7,
      },
    ]);
    expect(checked[0]?.issue.message).toContain('No such key: subtotl');

    const withUser = rich((m) => {
      field(m, 'Order', 'total').derived = 'user.discount';
    });
    const issues = checkModel(withUser);
    expect(issues.map(summary)).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: ['entities', 'Order', 'fields', 'total', 'derived'],
      },
    ]);
    expect(issues[0]?.message).toContain('Unknown variable: user');
    expect(issues[0]?.message).toContain('"record" and the constants of point 9');
  });
});

// ------------------------------------------------------------------------------------------ 4. states

describe('point 4: states', () => {
  const base = ['states', 'Order.status'];

  it('resolves the machine entity and field, or says point 3 is not shown', () => {
    expect(
      summaries(
        rich((model) => {
          firstMachine(model).field = 'state';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['states', 'Order.state'],
        hint: 'did you mean "status"?',
      },
    ]);
    const model = makeModel({
      states: {
        shown: true,
        machines: [
          { entity: 'Order', field: 'status', initial: 'a', states: [{ name: 'a' }], transitions: [] },
        ],
      },
    });
    expect(summaries(model)).toEqual([{ code: 'not-shown-reference', severity: 'error', path: base }]);
  });

  it('requires the state field to be an enum', () => {
    expect(
      summaries(
        rich((model) => {
          field(model, 'Order', 'status').kind = 'text';
        }),
      ),
    ).toEqual([{ code: 'kind-mismatch', severity: 'error', path: base }]);
  });

  it('reports a state that is not an enum value, but not an enum value without a state', () => {
    expect(summaries(rich((model) => void firstMachine(model).states.push({ name: 'refunded' })))).toEqual([
      { code: 'unknown-reference', severity: 'error', path: [...base, 'states', 'refunded'] },
      { code: 'unreachable-state', severity: 'warning', path: [...base, 'states', 'refunded'] },
    ]);
    // 'archived' is an enum value with no state entry: fine.
    expect(checkModel(richModel())).toEqual([]);
  });

  it('resolves initial, from and to against the states', () => {
    expect(
      summaries(
        rich((model) => {
          firstMachine(model).initial = 'drafted';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'initial'],
        hint: 'did you mean "draft"?',
      },
    ]);
    expect(
      summaries(
        rich((model) => {
          transition(model, 'ship').from = ['paidd'];
          transition(model, 'ship').to = 'shiped';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'ship', 'from'],
        hint: 'did you mean "paid"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'ship', 'to'],
        hint: 'did you mean "shipped"?',
      },
      { code: 'unreachable-state', severity: 'warning', path: [...base, 'states', 'shipped'] },
    ]);
  });

  it('resolves transition roles and calls', () => {
    expect(
      summaries(
        rich((model) => {
          transition(model, 'pay').roles = ['clrk'];
          transition(model, 'pay').call = 'payorder';
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'pay', 'roles'],
        hint: 'did you mean "clerk"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'pay', 'call'],
        hint: 'did you mean "payOrder"?',
      },
    ]);
    const notShown = rich((model) => {
      model.roles = { shown: false } as never;
      model.calls = { shown: false } as never;
      for (const item of model.screens.items) delete item.roles;
    });
    expect(summaries(notShown)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: [...base, 'transitions', 'pay', 'roles'] },
      { code: 'not-shown-reference', severity: 'error', path: [...base, 'transitions', 'pay', 'roles'] },
      { code: 'not-shown-reference', severity: 'error', path: [...base, 'transitions', 'pay', 'call'] },
      { code: 'not-shown-reference', severity: 'error', path: [...base, 'transitions', 'ship', 'roles'] },
      // Without calls of its own, every answer is the prototype API's: a code no rule gives is dead.
      { code: 'unknown-reference', severity: 'warning', path: ['errors', 0, 'code'] },
    ]);
  });

  it('checks set fields and their expressions', () => {
    expect(
      summaries(
        rich((model) => {
          transition(model, 'pay').set = [{ field: 'paidOn', expression: 'now' }];
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'pay', 'set', 'paidOn'],
        hint: 'did you mean "paidAt"?',
      },
    ]);
    const checked = checkModelWithOffsets(
      rich((model) => {
        transition(model, 'pay').set = [{ field: 'paidAt', expression: 'nw' }];
      }),
    );
    expect(checked.map(({ issue, offset }) => ({ ...summary(issue), offset }))).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: [...base, 'transitions', 'pay', 'set', 'paidAt'],
        hint: 'did you mean "now"?',
        offset: 0,
      },
    ]);
  });

  it('checks guards over record, user, now and constants, with offsets', () => {
    const checked = checkModelWithOffsets(
      rich((model) => {
        transition(model, 'place').guard = 'record.lines.size() > 0 && record.totl <= MAX_ORDER_TOTAL';
      }),
    );
    expect(checked.map(({ issue, offset }) => ({ ...summary(issue), offset }))).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: [...base, 'transitions', 'place', 'guard'],
        hint: 'did you mean "total"?',
        offset: 34,
      },
    ]);
    expect(
      summaries(
        rich((model) => {
          transition(model, 'place').guard = 'record.total >';
        }),
      ),
    ).toEqual([
      { code: 'invalid-expression', severity: 'error', path: [...base, 'transitions', 'place', 'guard'] },
    ]);
    expect(
      summaries(
        rich((model) => {
          transition(model, 'place').guard = 'old.total > 0';
        }),
      ),
    ).toEqual([
      { code: 'invalid-expression', severity: 'error', path: [...base, 'transitions', 'place', 'guard'] },
    ]);
  });

  it('requires a guard to be true or false', () => {
    const issues = checkModel(
      rich((model) => {
        transition(model, 'place').guard = 'record.total';
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-expression', severity: 'error', path: [...base, 'transitions', 'place', 'guard'] },
    ]);
    expect(issues[0]?.message).toContain('type double');
  });

  it('says point 9 is not shown when a guard uses a constant without it', () => {
    const model = rich((m) => {
      m.constants = { shown: false } as never;
      m.validation.fields = m.validation.fields.filter((item) => item.max?.kind !== 'constant');
      m.validation.rules = [];
      delete screen(m, 'orders').pageSize;
      delete (call(m, 'listOrders').pagination as { maxSize?: unknown }).maxSize;
    });
    expect(checkModelWithOffsets(model).map(({ issue, offset }) => ({ ...summary(issue), offset }))).toEqual([
      {
        code: 'not-shown-reference',
        severity: 'error',
        path: [...base, 'transitions', 'place', 'guard'],
        offset: 43,
      },
    ]);
  });

  it('warns about states that no transition reaches, and accepts dead ends', () => {
    // Only 'pay' leads into 'paid', and only from 'paid' itself; 'shipped' is only reached from 'paid'.
    const issues = checkModel(
      rich((model) => {
        transition(model, 'pay').from = ['paid'];
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'unreachable-state', severity: 'warning', path: [...base, 'states', 'paid'] },
      { code: 'unreachable-state', severity: 'warning', path: [...base, 'states', 'shipped'] },
    ]);
    expect(issues[0]?.message).toContain('"draft"');
    // 'paid' without a way out is a dead end, which is allowed.
    expect(
      checkModel(
        rich((model) => {
          firstMachine(model).transitions = firstMachine(model).transitions.filter((t) => t.name !== 'ship');
        }),
      ),
    ).toEqual([
      {
        code: 'unreachable-state',
        severity: 'warning',
        path: [...base, 'states', 'shipped'],
        message: expect.any(String),
      },
    ]);
  });

  it('reports duplicate machines, states and transitions', () => {
    expect(
      summaries(rich((model) => void model.states.machines.push(structuredClone(firstMachine(model))))),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: base }]);
    expect(summaries(rich((model) => void firstMachine(model).states.push({ name: 'paid' })))).toEqual([
      { code: 'duplicate-name', severity: 'error', path: [...base, 'states', 'paid'] },
    ]);
    expect(
      summaries(
        rich(
          (model) =>
            void firstMachine(model).transitions.push({ name: 'pay', from: ['placed'], to: 'paid', set: [] }),
        ),
      ),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: [...base, 'transitions', 'pay'] }]);
  });
});

// ------------------------------------------------------------------------------------------ 5. validation

describe('point 5: validation', () => {
  const fieldPath = (key: string, ...rest: string[]) => ['validation', 'fields', key, ...rest];

  function withConstraint(constraint: Validation['fields'][number]): Model {
    return rich((model) => void model.validation.fields.push(constraint));
  }

  it('resolves the entity and field of constraints, through embedded objects', () => {
    expect(summaries(withConstraint({ entity: 'Ordr', field: ['number'], required: true }))).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: fieldPath('Ordr.number'),
        hint: 'did you mean "Order"?',
      },
    ]);
    expect(
      summaries(withConstraint({ entity: 'Order', field: ['shippingAddress', 'zip'], required: true })),
    ).toEqual([
      { code: 'unknown-reference', severity: 'error', path: fieldPath('Order.shippingAddress.zip') },
    ]);
    expect(
      summaries(withConstraint({ entity: 'Order', field: ['total', 'amount'], required: true })),
    ).toEqual([{ code: 'kind-mismatch', severity: 'error', path: fieldPath('Order.total.amount') }]);
    expect(
      checkModel(
        withConstraint({ entity: 'Order', field: ['lines', 'quantity'], min: { kind: 'number', value: 1 } }),
      ),
    ).toEqual([]);
  });

  it('reports a pattern that does not compile with the u flag', () => {
    const issues = checkModel(withConstraint({ entity: 'Product', field: ['sku'], pattern: '^[A-Z' }));
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-pattern', severity: 'error', path: fieldPath('Product.sku', 'pattern') },
    ]);
    // Valid without the u flag, invalid with it: the client and API both use u.
    expect(summaries(withConstraint({ entity: 'Product', field: ['sku'], pattern: '\\-' }))).toEqual([
      { code: 'invalid-pattern', severity: 'error', path: fieldPath('Product.sku', 'pattern') },
    ]);
  });

  it('warns about a pattern on a non-text field and min or max on unordered fields', () => {
    expect(summaries(withConstraint({ entity: 'Order', field: ['itemCount'], pattern: '^[0-9]+$' }))).toEqual(
      [{ code: 'kind-mismatch', severity: 'warning', path: fieldPath('Order.itemCount', 'pattern') }],
    );
    expect(
      summaries(withConstraint({ entity: 'Customer', field: ['vip'], min: { kind: 'number', value: 1 } })),
    ).toEqual([{ code: 'kind-mismatch', severity: 'warning', path: fieldPath('Customer.vip', 'min') }]);
    expect(
      summaries(withConstraint({ entity: 'Order', field: ['status'], max: { kind: 'number', value: 1 } })),
    ).toEqual([{ code: 'kind-mismatch', severity: 'warning', path: fieldPath('Order.status', 'max') }]);
    expect(
      summaries(withConstraint({ entity: 'Order', field: ['customer'], min: { kind: 'number', value: 1 } })),
    ).toEqual([{ code: 'kind-mismatch', severity: 'warning', path: fieldPath('Order.customer', 'min') }]);
  });

  it('reports min greater than max', () => {
    const issues = checkModel(
      withConstraint({
        entity: 'Product',
        field: ['price'],
        min: { kind: 'number', value: 10 },
        max: { kind: 'number', value: 1 },
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-value', severity: 'error', path: fieldPath('Product.price', 'min') },
    ]);
    expect(issues[0]?.message).toContain('10');
  });

  it('checks constants used as min and max: known, numbers, dates for date fields', () => {
    expect(
      summaries(
        withConstraint({ entity: 'Product', field: ['price'], max: { kind: 'constant', name: 'MAX_LINE' } }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: fieldPath('Product.price', 'max'),
        hint: 'did you mean "MAX_LINES"?',
      },
    ]);
    expect(
      summaries(
        withConstraint({
          entity: 'Product',
          field: ['price'],
          max: { kind: 'constant', name: 'LAST_DELIVERY' },
        }),
      ),
    ).toEqual([{ code: 'kind-mismatch', severity: 'error', path: fieldPath('Product.price', 'max') }]);
    expect(
      summaries(
        withConstraint({
          entity: 'Order',
          field: ['placedAt'],
          min: { kind: 'constant', name: 'MAX_LINES' },
        }),
      ),
    ).toEqual([{ code: 'kind-mismatch', severity: 'error', path: fieldPath('Order.placedAt', 'min') }]);
  });

  it('reports duplicate constraints for one field', () => {
    expect(summaries(withConstraint({ entity: 'Order', field: ['number'], unique: true }))).toEqual([
      { code: 'duplicate-name', severity: 'error', path: fieldPath('Order.number') },
    ]);
  });

  it('resolves the entity and field of rules, and checks their expression over record, old and now', () => {
    const rule = {
      entity: 'Order',
      check: 'record.total > 0',
      message: 'Must be positive.',
      on: ['create' as const],
    };
    const add = (extra: Partial<typeof rule> & { field?: string; name?: string }) =>
      rich((model) => void model.validation.rules.push({ ...rule, ...extra }));
    const at = (prop: string) => ['validation', 'rules', 3, prop];
    expect(summaries(add({ entity: 'Ordr' }))).toEqual([
      { code: 'unknown-reference', severity: 'error', path: at('entity'), hint: 'did you mean "Order"?' },
    ]);
    expect(summaries(add({ field: 'totl' }))).toEqual([
      { code: 'unknown-reference', severity: 'error', path: at('field'), hint: 'did you mean "total"?' },
    ]);
    expect(summaries(add({ check: 'record.total > old.totl' }))).toEqual([
      { code: 'invalid-expression', severity: 'error', path: at('check'), hint: 'did you mean "total"?' },
    ]);
    // Rules see the person saving (`user`) and `today` too; anything else is unknown.
    expect(summaries(add({ check: 'user.id != "" && today > timestamp("2020-01-01T00:00:00Z")' }))).toEqual(
      [],
    );
    expect(summaries(add({ check: 'session.id != ""' }))).toEqual([
      { code: 'invalid-expression', severity: 'error', path: at('check') },
    ]);
    expect(summaries(add({ check: 'record.subtotal + record.shippingCost' }))).toEqual([
      { code: 'invalid-expression', severity: 'error', path: at('check') },
    ]);
  });

  it('explains that whole numbers are ints when a check compares them with money', () => {
    const issues = checkModel(
      rich((model) => {
        model.validation.rules.push({
          entity: 'Order',
          check: 'record.total == 0',
          message: 'x',
          on: ['create'],
        });
      }),
    );
    expect(issues.map(summary)).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: ['validation', 'rules', 3, 'check'],
        hint: 'number and money fields hold doubles: write 0.0 rather than 0, or convert with double(...)',
      },
    ]);
    expect(issues[0]?.message).toContain('No such overload: double == int');
  });

  it('reports duplicate rule names', () => {
    expect(
      summaries(
        rich(
          (model) =>
            void model.validation.rules.push({
              name: 'paid-total-is-final',
              entity: 'Order',
              check: 'true',
              message: 'x',
              on: ['update'],
            }),
        ),
      ),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: ['validation', 'rules', 3, 'name'] }]);
  });
});

// ------------------------------------------------------------------------------------------ 6. roles

describe('point 6: roles', () => {
  const grantPath = (role: string, entityName: string, ...rest: string[]) => [
    'roles',
    'roles',
    role,
    'can',
    entityName,
    ...rest,
  ];

  it('resolves the sign-in call, or says point 7 is not shown', () => {
    expect(
      summaries(
        rich((model) => {
          model.roles.signIn = { kind: 'password', call: 'login', session: 'memory' };
        }),
      ),
    ).toEqual([{ code: 'unknown-reference', severity: 'error', path: ['roles', 'signIn', 'call'] }]);
    const model = makeModel({
      roles: {
        shown: true,
        signIn: { kind: 'password', call: 'signIn', session: 'memory' },
        roles: [],
        grants: [],
      },
    });
    expect(summaries(model)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: ['roles', 'signIn', 'call'] },
    ]);
  });

  it('warns of a grant to create or change that no form of point 2 offers the role', () => {
    // Regression: the rich example once let the warehouse update products that only the owner's edit
    // screen could change, so the API allowed what the client never showed.
    const closed = rich((model) => {
      const edit = model.screens.items.find((screen) => screen.name === 'editOrder');
      if (edit) edit.roles = ['manager'];
    });
    const issues = checkModel(closed).filter((issue) => issue.code === 'unoffered-grant');
    expect(issues.map(summary)).toEqual([
      { code: 'unoffered-grant', severity: 'warning', path: grantPath('clerk', 'Order', 'actions') },
    ]);
    expect(issues[0]?.message).toContain('lets it update records, but every edit screen of "Order"');
    // A form without roles is for every role: nothing to warn of.
    expect(checkModel(richModel()).filter((issue) => issue.code === 'unoffered-grant')).toEqual([]);
  });

  it('reports duplicate roles and grants', () => {
    expect(summaries(rich((model) => void model.roles.roles.push({ name: 'clerk' })))).toEqual([
      { code: 'duplicate-name', severity: 'error', path: ['roles', 'roles', 'clerk'] },
    ]);
    expect(
      summaries(
        rich(
          (model) =>
            void model.roles.grants.push({
              role: 'clerk',
              entity: 'Order',
              actions: [],
              hidden: [],
              readOnly: [],
            }),
        ),
      ),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: grantPath('clerk', 'Order') }]);
  });

  it('resolves grant roles, entities and fields', () => {
    const grant = { role: 'clerk', entity: 'Product', actions: ['read' as const], hidden: [], readOnly: [] };
    expect(
      summaries(rich((model) => void model.roles.grants.push({ ...grant, entity: 'Products' }))),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: grantPath('clerk', 'Products'),
        hint: 'did you mean "Product"?',
      },
    ]);
    expect(summaries(rich((model) => void model.roles.grants.push({ ...grant, role: 'admin' })))).toEqual([
      { code: 'unknown-reference', severity: 'error', path: grantPath('admin', 'Product') },
    ]);
    expect(
      summaries(
        rich((model) => void model.roles.grants.push({ ...grant, hidden: ['prize'], readOnly: ['stok'] })),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: grantPath('clerk', 'Product', 'hidden'),
        hint: 'did you mean "price"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: grantPath('clerk', 'Product', 'readOnly'),
        hint: 'did you mean "stock"?',
      },
    ]);
    expect(
      summaries(rich((model) => void model.roles.grants.push({ ...grant, actions: ['reed' as never] }))),
    ).toEqual([
      {
        code: 'invalid-value',
        severity: 'error',
        path: grantPath('clerk', 'Product', 'actions'),
        hint: 'did you mean "read"?',
      },
    ]);
  });

  it('says point 3 is not shown when a grant names an entity without it', () => {
    const model = makeModel({
      roles: {
        shown: true,
        signIn: { kind: 'none' },
        roles: [{ name: 'clerk' }],
        grants: [{ role: 'clerk', entity: 'Order', actions: ['read'], hidden: ['total'], readOnly: [] }],
      },
    });
    expect(summaries(model)).toEqual([
      { code: 'not-shown-reference', severity: 'error', path: grantPath('clerk', 'Order') },
    ]);
  });

  it('checks where conditions over record and user', () => {
    const set = (where: string) =>
      rich((model) => {
        const grant = model.roles.grants[0];
        if (grant) grant.where = where;
      });
    expect(summaries(set('record.owner == user.id'))).toEqual([
      {
        code: 'invalid-expression',
        severity: 'error',
        path: grantPath('clerk', 'Order', 'where'),
        hint: 'did you mean "ownerId"?',
      },
    ]);
    expect(summaries(set('record.placedAt < now'))).toEqual([
      { code: 'invalid-expression', severity: 'error', path: grantPath('clerk', 'Order', 'where') },
    ]);
    expect(summaries(set('record.ownerId'))).toEqual([
      { code: 'invalid-expression', severity: 'error', path: grantPath('clerk', 'Order', 'where') },
    ]);
  });
});

// ------------------------------------------------------------------------------------------ 7. calls

describe('point 7: calls', () => {
  const at = (name: string, prop: string) => ['calls', 'operations', name, prop];

  it('reports duplicate calls', () => {
    expect(
      summaries(rich((model) => void model.calls.items.push({ ...call(model, 'signIn'), path: '/login' }))),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: ['calls', 'operations', 'signIn'] }]);
  });

  it.each([
    ['orders', 'does not start with "/"'],
    ['/orders/{id', 'without its "}"'],
    ['/orders/id}', 'without its "{"'],
    ['/orders/{}', 'not a plain name'],
    ['/orders/{a b}', 'has spaces'],
    ['/orders/{id}/lines/{id}', 'twice'],
    ['/orders?page=1', 'query'],
    ['/orders//lines', 'empty segment'],
    ['/orders/:id', 'written {name}'],
  ])('reports the invalid path %s', (path, words) => {
    const issues = checkModel(
      rich((model) => {
        call(model, 'getOrder').path = path;
      }),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-path', severity: 'error', path: at('getOrder', 'path') },
    ]);
    expect(issues[0]?.message).toContain(words);
  });

  it('reports two calls with the same method and path on the second', () => {
    const issues = checkModel(
      rich(
        (model) =>
          void model.calls.items.push({
            ...call(model, 'getOrder'),
            name: 'fetchOrder',
            path: '/orders/{orderId}',
          }),
      ),
    );
    expect(issues.map(summary)).toEqual([
      { code: 'conflicting-route', severity: 'error', path: at('fetchOrder', 'path') },
    ]);
    expect(issues[0]?.message).toContain('call "getOrder"');
    expect(
      checkModel(
        rich(
          (model) =>
            void model.calls.items.push({
              ...call(model, 'getOrder'),
              name: 'deleteOrder',
              method: 'DELETE',
            }),
        ),
      ),
    ).toEqual([]);
  });

  it('resolves the entity, body, response, sort and filter fields', () => {
    const model = rich((m) => {
      call(m, 'getOrder').entity = 'Ordr';
      const create = call(m, 'createOrder');
      create.body = { entity: 'Order', fields: ['custmer'], encoding: 'json' };
      create.response = { shape: 'one', entity: 'Orders' };
      const list = call(m, 'listOrders');
      list.sort = { param: 'sort', fields: ['placed'], style: 'field,-field' };
      list.filters = [{ field: 'stat', param: 'status', op: 'eq' }];
    });
    expect(summaries(model)).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('listOrders', 'sort'),
        hint: 'did you mean "placedAt"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('listOrders', 'filters'),
        hint: 'did you mean "status"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('getOrder', 'entity'),
        hint: 'did you mean "Order"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('createOrder', 'body'),
        hint: 'did you mean "customer"?',
      },
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('createOrder', 'response'),
        hint: 'did you mean "Order"?',
      },
    ]);
    expect(
      summaries(
        rich((m) => {
          call(m, 'createOrder').body = { entity: 'Ordr', encoding: 'json' };
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('createOrder', 'body'),
        hint: 'did you mean "Order"?',
      },
    ]);
  });

  it('checks the maximum page size constant', () => {
    expect(
      summaries(
        rich((m) => {
          call(m, 'listOrders').pagination = {
            style: 'offset',
            offsetParam: 'offset',
            limitParam: 'limit',
            maxSize: { kind: 'constant', name: 'MAX_PAGESIZE' },
          };
        }),
      ),
    ).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: at('listOrders', 'pagination'),
        hint: 'did you mean "MAX_PAGE_SIZE"?',
      },
    ]);
  });
});

// ------------------------------------------------------------------------------------------ 8. errors

describe('point 8: errors', () => {
  it('resolves the field of an entry, written Entity.field', () => {
    const set = (value: string) =>
      rich((model) => {
        const entry = model.errors.entries[0];
        if (entry) entry.field = value;
      });
    expect(summaries(set('lines'))).toEqual([
      { code: 'invalid-value', severity: 'error', path: ['errors', 0, 'field'] },
    ]);
    expect(summaries(set('Ordr.lines'))).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['errors', 0, 'field'],
        hint: 'did you mean "Order"?',
      },
    ]);
    expect(summaries(set('Order.line'))).toEqual([
      {
        code: 'unknown-reference',
        severity: 'error',
        path: ['errors', 0, 'field'],
        hint: 'did you mean "lines"?',
      },
    ]);
    expect(summaries(set('Order.shippingAddress.zip'))).toEqual([
      { code: 'unknown-reference', severity: 'error', path: ['errors', 0, 'field'] },
    ]);
  });

  it('warns about a catch-all entry that is not last', () => {
    const model = rich((m) => {
      const last = m.errors.entries.pop();
      if (last) m.errors.entries.splice(1, 0, last);
    });
    const issues = checkModel(model);
    expect(issues.map(summary)).toEqual([
      { code: 'invalid-value', severity: 'warning', path: ['errors', 1] },
    ]);
    expect(issues[0]?.message).toContain('put it last');
  });
});

// ------------------------------------------------------------------------------------------ 9. constants

describe('point 9: constants', () => {
  it('warns about constants that expressions cannot see', () => {
    expect(
      summaries(
        rich((model) => {
          model.constants.items.push({ name: 'now', value: 1 }, { name: 'in', value: 2 });
        }),
      ),
    ).toEqual([
      { code: 'invalid-value', severity: 'warning', path: ['constants', 'now'] },
      { code: 'invalid-value', severity: 'warning', path: ['constants', 'in'] },
    ]);
  });

  it('reports duplicate constants', () => {
    expect(
      summaries(rich((model) => void model.constants.items.push({ name: 'MAX_LINES', value: 10 }))),
    ).toEqual([{ code: 'duplicate-name', severity: 'error', path: ['constants', 'MAX_LINES'] }]);
  });
});

// ------------------------------------------------------------------------------------------ order and robustness

describe('checkModel as a whole', () => {
  it('returns issues in point order', () => {
    const model = rich((m) => {
      m.constants.items.push({ name: 'PAGE_SIZE', value: 1 });
      const entry = m.errors.entries[0];
      if (entry) entry.field = 'Nope.x';
      call(m, 'getOrder').path = 'orders';
      m.roles.roles.push({ name: 'manager' });
      m.validation.fields.push({ entity: 'Nope', field: ['x'] });
      transition(m, 'pay').to = 'nowhere';
      entity(m, 'Product').key = 'nope';
      screen(m, 'orders').route = 'orders';
      m.product.home = 'nope';
    });
    const points = checkModel(model).map((issue) => issue.path[0]);
    expect(points.filter((point, index) => point !== points[index - 1])).toEqual([
      'product',
      'screens',
      'entities',
      'states',
      'validation',
      'roles',
      'calls',
      'errors',
      'constants',
    ]);
  });

  it('gives offsets only for errors inside expressions', () => {
    const checked = checkModelWithOffsets(
      rich((m) => {
        m.product.home = 'nope';
        transition(m, 'cancel').guard = 'user.role == "manager" || record.owner == user.id';
      }),
    );
    expect(checked.map(({ issue, offset }) => [issue.code, offset])).toEqual([
      ['unknown-reference', undefined],
      ['invalid-expression', 33],
    ]);
    expect(checkModel(rich(() => undefined))).toEqual(checkModelWithOffsets(richModel()).map((c) => c.issue));
  });

  it('never throws on 300 random corruptions of a rich model', () => {
    const random = seededRandom(20250101);
    for (let round = 0; round < 300; round++) {
      const model = richModel();
      const corruptions = 1 + Math.floor(random() * 4);
      for (let step = 0; step < corruptions; step++) corrupt(model, random);
      let issues: Issue[] = [];
      expect(() => {
        issues = checkModel(model);
      }, `round ${round}`).not.toThrow();
      for (const issue of issues) {
        expect(ISSUE_CODES).toContain(issue.code);
        expect(typeof issue.message).toBe('string');
        expect(Array.isArray(issue.path)).toBe(true);
      }
    }
  });

  it('never throws on models that are not models at all', () => {
    for (const value of [null, undefined, 42, 'model', [], {}, { screens: { shown: true, items: 'x' } }]) {
      expect(() => checkModel(value as unknown as Model)).not.toThrow();
    }
  });
});

/** Every container (object or array) in the model, with the key it holds each value under. */
function slots(root: unknown): Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> {
  const found: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        found.push({ parent: value, key: index });
        visit(item);
      });
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        found.push({ parent: value as Record<string, unknown>, key });
        visit(item);
      }
    }
  };
  visit(root);
  return found;
}

function corrupt(model: Model, random: () => number): void {
  const all = slots(model);
  const slot = all[Math.floor(random() * all.length)];
  if (!slot) return;
  const { parent, key } = slot;
  const record = parent as Record<string | number, unknown>;
  const value = record[key];
  const choice = Math.floor(random() * 7);
  switch (choice) {
    case 0:
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete record[key];
      return;
    case 1:
      record[key] = typeof value === 'string' ? 42 : 'text';
      return;
    case 2:
      if (Array.isArray(value)) value.length = Math.floor(value.length / 2);
      else record[key] = [];
      return;
    case 3:
      record[key] = undefined;
      return;
    case 4:
      record[key] = null;
      return;
    case 5:
      record[key] = { kind: 'list', of: { kind: 'object', entity: 'Order' }, shown: true };
      return;
    default:
      record[key] = typeof value === 'object' ? 'not shown' : { nested: value };
  }
}

describe("a field's default", () => {
  const withDefaults = (fields: Entities['items'][number]['fields']) =>
    checkModel(
      makeModel({
        entities: {
          shown: true,
          items: [{ name: 'Thing', key: 'id', fields: [{ name: 'id', kind: 'integer' }, ...fields] }],
        },
      }),
    );

  it('must be a value of its kind: a boolean is yes or no, an enum one of its values', () => {
    const issues = withDefaults([
      { name: 'paid', kind: 'boolean', default: 0 },
      { name: 'count', kind: 'integer', default: 1.5 },
      { name: 'state', kind: 'enum', values: [{ value: 'a' }, { value: 'b' }], default: 'c' },
      { name: 'note', kind: 'text', default: 3 },
    ]);
    expect(
      issues.filter((i) => i.path.at(-1) === 'default').map((i) => [i.path[3], i.code, i.severity]),
    ).toEqual([
      ['paid', 'invalid-value', 'error'],
      ['count', 'invalid-value', 'error'],
      ['state', 'invalid-value', 'error'],
      ['note', 'invalid-value', 'error'],
    ]);
  });

  it('is taken when it is one', () => {
    const issues = withDefaults([
      { name: 'paid', kind: 'boolean', default: false },
      { name: 'count', kind: 'integer', default: 0 },
      { name: 'state', kind: 'enum', values: [{ value: 'a' }], default: 'a' },
      { name: 'tags', kind: 'list', of: { kind: 'text' }, default: [] },
    ]);
    expect(issues.filter((i) => i.path.at(-1) === 'default')).toEqual([]);
  });
});
