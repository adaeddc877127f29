import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { toString as mdastToString } from 'mdast-util-to-string';
import { gfmTable } from 'micromark-extension-gfm-table';
import { describe, expect, it, vi } from 'vitest';
import { documentSchema } from '../src/document/schema';
import type { Issue, IssueCode } from '../src/issues';
import { readMarkdown } from '../src/markdown/read';

const FILE = 'shop.md';

/** Lines joined with newlines, so that expected line numbers can be counted in the test. */
const lines = (...text: string[]) => text.join('\n');

function read(text: string) {
  return readMarkdown(text, FILE);
}

/** The data of a document whose sections are given, after a title. */
function dataOf(...text: string[]) {
  const source = read(lines('# Corner Shop', '', ...text));
  expect(source.issues).toEqual([]);
  return source.data as Record<string, unknown>;
}

function issuesOf(text: string, code: IssueCode): Issue[] {
  return read(text).issues.filter((issue) => issue.code === code);
}

function at(line: number, column: number) {
  return { file: FILE, line, column };
}

const ALL_NOT_SHOWN = lines(
  '# Empty shell',
  '',
  '## 1. What the product does and for whom',
  '',
  'Not shown',
  '',
  '## 2. Screens and routes',
  '',
  'not shown.',
  '',
  '## 3. Entities and their fields',
  '',
  'NOT SHOWN',
  '',
  '## 4) Workflow',
  '',
  'Not shown: no workflows yet.',
  '',
  '## 5 - Validation',
  '',
  'Not shown — the API checks everything.',
  '',
  '## 6. Roles',
  '',
  '*Not shown*',
  '',
  '## 7. Calls',
  '',
  'Not shown',
  '',
  '## 8. Errors',
  '',
  'Not shown',
  '',
  '## 9',
  '',
  'Not shown',
);

describe('readMarkdown: the document', () => {
  it('reads a specification whose nine points are all not shown', () => {
    const source = read(ALL_NOT_SHOWN);
    expect(source.format).toBe('markdown');
    expect(source.file).toBe(FILE);
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({
      title: 'Empty shell',
      product: 'Not shown',
      screens: 'not shown.',
      entities: 'NOT SHOWN',
      states: 'Not shown: no workflows yet.',
      validation: 'Not shown — the API checks everything.',
      roles: 'Not shown',
      calls: 'Not shown',
      errors: 'Not shown',
      constants: 'Not shown',
    });
    expect(documentSchema.safeParse(source.data).success).toBe(true);
    expect(source.locate(['states'])).toEqual(at(17, 1));
    expect(source.locate(['states'], { key: true })).toEqual(at(15, 1));
  });

  it('ignores a preface before the first section, and leaves a missing or empty section out', () => {
    const source = read(
      lines('# Shop', '', 'Written for the team.', '', '## 1. Product', '', '## 2. Screens'),
    );
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({ title: 'Shop' });
    // The normalizer reports the missing point; it finds the empty section's heading.
    expect(source.locate(['product'])).toEqual(at(5, 1));
  });

  it('treats a section of points 2 to 9 with prose only (a misspelt "not shown") as missing, keeping the prose', () => {
    const text = lines('# Shop', '', '## 4. States', '', 'Not shwon.', '', '## 6. Roles', '', 'Later.');
    const source = read(text);
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({ title: 'Shop', notes: { states: 'Not shwon.', roles: 'Later.' } });
    expect(source.locate(['states'])).toEqual(at(3, 1));
  });

  it('reports content after "not shown" as unused', () => {
    const text = lines(
      '# Shop',
      '',
      '## 4. States',
      '',
      'Not shown.',
      '',
      '### Order.status',
      '',
      '- Initial: draft',
    );
    const source = read(text);
    expect(source.data).toEqual({ title: 'Shop', states: 'Not shown.' });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'unused-content',
        severity: 'warning',
        path: ['states'],
        source: at(7, 1),
      }),
    ]);
  });

  it('reports a missing title at the start of the file', () => {
    const [issue] = issuesOf(lines('## 1. Product', '', 'Not shown'), 'missing-title');
    expect(issue).toMatchObject({ severity: 'error', path: ['title'], source: at(1, 1) });
  });

  it('reports an extra title as a warning and keeps the first', () => {
    const source = read(lines('# Shop', '', '# Other', '', '## 1. Product', '', 'Not shown'));
    expect(source.data).toMatchObject({ title: 'Shop' });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'extra-title', severity: 'warning', source: at(3, 1) }),
    ]);
  });

  it('reports a section without a number, with a hint naming the numbers', () => {
    const [issue] = issuesOf(lines('# Shop', '', '## Screens', '', 'Not shown'), 'unknown-section');
    expect(issue).toMatchObject({ severity: 'error', source: at(3, 1) });
    expect(issue?.hint).toContain('"## 2. Screens"');
    expect(issue?.hint).toContain('9 constants');
    expect(issuesOf(lines('# Shop', '', '## 10. More'), 'unknown-section')).toHaveLength(1);
    expect(issuesOf(lines('# Shop', '', '## 4.5 States'), 'unknown-section')).toHaveLength(1);
  });

  it('reports a section that appears twice and keeps the first', () => {
    const source = read(
      lines('# Shop', '', '## 2. Screens', '', 'Not shown', '', '## 2. Routes', '', 'Not shown.'),
    );
    expect(source.data).toEqual({ title: 'Shop', screens: 'Not shown' });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'duplicate-section',
        severity: 'error',
        path: ['screens'],
        source: at(7, 1),
      }),
    ]);
  });

  it('reads sections out of order, with a warning', () => {
    const source = read(
      lines('# Shop', '', '## 3. Entities', '', 'Not shown', '', '## 1. Product', '', 'Not shown'),
    );
    expect(source.data).toEqual({ title: 'Shop', product: 'Not shown', entities: 'Not shown' });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'section-order',
        severity: 'warning',
        path: ['product'],
        source: at(7, 1),
      }),
    ]);
  });

  it('reports an empty file', () => {
    const source = read('  \n\n');
    expect(source.data).toBeUndefined();
    expect(source.issues).toEqual([expect.objectContaining({ code: 'empty-file', source: at(1, 1) })]);
  });

  it('ignores HTML comments, also before "not shown"', () => {
    expect(dataOf('## 1. Product', '', '<!-- to do -->', '', 'Not shown')).toEqual({
      title: 'Corner Shop',
      product: 'Not shown',
    });
  });
});

