import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Model, Principal } from '@ninefold/model';
import { EXTENSION_SLOTS, loadSpec } from '@ninefold/model';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import toolLibrary from '../../../test/fixtures/extension/tool-library.ui';
import { App } from '../src/app/App';
import type { ApiRecord } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { brandStylesheet, brandVariables, contrastOn } from '../src/extension/brand-theme';
import { fieldOverride } from '../src/extension/field-overrides';
import { type EXTENSION_KEYS, type LoadedExtension, readExtension } from '../src/extension/loaded';
import type { Extension, FieldDisplayOverrideProps, Slots } from '../src/extension/types';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf } from './support/load-example';
import { renderScreens } from './support/render-screens';

// The tool library (test/fixtures/extension): a domain of our own, with the team's extension beside it.
const FILE = resolve(import.meta.dirname, '../../../test/fixtures/extension/tool-library.yaml');
const model = loadSpec(readFileSync(FILE, 'utf8'), { file: FILE }).model as Model;
const api = apiOf(model);

const seed = (): Record<string, ApiRecord[]> => ({
  Tool: [
    { name: 'Hammer drill', condition: 'good', rating: 4, notes: 'Bits in the case.' },
    { name: 'Ladder', condition: 'broken', rating: 2 },
  ],
  Loan: [
    { tool: 1, borrower: 'Ines', status: 'out' },
    { tool: 2, borrower: 'Joe', status: 'returned' },
  ],
});

function signedIn(role: string): SessionValue {
  const principal: Principal = { role, user: { id: `u-${role}`, role } };
  return { state: { status: 'signed-in', user: { id: `u-${role}`, role, attributes: {} } }, principal };
}
const librarian = signedIn('librarian');
const member = signedIn('member');

function renderAs(session: SessionValue, path: string, extension: Extension = toolLibrary) {
  const data = createMemoryDataProvider(model, api, seed());
  const user = userEvent.setup();
  renderScreens({ session, path, model, api, data, extension: { extension } });
  return { data, user };
}

function renderApp(path: string, loaded: LoadedExtension = { extension: toolLibrary }) {
  const data = createMemoryDataProvider(model, api, seed());
  render(<App spec={{ model, api, data, extension: loaded }} initialPath={path} locale="en" />);
  return { data };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('field overrides', () => {
  const tool = model.entities.shown
    ? model.entities.items.find((entity) => entity.name === 'Tool')
    : undefined;
  const rating = tool?.fields.find((field) => field.name === 'rating');
  const name = tool?.fields.find((field) => field.name === 'name');
  const Display = () => null;
  const Other = () => null;
  const Third = () => null;

  it('takes the most specific override that has the part asked for: Entity.field, then widget, then kind', () => {
    if (!rating || !name) throw new Error('the fixture has Tool.rating and Tool.name');
    const extension: Extension = {
      fields: {
        fields: { 'Tool.rating': { input: Other } },
        widgets: { stars: { display: Display } },
        kinds: { integer: { display: Third, input: Third }, text: { display: Third } },
      },
    };
    expect(fieldOverride(extension, 'Tool', rating, 'display')).toEqual({
      override: Display,
      by: 'widget “stars”',
    });
    expect(fieldOverride(extension, 'Tool', rating, 'input')).toEqual({ override: Other, by: 'Tool.rating' });
    expect(fieldOverride(extension, 'Tool', name, 'display')).toEqual({ override: Third, by: 'text fields' });
    expect(fieldOverride(extension, 'Tool', name, 'input')).toBeUndefined();
    expect(fieldOverride({}, 'Tool', rating, 'display')).toBeUndefined();
    // Own keys only: a field called `constructor` finds nothing of Object's.
    expect(
      fieldOverride({ fields: { fields: {} } }, 'Tool', { ...name, name: 'constructor' }, 'display'),
    ).toBeUndefined();
  });

  it("shows the extension's widget in a list's cells and on a record's page", async () => {
    renderAs(member, '/tools');
    expect(await screen.findByLabelText('4 of 5 stars')).toBeTruthy();
    expect(screen.getByLabelText('2 of 5 stars').textContent).toBe('★★☆☆☆');
  });

  it('gives an input override the form value, and saves what it sets through the form', async () => {
    const { data, user } = renderAs(librarian, '/tools/1/edit');
    const group = await screen.findByRole('group', { name: 'Rating' });
    expect(within(group).getByRole('button', { name: '4 stars' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(within(group).getByRole('button', { name: '5 stars' }));
    expect(within(group).getByRole('button', { name: '5 stars' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(async () => expect((await data.get({ entity: 'Tool', id: '1' })).record.rating).toBe(5));
  });

  it('shows the built-in display with a notice when an override throws, and the rest of the page works', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = (_: FieldDisplayOverrideProps) => {
      throw new Error('stars ran out');
    };
    renderAs(member, '/tools/1', { fields: { widgets: { stars: { display: Broken } } } });
    const notice = await screen.findByRole('note');
    expect(notice.textContent).toContain(
      'Display of Tool.rating of the extension failed; the built-in one is shown.',
    );
    // The built-in display of an integer, and the other fields, are there.
    expect(screen.getByText('Hammer drill', { selector: 'h1' })).toBeTruthy();
    expect(screen.getByText('4')).toBeTruthy();
    expect(console.error).toHaveBeenCalled();
  });

  it('lets an override wrap the built-in display it replaces', async () => {
    const Wrapped = ({ Original }: FieldDisplayOverrideProps) => (
      <span data-testid="wrapped">
        <Original /> (of 5)
      </span>
    );
    renderAs(member, '/tools', { fields: { fields: { 'Tool.rating': { display: Wrapped } } } });
    const cells = await screen.findAllByTestId('wrapped');
    expect(cells.map((cell) => cell.textContent)).toEqual(['4 (of 5)', '2 (of 5)']);
  });
});

describe('custom screens', () => {
  it("draws point 2's custom screen with the extension's component and the route's parameters", async () => {
    renderAs(member, '/tools/7/label');
    expect(await screen.findByRole('heading', { name: 'Shelf label of tool 7' })).toBeTruthy();
  });

  it('says plainly that the component is missing when the extension has none, or that it failed', async () => {
    renderAs(member, '/tools/7/label', {});
    expect(await screen.findByText(/“ShelfLabel”, that this build does not include/)).toBeTruthy();
  });

  it('shows the missing-component statement and a notice when the component throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAs(member, '/tools/7/label', {
      screens: {
        ShelfLabel: () => {
          throw new Error('no printer');
        },
      },
    });
    expect(await screen.findByText(/Screen ShelfLabel of the extension failed/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Shelf label' })).toBeTruthy();
  });
});

describe('slots', () => {
  it('fills the brand, the header and the navigation footer', async () => {
    renderApp('/tools');
    expect(await screen.findByText('Tool Library · shelf 3')).toBeTruthy();
    expect(screen.getByText('Open until 18:00')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Navigation' });
    expect(within(nav).getByRole('link', { name: 'Borrowing rules' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'About this client' })).toBeTruthy();
  });

  it("fills a list's toolbar with the page's records, and a record's aside with the session's rights", async () => {
    renderAs(member, '/tools');
    expect(await screen.findByText('2 tools on this page')).toBeTruthy();
    renderAs(librarian, '/tools/1');
    expect(await screen.findByText('You may service this tool.')).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'More about this record' })).toBeTruthy();
  });

  it("adds to a dashboard's tiles, keeping the built-in ones it is given as Original", async () => {
    renderAs(member, '/');
    expect(await screen.findByText('Tools are due back in 14 days.')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Tools|Loans/ }).length).toBeGreaterThanOrEqual(2);
  });

  it('leaves a slot of an entity the extension does not fill as it was', async () => {
    renderAs(member, '/loans/1');
    expect(await screen.findByRole('heading', { name: 'Ines' })).toBeTruthy();
    expect(screen.queryByRole('complementary')).toBeNull();
  });
});

describe('actions', () => {
  it('offers an update action to the role that may update, asks first, and runs the call', async () => {
    const { data, user } = renderAs(librarian, '/tools/1');
    await user.click(await screen.findByRole('button', { name: 'Mark broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark this tool broken?' });
    expect(within(dialog).getByText('Members can no longer borrow it.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Mark broken' }));
    await waitFor(async () =>
      expect((await data.get({ entity: 'Tool', id: '1' })).record.condition).toBe('broken'),
    );
    const updates = data.log.filter((call) => call.method === 'update');
    expect(updates).toHaveLength(1);
  });

  it('leaves the action out for a role without the grant, and where its own when() says no', async () => {
    renderAs(member, '/tools/1');
    expect(await screen.findByRole('heading', { name: 'Hammer drill' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark broken' })).toBeNull();
    renderAs(librarian, '/tools/2');
    expect(await screen.findByRole('heading', { name: 'Ladder' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark broken' })).toBeNull();
  });

  it("takes a transition from a list's row, and disables it with point 4's reason where it cannot be taken", async () => {
    const { data, user } = renderAs(librarian, '/loans');
    const rows = await screen.findAllByRole('row');
    const ines = rows.find((row) => row.textContent?.includes('Ines'));
    const joe = rows.find((row) => row.textContent?.includes('Joe'));
    if (!ines || !joe) throw new Error('both loans are listed');
    const takeBackJoe = await within(joe).findByRole('button', { name: 'Take it back' });
    expect((takeBackJoe as HTMLButtonElement).disabled).toBe(true);
    const reason = document.getElementById(takeBackJoe.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('Possible only from Out.');
    await user.click(await within(ines).findByRole('button', { name: 'Take it back' }));
    await waitFor(async () =>
      expect((await data.get({ entity: 'Loan', id: '1' })).record.status).toBe('returned'),
    );
    // A row has no version: the record is read first, so the transition is made on it as it is.
    const methods = data.log.map((call) => call.method);
    expect(methods.filter((method) => method === 'transition')).toHaveLength(1);
    expect(methods.slice(0, methods.indexOf('transition'))).toContain('get');
  });

  it("runs an update from a list's row: one dialog for the list, every row's button held while it asks, then announced", async () => {
    const { data, user } = renderAs(librarian, '/tools');
    const rows = await screen.findAllByRole('row');
    const drill = rows.find((row) => row.textContent?.includes('Hammer drill'));
    const ladder = rows.find((row) => row.textContent?.includes('Ladder'));
    if (!drill || !ladder) throw new Error('both tools are listed');
    // The ladder is broken already: its own when() leaves its row without the button.
    expect(within(ladder).queryByRole('button', { name: 'Mark broken' })).toBeNull();
    await user.click(await within(drill).findByRole('button', { name: 'Mark broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark this tool broken?' });
    expect((within(drill).getByRole('button', { name: 'Mark broken' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Mark broken' }));
    await waitFor(async () =>
      expect((await data.get({ entity: 'Tool', id: '1' })).record.condition).toBe('broken'),
    );
    await waitFor(() =>
      expect(
        screen.getAllByRole('status').some((region) => /Mark broken/.test(region.textContent ?? '')),
      ).toBe(true),
    );
    expect(data.log.filter((call) => call.method === 'update')).toHaveLength(1);
  });

  it('shows a refusal of the API with its message, in a dialog the person can close', async () => {
    const { data, user } = renderAs(librarian, '/tools/1');
    data.failNext(
      'update',
      new (await import('../src/data/data-provider')).ApiError(
        409,
        'Conflict',
        'The tool is on loan.',
        'ON_LOAN',
        undefined,
        [],
        undefined,
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Mark broken' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Mark broken' }));
    const failed = await screen.findByRole('dialog', { name: '“Mark broken” did not happen.' });
    expect(within(failed).getByText('The tool is on loan.')).toBeTruthy();
  });
});

describe('an action on a nested record', () => {
  it("sends the record's parents with its calls, as the built-in actions do", async () => {
    const { default: ActionRun } = await import('../src/extension/ActionRun');
    const { MantineProvider } = await import('@mantine/core');
    const { QueryClientProvider } = await import('@tanstack/react-query');
    const { I18nProvider } = await import('../src/i18n/I18nProvider');
    const { SpecProvider } = await import('../src/app/SpecContext');
    const { createQueryClient } = await import('../src/app/App');
    const data = createMemoryDataProvider(model, api, seed());
    const calls: unknown[] = [];
    const spy = {
      ...data,
      calls: data.calls,
      get: async (params: Parameters<typeof data.get>[0]) => {
        calls.push(['get', params]);
        return data.get({ entity: params.entity, id: params.id });
      },
      update: async (params: Parameters<typeof data.update>[0]) => {
        calls.push(['update', params]);
        return data.update({ ...params, path: undefined });
      },
    };
    const tool = model.entities.shown
      ? model.entities.items.find((entity) => entity.name === 'Tool')
      : undefined;
    if (!tool) throw new Error('the fixture has tools');
    const finished = vi.fn();
    render(
      <MantineProvider>
        <I18nProvider locale="en">
          <QueryClientProvider client={createQueryClient()}>
            <SpecProvider value={{ model, api, data: spy }}>
              <ActionRun
                plan={{
                  name: 'fix',
                  definition: { entity: 'Tool', label: 'Fix' },
                  run: { kind: 'update', body: () => ({ condition: 'good' }) },
                  offer: { kind: 'enabled' },
                }}
                entity={tool}
                record={{ id: 2, name: 'Ladder' }}
                id="2"
                version={undefined}
                path={{ shedId: 'S1' }}
                onRun={() => {}}
                onFinish={finished}
              />
            </SpecProvider>
          </QueryClientProvider>
        </I18nProvider>
      </MantineProvider>,
    );
    await waitFor(() => expect(finished).toHaveBeenCalledWith(true));
    expect(calls).toEqual([
      ['get', { entity: 'Tool', id: '2', path: { shedId: 'S1' } }],
      [
        'update',
        expect.objectContaining({
          entity: 'Tool',
          id: '2',
          path: { shedId: 'S1' },
          values: { condition: 'good' },
        }),
      ],
    ]);
  });
});

describe('the names the runtime and check share', () => {
  it('are the same: the slots check knows are the slots the client has, and the keys it reads are the type’s', () => {
    // Types, checked by `npm run typecheck`: a slot or key added to one side only fails to compile.
    expectTypeOf<keyof typeof EXTENSION_SLOTS>().toEqualTypeOf<keyof Slots>();
    expectTypeOf<(typeof EXTENSION_KEYS)[number]>().toEqualTypeOf<keyof Extension>();
    expect(Object.keys(EXTENSION_SLOTS)).toHaveLength(8);
  });
});

describe('loading and brand', () => {
  it('refuses a module whose default export is not an extension, saying why', () => {
    expect(readExtension({ default: undefined })).toEqual({ extension: {} });
    expect(readExtension({ default: 3 }).failure).toBe(
      'its default export is a number, not the object defineExtension returns',
    );
    expect(readExtension({ default: [] }).failure).toContain('an array');
    expect(readExtension({ default: { slot: {} } }).failure).toBe(
      'it has keys no extension has (slot); known keys are name, fields, screens, slots, actions, theme',
    );
    expect(readExtension({ default: toolLibrary })).toEqual({ extension: toolLibrary });
  });

  it('says on every screen that the extension could not be loaded, and runs the built-in client', async () => {
    renderApp('/tools', { extension: {}, failure: 'SyntaxError: Unexpected token' });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The extension module could not be loaded, so every screen is the built-in one: SyntaxError: Unexpected token',
    );
    expect(await screen.findByRole('heading', { name: 'Tools' })).toBeTruthy();
  });

  it("makes the brand's colour, radius, font and density a stylesheet over the theme's, in both schemes", () => {
    const brand = toolLibrary.theme;
    if (!brand) throw new Error('the fixture has a brand');
    const css = brandStylesheet({ ...brand, font: 'Georgia, serif' });
    expect(css.startsWith('html:root,html:root[data-mantine-color-scheme]{')).toBe(true);
    for (const declaration of [
      '--mantine-primary-color-filled:#2b8a3e;',
      '--mantine-color-indigo-filled:#2b8a3e;',
      '--mantine-primary-color-contrast:',
      '--mantine-radius-default:4px;',
      '--mantine-spacing-md:12px;',
      '--mantine-font-family:Georgia, serif;',
    ]) {
      expect(css).toContain(declaration);
    }
    expect(brandStylesheet({})).toBe('');
  });

  it('ignores brand values that could end the declaration, and picks text that reads on the colour', () => {
    expect(
      brandVariables({ primaryColor: 'red; background: url(x)', font: 'x; color: red', radius: -1 }),
    ).toEqual({});
    expect(brandVariables({ radius: 100 })['--mantine-radius-default']).toBe('32px');
    expect(contrastOn('#0b7285')).toBe('white');
    expect(contrastOn('#ffd43b')).toBe('black');
  });
});