describe('readMarkdown: 1. product', () => {
  it('reads the summary, the properties and the description in its original formatting', () => {
    const data = dataOf(
      '## 1. What the product does',
      '',
      'Corner Shop takes orders',
      'and ships them.',
      '',
      '- For: shop staff, customers',
      '- Home: dashboard',
      '- Language: en',
      '',
      'Orders are **paid** by card.',
      '',
      '- one',
      '- two',
      '',
      '> Quoted.',
    );
    expect(data.product).toEqual({
      summary: 'Corner Shop takes orders and ships them.',
      audience: ['shop staff', 'customers'],
      home: 'dashboard',
      language: 'en',
      description: 'Orders are **paid** by card.\n\n- one\n- two\n\n> Quoted.',
    });
  });

  it('reads the audience from a nested list, with the alias "Who"', () => {
    const data = dataOf('## 1. Product', '', '- Who:', '  - shop staff', '  - customers, walk-in');
    expect(data.product).toEqual({ audience: ['shop staff', 'customers, walk-in'] });
  });

  it('reports an unknown property with did-you-mean, and an item with no colon', () => {
    const source = read(
      lines('# Shop', '', '## 1. Product', '', '- Home: dashboard', '- Langauge: en', '- English'),
    );
    expect(source.data).toEqual({ title: 'Shop', product: { home: 'dashboard' } });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'unknown-key',
        severity: 'error',
        source: at(6, 3),
        hint: 'did you mean "Language"?',
      }),
      expect.objectContaining({ code: 'unreadable-cell', severity: 'error', source: at(7, 1) }),
    ]);
  });

  it('reports a property given twice', () => {
    const [issue] = issuesOf(
      lines('# Shop', '', '## 1. Product', '', '- Home: a', '- Home: b'),
      'duplicate-key',
    );
    expect(issue).toMatchObject({ path: ['product', 'home'], source: at(6, 3) });
  });
});

describe('readMarkdown: 2. screens', () => {
  it('reads the screens table, matching headers loosely', () => {
    const data = dataOf(
      '## 2. Screens and routes',
      '',
      '| Screen | Kind | Route | Entity | Title | Columns | Filters | Sort | page-size | Fields | Tiles | roles | Hidden | Component | Description |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| home | Dashboard | / | | Today | | | | | | orders | | | | |',
      '| orders | list | /orders | Order | | number, customer, total | status | -placedAt, total | 25 | | | clerk, admin | | | All orders |',
      '| order | detail | /orders/:id | Order | | | | | | number, total | | | yes | | |',
      '| signIn | Sign in | /sign-in | | | | | | | | | | ✓ | | |',
      '| map | custom | /map | | | | | | PAGE_SIZE | | | | no | ShopMap | |',
    );
    expect(data.screens).toEqual({
      home: { kind: 'dashboard', route: '/', title: 'Today', tiles: ['orders'] },
      orders: {
        kind: 'list',
        route: '/orders',
        entity: 'Order',
        columns: ['number', 'customer', 'total'],
        filters: ['status'],
        sort: ['-placedAt', 'total'],
        pageSize: 25,
        roles: ['clerk', 'admin'],
        description: 'All orders',
      },
      order: {
        kind: 'detail',
        route: '/orders/:id',
        entity: 'Order',
        fields: ['number', 'total'],
        hidden: true,
      },
      signIn: { kind: 'sign-in', route: '/sign-in', hidden: true },
      map: { kind: 'custom', route: '/map', pageSize: 'PAGE_SIZE', hidden: false, component: 'ShopMap' },
    });
  });

  it('accepts "Page size", "page-size", "pageSize" and "page_size" alike', () => {
    for (const header of ['Page size', 'page-size', 'pageSize', 'PAGE_SIZE']) {
      const data = dataOf(
        '## 2. Screens',
        '',
        `| Screen | Kind | Route | ${header} |`,
        '| - | - | - | - |',
        '| orders | list | /orders | 10_000 |',
      );
      expect(data.screens).toEqual({ orders: { kind: 'list', route: '/orders', pageSize: 10000 } });
    }
  });

  it('reports unknown and missing columns, rows without a name, and names used twice', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      '| Screen | Kind | Rout | Pagesze |',
      '| --- | --- | --- | --- |',
      '| orders | list | /orders | 25 |',
      '| | list | /x | |',
      '| orders | detail | /y | |',
    );
    const source = read(text);
    expect(source.data).toEqual({ title: 'Shop', screens: { orders: { kind: 'list' } } });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'unknown-column',
        severity: 'error',
        path: ['screens'],
        source: at(5, 17),
        hint: 'did you mean "Route"?',
      }),
      expect.objectContaining({
        code: 'unknown-column',
        source: at(5, 24),
        hint: 'did you mean "Page size"?',
      }),
      expect.objectContaining({ code: 'missing-column', severity: 'error', source: at(5, 1) }),
      expect.objectContaining({ code: 'missing-key', severity: 'error', source: at(8, 1) }),
      expect.objectContaining({
        code: 'duplicate-name',
        severity: 'error',
        path: ['screens', 'orders'],
        source: at(9, 3),
      }),
    ]);
  });

  it('reports a yes/no cell it cannot read', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      '| Screen | Kind | Route | Hidden |',
      '| - | - | - | - |',
      '| orders | list | /orders | perhaps |',
    );
    const source = read(text);
    expect(source.data).toMatchObject({ screens: { orders: { kind: 'list', route: '/orders' } } });
    expect(source.issues).toEqual([
      expect.objectContaining({
        code: 'unreadable-cell',
        path: ['screens', 'orders', 'hidden'],
        source: at(7, 29),
      }),
    ]);
  });

  it('keeps prose as notes, and reports a ### heading and a table it does not use', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      'The staff use the *back office*.',
      '',
      '### Admin',
      '',
      '| Scren | Route |',
      '| - | - |',
      '| a | /a |',
      '',
      '| Screen | Kind | Route |',
      '| - | - | - |',
      '| orders | list | /orders |',
    );
    const source = read(text);
    expect(source.data).toEqual({
      title: 'Shop',
      screens: { orders: { kind: 'list', route: '/orders' } },
      notes: { screens: 'The staff use the *back office*.' },
    });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'unused-content', severity: 'warning', source: at(7, 1) }),
      expect.objectContaining({ code: 'unused-content', severity: 'warning', source: at(9, 1) }),
    ]);
    expect(source.issues[1]?.hint).toBe('did you mean "Screen"?');
    expect(source.locate(['notes', 'screens'])).toEqual(at(5, 1));
  });

  it('refuses a row with more or fewer cells than the header, whose values would be lost or misplaced', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      '| Screen | Kind | Route |',
      '| - | - | - |',
      '| a | list | /a | extra |',
      '| b | list |',
      '| c | list | /c |',
    );
    expect(issuesOf(text, 'cell-count')).toEqual([
      expect.objectContaining({
        severity: 'error',
        source: at(7, 1),
        message: expect.stringContaining('4 cells'),
      }),
      expect.objectContaining({
        severity: 'error',
        source: at(8, 1),
        message: expect.stringContaining('2 cells'),
      }),
    ]);
    expect(issuesOf(text, 'unused-content')).toEqual([]);
  });

  it('refuses table rows cut off by a blank line, and pipe rows with no header, instead of reading them as prose', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      '| Screen | Kind | Route |',
      '| - | - | - |',
      '| a | list | /a |',
      '',
      '| b | list | /b |',
      '| c | list | /c |',
      '',
      'Some prose | with a pipe.',
      '',
      '## 3. Entities',
      '',
      '| Field | Kind |',
      '| total | money |',
    );
    expect(issuesOf(text, 'broken-table')).toEqual([
      expect.objectContaining({
        severity: 'error',
        source: at(9, 1),
        message: expect.stringContaining('line 8'),
      }),
      expect.objectContaining({
        severity: 'error',
        source: at(16, 1),
        message: expect.stringContaining('no header'),
      }),
    ]);
  });
});

describe('readMarkdown: 3. entities', () => {
  it('reads entities: description, properties and the fields table', () => {
    const data = dataOf(
      '## 3. Entities and fields',
      '',
      'Every record has an id.',
      '',
      '### Order',
      '',
      'An order placed by a **customer**.',
      '',
      '- Label: Order',
      '- Plural: Orders',
      '- Key: id',
      '- Shown as: number',
      '',
      '| Field | Kind | Label | Help | Format | Widget | Read only | Write-only | Derived | Default |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| id | integer | | | | | yes | | | |',
      '| number | text | Number | As printed | | | x | | | |',
      '| total | money EUR | | | | | | | `sum(lines.map(l, l.amount))` | 0 |',
      '| email | text | | | email | | | | | |',
      '| paid | boolean | | | | switch | | | | no |',
      '| secret | text | | | | | | y | | |',
      '',
      'More about orders.',
      '',
      '### Address',
      '',
      '- Embedded: yes',
      '',
      '### Tag',
    );
    expect(data.entities).toEqual({
      Order: {
        label: 'Order',
        plural: 'Orders',
        key: 'id',
        display: 'number',
        description: 'An order placed by a **customer**.\n\nMore about orders.',
        fields: {
          id: { kind: 'integer', readOnly: true },
          number: { kind: 'text', label: 'Number', help: 'As printed', readOnly: true },
          total: { kind: 'money', currency: 'EUR', derived: 'sum(lines.map(l, l.amount))', default: 0 },
          email: { kind: 'text', format: 'email' },
          paid: { kind: 'boolean', widget: 'switch', default: false },
          secret: { kind: 'text', writeOnly: true },
        },
      },
      Address: { embedded: true, fields: {} },
      Tag: { fields: {} },
    });
    expect(data.notes).toEqual({ entities: 'Every record has an id.' });
  });

  it('reads every form of the kind grammar', () => {
    const kinds: Array<[string, unknown]> = [
      ['text', { kind: 'text' }],
      ['Number', { kind: 'number' }],
      ['integer', { kind: 'integer' }],
      ['boolean', { kind: 'boolean' }],
      ['date', { kind: 'date' }],
      ['datetime', { kind: 'datetime' }],
      ['date-time', { kind: 'datetime' }],
      ['Date and time', { kind: 'datetime' }],
      ['markdown', { kind: 'markdown' }],
      ['money', { kind: 'money' }],
      ['money EUR', { kind: 'money', currency: 'EUR' }],
      ['money (usd)', { kind: 'money', currency: 'USD' }],
      ['file', { kind: 'file' }],
      ['file: image/png, application/pdf', { kind: 'file', accept: ['image/png', 'application/pdf'] }],
      ['enum: draft, placed, paid', { kind: 'enum', values: ['draft', 'placed', 'paid'] }],
      [
        'enum: draft (Draft), placed (Placed order), paid',
        {
          kind: 'enum',
          values: [{ value: 'draft', label: 'Draft' }, { value: 'placed', label: 'Placed order' }, 'paid'],
        },
      ],
      ['reference to Customer', { kind: 'reference', entity: 'Customer' }],
      ['ref Customer', { kind: 'reference', entity: 'Customer' }],
      ['-> Customer', { kind: 'reference', entity: 'Customer' }],
      ['→ Customer', { kind: 'reference', entity: 'Customer' }],
      ['object Address', { kind: 'object', entity: 'Address' }],
      ['list of text', { kind: 'list', of: { kind: 'text' } }],
      ['list of reference to Tag', { kind: 'list', of: { kind: 'reference', entity: 'Tag' } }],
      ['List of object OrderLine', { kind: 'list', of: { kind: 'object', entity: 'OrderLine' } }],
      [
        'list of list of enum: a, b',
        { kind: 'list', of: { kind: 'list', of: { kind: 'enum', values: ['a', 'b'] } } },
      ],
    ];
    const rows = kinds.map(([kind], i) => `| f${i} | ${kind} |`);
    const data = dataOf('## 3. Entities', '', '### Thing', '', '| Field | Kind |', '| - | - |', ...rows);
    const fields = (data.entities as { Thing: { fields: Record<string, unknown> } }).Thing.fields;
    kinds.forEach(([, expected], i) => {
      expect(fields[`f${i}`]).toEqual(expected);
    });
  });

  it('coerces the default by the kind', () => {
    const data = dataOf(
      '## 3. Entities',
      '',
      '### Product',
      '',
      '| Field | Kind | Default |',
      '| - | - | - |',
      '| stock | integer | 10,000 |',
      '| price | money | 9.5 |',
      '| code | text | 42 |',
      '| active | boolean | Yes |',
      '| weight | number | heavy |',
    );
    expect((data.entities as { Product: unknown }).Product).toEqual({
      fields: {
        stock: { kind: 'integer', default: 10000 },
        price: { kind: 'money', default: 9.5 },
        code: { kind: 'text', default: '42' },
        active: { kind: 'boolean', default: true },
        weight: { kind: 'number', default: 'heavy' },
      },
    });
  });

  it('reports an unreadable kind with did-you-mean, and content before the first entity', () => {
    const text = lines(
      '# Shop',
      '',
      '## 3. Entities',
      '',
      '| Field | Kind |',
      '| - | - |',
      '| a | text |',
      '',
      '### Order',
      '',
      '| Field | Kind |',
      '| --- | --- |',
      '| total | monye |',
      '| lines | enum |',
      '| name | string |',
      '| x | colour |',
    );
    const source = read(text);
    expect(source.data).toMatchObject({
      entities: { Order: { fields: { total: {}, lines: {}, name: {}, x: {} } } },
    });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'unused-content', path: ['entities'], source: at(5, 1) }),
      expect.objectContaining({
        code: 'unreadable-cell',
        path: ['entities', 'Order', 'fields', 'total', 'kind'],
        source: at(13, 11),
        hint: 'did you mean "money"?',
      }),
      expect.objectContaining({
        code: 'unreadable-cell',
        source: at(14, 11),
        hint: 'write it as "enum: draft, placed, paid".',
      }),
      expect.objectContaining({ code: 'unreadable-cell', source: at(15, 10), hint: 'did you mean "text"?' }),
      expect.objectContaining({ code: 'unreadable-cell', source: at(16, 7) }),
    ]);
    expect(source.issues[4]?.hint).toContain('reference to Entity');
  });

  it('reports an entity heading without a name, and an entity defined twice', () => {
    const source = read(lines('# Shop', '', '## 3. Entities', '', '###', '', '### Order', '', '### Order'));
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'missing-key', path: ['entities'], source: at(5, 1) }),
      expect.objectContaining({ code: 'duplicate-name', path: ['entities', 'Order'], source: at(9, 5) }),
    ]);
  });
});

describe('readMarkdown: 4. states', () => {
  it('reads a state machine: initial state, states table and transitions', () => {
    const data = dataOf(
      '## 4. States and transitions',
      '',
      '### Order.status',
      '',
      '- Initial: draft',
      '',
      '| State | Label | Tone | Final |',
      '| --- | --- | --- | --- |',
      '| draft | Draft | Neutral | |',
      '| paid | Paid | success | yes |',
      '',
      '| Transition | Label | From | To | Roles | Guard | Guard message | Call | Confirm | Sets |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| pay | Pay | draft | paid | clerk, admin | `record.total > 0` | Nothing to pay | payOrder | Pay now? | `paidAt = now; paidBy = user.id` |',
      '| reopen | | paid, cancelled | draft | | | | | | `note = old.total >= 10 ? "big" : "small"` |',
      '',
      '### Customer.level',
      '',
      '- Initial: new',
    );
    expect(data.states).toEqual({
      'Order.status': {
        initial: 'draft',
        states: {
          draft: { label: 'Draft', tone: 'neutral' },
          paid: { label: 'Paid', tone: 'success', final: true },
        },
        transitions: {
          pay: {
            label: 'Pay',
            from: ['draft'],
            to: 'paid',
            roles: ['clerk', 'admin'],
            guard: 'record.total > 0',
            guardMessage: 'Nothing to pay',
            call: 'payOrder',
            confirm: 'Pay now?',
            set: { paidAt: 'now', paidBy: 'user.id' },
          },
          reopen: {
            from: ['paid', 'cancelled'],
            to: 'draft',
            set: { note: 'old.total >= 10 ? "big" : "small"' },
          },
        },
      },
      'Customer.level': { initial: 'new', transitions: {} },
    });
  });

  it('splits effects at the first "=" that is not part of ==, !=, <= or >=, and reports the rest', () => {
    const text = lines(
      '# Shop',
      '',
      '## 4. States',
      '',
      '### Order.status',
      '',
      '| Transition | From | To | Effects |',
      '| - | - | - | - |',
      '| pay | a | b | x = y == z; oops; a != b |',
    );
    const source = read(text);
    expect(source.data).toMatchObject({
      states: { 'Order.status': { transitions: { pay: { set: { x: 'y == z' } } } } },
    });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'unreadable-cell', source: at(9, 29) }),
      expect.objectContaining({ code: 'unreadable-cell', source: at(9, 35) }),
    ]);
    const x = ['states', 'Order.status', 'transitions', 'pay', 'set', 'x'];
    expect(source.locate(x)).toEqual(at(9, 21));
    expect(source.locate(x, { key: true })).toEqual(at(9, 17));
    expect(source.locateInString(x, 2)).toEqual(at(9, 23));
  });
});

describe('readMarkdown: 5. validation', () => {
  it('reads field constraints and rules, told apart by the first column', () => {
    const data = dataOf(
      '## 5. Validation rules',
      '',
      '| Field | Required | Min | Max | Pattern | Unique | Message |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      '| Order.total | yes | 0 | MAX_TOTAL | | | |',
      '| Customer.email | true | | 200 | `^[^@]+@[^@]+$` | yes | Use a real address |',
      '| Customer.address.postcode | | | | `^(\\d{5}\\|\\d{4})$` | | |',
      '| Order.placedAt | | 2025-01-01 | | | | |',
      '',
      '| Rule | Entity | Check | Message | Field | On |',
      '| --- | --- | --- | --- | --- | --- |',
      '| paidHasDate | Order | `record.status != "paid" \\|\\| has(record.paidAt)` | A paid order needs a date | paidAt | create, Update |',
      '| | Order | `record.total >= 0` | The total cannot be negative | | |',
      '| | Order | `record.total < 1e6` | Too much | | |',
    );
    expect(data.validation).toEqual({
      fields: {
        'Order.total': { required: true, min: 0, max: 'MAX_TOTAL' },
        'Customer.email': {
          required: true,
          max: 200,
          pattern: '^[^@]+@[^@]+$',
          unique: true,
          message: 'Use a real address',
        },
        'Customer.address.postcode': { pattern: '^(\\d{5}|\\d{4})$' },
        'Order.placedAt': { min: '2025-01-01' },
      },
      rules: [
        {
          name: 'paidHasDate',
          entity: 'Order',
          check: 'record.status != "paid" || has(record.paidAt)',
          message: 'A paid order needs a date',
          field: 'paidAt',
          on: ['create', 'update'],
        },
        { entity: 'Order', check: 'record.total >= 0', message: 'The total cannot be negative' },
        { entity: 'Order', check: 'record.total < 1e6', message: 'Too much' },
      ],
    });
  });

  it('reports a rules table without its required columns', () => {
    const text = lines(
      '# Shop',
      '',
      '## 5. Validation',
      '',
      '| Rule | Entity | Check |',
      '| - | - | - |',
      '| r | Order | `true` |',
    );
    const [issue] = issuesOf(text, 'missing-column');
    expect(issue).toMatchObject({ path: ['validation', 'rules'], source: at(5, 1) });
    expect(issue?.message).toContain('"Message"');
  });
});

describe('readMarkdown: 6. roles', () => {
  it('reads sign-in, roles and permissions', () => {
    const data = dataOf(
      '## 6. Roles and permissions',
      '',
      'Staff sign in with the shop account.',
      '',
      '### Signing in',
      '',
      '- Kind: OpenID Connect',
      '- Issuer: https://id.shop.example',
      '- Client id: corner-shop',
      '- Scopes: openid, profile',
      '- Session: Session',
      '',
      '### Roles',
      '',
      '| Role | Label | Description |',
      '| --- | --- | --- |',
      '| clerk | Clerk | Takes orders |',
      '| admin | Admin | |',
      '| customer | | |',
      '',
      '| Role | Entity | Actions | Where | Hidden | Read only |',
      '| --- | --- | --- | --- | --- | --- |',
      '| admin | Order | all | | | |',
      '| clerk | Order | view, add, edit | | | |',
      '| clerk | Customer | read | `record.owner == user.id` | notes | email, phone |',
      '| customer | Order | see | | | |',
    );
    expect(data.roles).toEqual({
      signIn: {
        kind: 'oidc',
        issuer: 'https://id.shop.example',
        clientId: 'corner-shop',
        scopes: ['openid', 'profile'],
        session: 'session',
      },
      roles: {
        clerk: {
          label: 'Clerk',
          description: 'Takes orders',
          can: {
            Order: ['read', 'create', 'update'],
            Customer: {
              actions: ['read'],
              where: 'record.owner == user.id',
              hidden: ['notes'],
              readOnly: ['email', 'phone'],
            },
          },
        },
        admin: { label: 'Admin', can: { Order: 'all' } },
        customer: { can: { Order: ['read'] } },
      },
    });
    expect(data.notes).toEqual({ roles: 'Staff sign in with the shop account.' });
  });

  it('reads each sign-in kind and its aliases', () => {
    const cases: Array<[string[], unknown]> = [
      [['- Kind: none'], { kind: 'none' }],
      [
        ['- Kind: Password', '- Call: signIn', '- Session: memory'],
        { kind: 'password', call: 'signIn', session: 'memory' },
      ],
      [
        ['- Kind: API key', '- In: Header', '- Name: X-Api-Key'],
        { kind: 'api-key', in: 'header', name: 'X-Api-Key' },
      ],
      [['- Kind: basic'], { kind: 'basic' }],
      [
        [
          '- Kind: OAuth 2',
          '- Authorization URL: https://a.example/auth',
          '- Token URL: https://a.example/token',
        ],
        { kind: 'oauth2', authorizationUrl: 'https://a.example/auth', tokenUrl: 'https://a.example/token' },
      ],
    ];
    for (const [items, signIn] of cases) {
      const data = dataOf('## 6. Roles', '', '### Sign in', '', ...items);
      expect(data.roles).toEqual({ signIn, roles: {} });
    }
  });

  it('reports a missing sign-in, sign-in properties outside it, and a permission given twice', () => {
    const text = lines(
      '# Shop',
      '',
      '## 6. Roles',
      '',
      '- Kind: none',
      '',
      '| Role | Entity | Actions |',
      '| --- | --- | --- |',
      '| clerk | Order | all |',
      '| clerk | Order | read |',
    );
    const source = read(text);
    expect(source.data).toEqual({ title: 'Shop', roles: { roles: { clerk: { can: { Order: 'all' } } } } });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'unused-content', source: at(5, 1) }),
      expect.objectContaining({
        code: 'duplicate-name',
        path: ['roles', 'roles', 'clerk', 'can', 'Order'],
        source: at(10, 11),
      }),
      // No roles table defines clerk.
      expect.objectContaining({
        code: 'unknown-reference',
        path: ['roles', 'roles', 'clerk'],
        source: at(9, 3),
      }),
      expect.objectContaining({ code: 'missing-key', path: ['roles', 'signIn'], source: at(3, 1) }),
    ]);
  });

  // A permissions row made a role of any name it gave: a misspelt role got grants of its own, and check
  // said nothing (issue 42).
  it('refuses a permissions row whose role the roles table does not define, at its cell, naming the nearest', () => {
    const text = lines(
      '# Shop',
      '',
      '## 6. Roles',
      '',
      '### Sign-in',
      '',
      '- Kind: none',
      '',
      '| Role | Description |',
      '| --- | --- |',
      '| reviewer | Reviews papers |',
      '',
      '| Role | Entity | Actions |',
      '| --- | --- | --- |',
      '| reviewer | Paper | read |',
      '| reveiwer | Paper | update |',
      '| visitor | Paper | read |',
    );
    const issues = issuesOf(text, 'unknown-reference');
    expect(issues).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['roles', 'roles', 'reveiwer'],
        source: at(16, 3),
        hint: 'Did you mean "reviewer"?',
      }),
      expect.objectContaining({
        severity: 'error',
        path: ['roles', 'roles', 'visitor'],
        source: at(17, 3),
        hint: 'Add "visitor" to the roles table, or correct the name.',
      }),
    ]);
  });
});

describe('readMarkdown: 7. calls', () => {
  it('reads the base URL and the calls table with its cell grammars', () => {
    const data = dataOf(
      '## 7. The calls it makes',
      '',
      '- Base URL: https://api.shop.example/v1',
      '',
      '| Call | Method | Path | Purpose | Entity | Description | Body | Response | Pagination | Sort | Filters |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| listOrders | get | /orders | list | Order | All orders | | envelope: items, total | page: page, per_page | placedAt, total | status (in), customer |',
      '| getOrder | GET | /orders/{id} | get | Order | | | one Order | | | |',
      '| createOrder | post | /orders | create | Order | | Order | one | | | |',
      '| upload | post | /files | upload | | | File (multipart) | none | | | |',
      '| update | patch | /orders/{id} | update | | | Order: note, total | one | | | |',
      '| signUp | post | /customers | | | | Customer (form): name, email | array Customer | offset: offset, limit | | |',
      '| search | get | /search | | | | | envelope | cursor: after, first, next | | |',
      '| tags | get | /tags | | | | | array | link-header: per_page | | |',
      '| all | get | /all | | | | | array | none | | |',
      '| pages | get | /pages | | | | | array | Page | | |',
    );
    expect(data.calls).toEqual({
      baseUrl: 'https://api.shop.example/v1',
      operations: {
        listOrders: {
          method: 'GET',
          path: '/orders',
          purpose: 'list',
          entity: 'Order',
          description: 'All orders',
          response: { shape: 'envelope', items: 'items', total: 'total' },
          pagination: { style: 'page', pageParam: 'page', sizeParam: 'per_page' },
          sort: { fields: ['placedAt', 'total'] },
          filters: [{ field: 'status', op: 'in' }, 'customer'],
        },
        getOrder: {
          method: 'GET',
          path: '/orders/{id}',
          purpose: 'get',
          entity: 'Order',
          response: { shape: 'one', entity: 'Order' },
        },
        createOrder: {
          method: 'POST',
          path: '/orders',
          purpose: 'create',
          entity: 'Order',
          body: 'Order',
          response: { shape: 'one' },
        },
        upload: {
          method: 'POST',
          path: '/files',
          purpose: 'upload',
          body: { entity: 'File', encoding: 'multipart' },
          response: { shape: 'none' },
        },
        update: {
          method: 'PATCH',
          path: '/orders/{id}',
          purpose: 'update',
          body: { entity: 'Order', fields: ['note', 'total'] },
          response: { shape: 'one' },
        },
        signUp: {
          method: 'POST',
          path: '/customers',
          body: { entity: 'Customer', encoding: 'form', fields: ['name', 'email'] },
          response: { shape: 'array', entity: 'Customer' },
          pagination: { style: 'offset', offsetParam: 'offset', limitParam: 'limit' },
        },
        search: {
          method: 'GET',
          path: '/search',
          response: { shape: 'envelope' },
          pagination: { style: 'cursor', cursorParam: 'after', sizeParam: 'first', nextField: 'next' },
        },
        tags: {
          method: 'GET',
          path: '/tags',
          response: { shape: 'array' },
          pagination: { style: 'link-header', sizeParam: 'per_page' },
        },
        all: { method: 'GET', path: '/all', response: { shape: 'array' }, pagination: 'none' },
        pages: { method: 'GET', path: '/pages', response: { shape: 'array' }, pagination: 'page' },
      },
    });
  });

  it('reports response and pagination cells it cannot read', () => {
    const text = lines(
      '# Shop',
      '',
      '## 7. Calls',
      '',
      '| Call | Method | Path | Response | Pagination |',
      '| - | - | - | - | - |',
      '| a | GET | /a | arary | pages |',
      '| b | GET | /b | one: x | page: a, b, c |',
    );
    const source = read(text);
    expect(source.data).toEqual({
      title: 'Shop',
      calls: { operations: { a: { method: 'GET', path: '/a' }, b: { method: 'GET', path: '/b' } } },
    });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'unreadable-cell', source: at(7, 18), hint: 'did you mean "array"?' }),
      expect.objectContaining({ code: 'unreadable-cell', source: at(7, 26), hint: 'did you mean "page"?' }),
      expect.objectContaining({
        code: 'unreadable-cell',
        path: ['calls', 'operations', 'b', 'response'],
        source: at(8, 18),
      }),
      expect.objectContaining({
        code: 'unreadable-cell',
        path: ['calls', 'operations', 'b', 'pagination'],
        source: at(8, 27),
      }),
    ]);
  });
});

describe('readMarkdown: 8. errors', () => {
  it('reads every row as an entry, in order', () => {
    const data = dataOf(
      '## 8. The error catalogue',
      '',
      'Messages are shown in a banner.',
      '',
      '| Status | Type | Code | Field | Message | Action |',
      '| --- | --- | --- | --- | --- | --- |',
      '| 401 | | | | Please sign in again. | Sign in |',
      '| 404 | | | | This order no longer exists. | go back |',
      '| 409 | https://shop.example/problems/stock | OUT_OF_STOCK | Order.lines | Not enough stock. | Fix the field |',
      '| 5XX | | | | Something went wrong. | contact support |',
      '| | | | | Unexpected answer. | try again |',
    );
    expect(data.errors).toEqual([
      { status: 401, message: 'Please sign in again.', action: 'sign-in' },
      { status: 404, message: 'This order no longer exists.', action: 'go-back' },
      {
        status: 409,
        type: 'https://shop.example/problems/stock',
        code: 'OUT_OF_STOCK',
        field: 'Order.lines',
        message: 'Not enough stock.',
        action: 'fix-field',
      },
      { status: '5xx', message: 'Something went wrong.', action: 'contact-support' },
      { message: 'Unexpected answer.', action: 'retry' },
    ]);
    expect(data.notes).toEqual({ errors: 'Messages are shown in a banner.' });
  });
});

describe('readMarkdown: 9. constants', () => {
  it('reads bare values and values with unit or meaning', () => {
    const data = dataOf(
      '## 9. Business constants and limits',
      '',
      '| Constant | Value | Unit | Description |',
      '| --- | --- | --- | --- |',
      '| PAGE_SIZE | 25 | | |',
      '| MAX_TOTAL | 10,000 | EUR | Largest order |',
      '| RATE | -1.5 | | |',
      '| BIG | 1e3 | | |',
      '| OPEN | True | | |',
      '| CLOSED | false | | |',
      '| CURRENCY | EUR | | |',
      '| TIMEOUT | 30 | seconds | |',
    );
    expect(data.constants).toEqual({
      PAGE_SIZE: 25,
      MAX_TOTAL: { value: 10000, unit: 'EUR', meaning: 'Largest order' },
      RATE: -1.5,
      BIG: 1000,
      OPEN: true,
      CLOSED: false,
      CURRENCY: 'EUR',
      TIMEOUT: { value: 30, unit: 'seconds' },
    });
  });

  it('reports a constant defined twice and keeps the first', () => {
    const text = lines(
      '# Shop',
      '',
      '## 9. Constants',
      '',
      '| Name | Value |',
      '| - | - |',
      '| A | 1 |',
      '| A | 2 |',
    );
    const source = read(text);
    expect(source.data).toEqual({ title: 'Shop', constants: { A: 1 } });
    expect(source.issues).toEqual([
      expect.objectContaining({ code: 'duplicate-name', path: ['constants', 'A'], source: at(8, 3) }),
    ]);
    expect(source.locate(['constants', 'A'])).toEqual(at(7, 7));
  });
});

describe('readMarkdown: cells and positions', () => {
  it('reads "\\|\\|" inside a code span in a table cell as "||"', () => {
    const data = dataOf(
      '## 5. Validation',
      '',
      '| Rule | Entity | Check | Message |',
      '| - | - | - | - |',
      '| r | Order | `a \\|\\| b` | x \\| y |',
    );
    expect(data.validation).toEqual({
      rules: [{ name: 'r', entity: 'Order', check: 'a || b', message: 'x | y' }],
    });
  });

  it('reads cell text as mdast-util-to-string does', () => {
    const cell = 'A *b* `c` [d](https://e.example) ![f](g.png) **`h`** &amp; \\*';
    const text = lines(
      '| Screen | Kind | Route | Title |',
      '| - | - | - | - |',
      `| s | list | /s | ${cell} |`,
    );
    const tree = fromMarkdown(text, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
    const expected = mdastToString(tree.children[0]).split('/s')[1]?.trim();
    const data = dataOf('## 2. Screens', '', text);
    expect((data.screens as { s: { title: string } }).s.title).toBe(expected);
    expect(expected).toBe('A b c d f h & *');
  });

  it('locates a table cell, a list element, a key and a prefix', () => {
    const text = lines(
      '# Shop',
      '',
      '## 2. Screens',
      '',
      '| Screen | Kind | Route | Columns |',
      '| --- | --- | --- | --- |',
      '| orders | list | /orders | number, `customer`, total |',
    );
    const source = read(text);
    expect(source.locate(['screens', 'orders', 'route'])).toEqual(at(7, 19));
    expect(source.locate(['screens', 'orders', 'columns'])).toEqual(at(7, 29));
    expect(source.locate(['screens', 'orders', 'columns', 1])).toEqual(at(7, 37));
    expect(source.locate(['screens', 'orders', 'columns', 2])).toEqual(at(7, 49));
    expect(source.locate(['screens', 'orders'], { key: true })).toEqual(at(7, 3));
    // Paths below a recorded one fall back to the longest recorded prefix.
    expect(source.locate(['screens', 'orders', 'route', 'nothing', 3])).toEqual(at(7, 19));
    expect(source.locate(['nothing'])).toEqual(at(1, 1));
    expect(source.locate(['title'])).toEqual(at(1, 3));
  });

  it('locates a character inside an expression in a code span, also after escaped pipes', () => {
    const text = lines(
      '# Shop',
      '',
      '## 5. Validation',
      '',
      '| Rule | Entity | Check | Message |',
      '| - | - | - | - |',
      '| r | Order | `a \\|\\| bad(` | m |',
      '| s | Order | plain text here | m |',
    );
    const source = read(text);
    const check = ['validation', 'rules', 0, 'check'];
    expect(source.data).toMatchObject({
      validation: { rules: [{ check: 'a || bad(' }, { check: 'plain text here' }] },
    });
    expect(source.locate(check)).toEqual(at(7, 15));
    expect(source.locateInString(check, 0)).toEqual(at(7, 16));
    // "bad(" starts at offset 5 in the value; in the source the two pipes are written \| \|.
    expect(source.locateInString(check, 5)).toEqual(at(7, 23));
    expect(source.locateInString(['validation', 'rules', 1, 'check'], 6)).toEqual(at(8, 21));
    // An offset beyond the string falls back to the string's position.
    expect(source.locateInString(check, 500)).toEqual(at(7, 15));
  });

  it('records a position for the values it builds from cell grammars', () => {
    const text = lines(
      '# Shop',
      '',
      '## 3. Entities',
      '',
      '### Order',
      '',
      '| Field | Kind |',
      '| - | - |',
      '| lines | list of object OrderLine |',
      '| status | enum: draft (Draft), paid |',
    );
    const source = read(text);
    const field = ['entities', 'Order', 'fields'];
    expect(source.locate([...field, 'lines', 'kind'])).toEqual(at(9, 11));
    expect(source.locate([...field, 'lines', 'of', 'kind'])).toEqual(at(9, 19));
    expect(source.locate([...field, 'lines', 'of', 'entity'])).toEqual(at(9, 26));
    expect(source.locate([...field, 'status', 'values', 1])).toEqual(at(10, 33));
    expect(source.locate([...field, 'status', 'values', 0, 'label'])).toEqual(at(10, 25));
  });
});

describe('readMarkdown: robustness', () => {
  it('reads a 10,000-line document', () => {
    const text = ['# Big', '', '## 9. Constants', '', '| Name | Value | Unit |', '| --- | --- | --- |'];
    for (let i = 0; text.length < 10_000; i++) text.push(`| C_${i} | ${i} | rows |`);
    const source = read(text.join('\n'));
    expect(source.issues).toEqual([]);
    expect(Object.keys((source.data as { constants: object }).constants)).toHaveLength(9_994);
    expect(source.locate(['constants', 'C_9993', 'value'])).toEqual(at(10_000, 12));
  });

  it('reads lists and quotations nested as deep as the limit', () => {
    const deepList = `${'+ '.repeat(60)}x`;
    const deepQuote = `${'> '.repeat(60)}y`;
    const text = lines(
      '# Deep',
      '',
      '## 1. Product',
      '',
      'Summary.',
      '',
      deepList,
      '',
      '- For: staff',
      `  ${'- '.repeat(60)}x`,
      '',
      '## 2. Screens',
      '',
      deepQuote,
      '',
      deepList,
    );
    const source = read(text);
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({
      title: 'Deep',
      product: { summary: 'Summary.', audience: ['staff'], description: deepList },
      notes: { screens: `${deepQuote}\n\n${deepList}` },
    });
  });

  it.each([
    ['1,000 nested list markers', `${'+ '.repeat(1000)}x`, 'levels'],
    ['1,000 nested quotations', `${'> '.repeat(1000)}y`, 'levels'],
    // Regression: this staircase kept the Markdown parser busy for about 40 seconds.
    [
      'a staircase of 1,000 ever deeper lines',
      Array.from({ length: 1000 }, (_, i) => `${' '.repeat(2 * i)}- item ${i}`).join('\n'),
      'columns',
    ],
  ])('refuses %s with one positioned issue instead of hanging or overflowing', (_name, body, what) => {
    const text = lines('# Deep', '', '## 1. Product', '', 'Summary.', '', body);
    const source = read(text);
    expect(source.data).toBeUndefined();
    expect(source.issues).toHaveLength(1);
    expect(source.issues[0]).toMatchObject({ code: 'too-deep', severity: 'error' });
    expect(source.issues[0]?.message).toContain(what);
    expect(source.issues[0]?.source?.line).toBeGreaterThanOrEqual(7);
  });

  it('does not throw on garbage, binary-ish text or odd input', () => {
    // A fixed sequence, not random: the test must be the same on every run.
    let seed = 42;
    let garbage = '';
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      garbage += String.fromCharCode(seed % 256);
    }
    const inputs = [
      garbage,
      `# T\n## 2\n| a |\n|-|\n${garbage}`,
      `# T\n\n## 3. E\n\n### \u0000\n\n| Field | Kind |\n|-|-|\n| \u0000 | list of list of \u0000 |`,
      '# \u0000\n## 6\n### Sign-in\n- Kind:\n- :\n- \n',
      '\uFEFF# T\r\n\r\n## 9\r\n\r\n| Name | Value |\r\n|-|-|\r\n| A | 1 |\r\n',
      '|||\n|-|-|\n||||\n',
      '## 7\n| Call | Method | Path | Body | Response | Pagination | Filters |\n|-|-|-|-|-|-|-|\n| a | | | (( | :: | : | ((, ) |',
    ];
    for (const input of inputs) {
      const source = read(input);
      expect(Array.isArray(source.issues)).toBe(true);
      expect(() => source.locate(['screens', 'x', 0])).not.toThrow();
      expect(() => source.locateInString(['a'], Number.NaN)).not.toThrow();
    }
    expect(read(inputs[4] as string).data).toEqual({ title: 'T', constants: { A: 1 } });
    expect(() => readMarkdown(undefined as unknown as string, FILE)).not.toThrow();
  });

  it('turns an internal failure into an issue instead of throwing', async () => {
    vi.resetModules();
    vi.doMock('mdast-util-from-markdown', () => ({
      fromMarkdown: () => {
        throw new Error('parser exploded');
      },
    }));
    try {
      const { readMarkdown: isolated } = await import('../src/markdown/read');
      const source = isolated('# Shop\n', FILE);
      expect(source.data).toBeUndefined();
      expect(source.issues).toEqual([
        expect.objectContaining({ code: 'syntax', severity: 'error', source: at(1, 1) }),
      ]);
      expect(source.issues[0]?.message).toContain('parser exploded');
    } finally {
      vi.doUnmock('mdast-util-from-markdown');
      vi.resetModules();
    }
  });
});
