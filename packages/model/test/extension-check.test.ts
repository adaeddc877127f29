import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExtension, EXTENSION_SLOTS, type ExtensionNames } from '../src/authoring/extension-check';
import { loadSpec, locateIn } from '../src/load';
import { FIELD_KINDS, type Model } from '../src/model';

// A domain of our own (test/fixtures/extension): a tool library whose Tool.rating names the widget `stars`.
const FILE = resolve(import.meta.dirname, '../../../test/fixtures/extension/tool-library.yaml');
const loaded = loadSpec(readFileSync(FILE, 'utf8'), { file: FILE });
const model = loaded.model as Model;

/** What the fixture's extension module (tool-library.ui.tsx) names: a fit with the specification. */
const fitting: ExtensionNames = {
  fields: [],
  kinds: [],
  widgets: ['stars'],
  screens: ['ShelfLabel'],
  slots: [
    { slot: 'brand' },
    { slot: 'header' },
    { slot: 'navigationFooter' },
    { slot: 'listToolbar', key: 'Tool' },
    { slot: 'detailAside', key: 'Tool' },
    { slot: 'dashboardTiles', key: 'home' },
  ],
  actions: [
    { name: 'markBroken', entity: 'Tool', call: 'updateTool', hasBody: true, hasRun: false },
    { name: 'takeBack', entity: 'Loan', call: 'returnLoan', hasBody: false, hasRun: false },
  ],
};

const codes = (names: Partial<ExtensionNames>) =>
  checkExtension(model, { ...fitting, ...names }).map((issue) => `${issue.code} ${issue.message}`);

describe('an extension module held against its specification', () => {
  it('finds nothing wrong when the two fit', () => {
    expect(loaded.ok).toBe(true);
    expect(checkExtension(model, fitting)).toEqual([]);
  });

  it('warns of a widget no extension provides, at the field in the specification', () => {
    const [issue, ...rest] = checkExtension(model, undefined, {
      locateSpec: (path) => locateIn(loaded, path),
    });
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({
      code: 'missing-override',
      severity: 'warning',
      message:
        'Tool.rating names the widget "stars", which no extension provides; the built-in display and input are used.',
      path: ['entities', 'Tool', 'fields', 'rating', 'widget'],
    });
    const line = readFileSync(FILE, 'utf8').split('\n')[(issue?.source?.line ?? 0) - 1] ?? '';
    expect(line.slice((issue?.source?.column ?? 1) - 1)).toMatch(/^stars/);
    // The widget the built-in client has needs no extension.
    const textarea = structuredClone(model);
    const rating = textarea.entities.shown
      ? textarea.entities.items[0]?.fields.find((f) => f.name === 'rating')
      : undefined;
    if (rating) rating.widget = 'textarea';
    expect(checkExtension(textarea, undefined)).toEqual([]);
  });

  it('warns of a widget or a custom screen component the extension does not provide', () => {
    expect(codes({ widgets: [], screens: [] })).toEqual([
      'missing-override Tool.rating names the widget "stars", which the extension does not provide; the built-in display and input are used.',
      'missing-override The custom screen tool-label names the component ShelfLabel, which the extension does not provide; the screen says so instead.',
    ]);
  });

  it('accepts an override of every field of every entity, and no field an entity lacks', () => {
    const entities = model.entities.shown ? model.entities.items : [];
    const every = entities.flatMap((entity) => entity.fields.map((field) => `${entity.name}.${field.name}`));
    expect(every.length).toBeGreaterThan(8);
    expect(checkExtension(model, { ...fitting, fields: every })).toEqual([]);
    for (const entity of entities) {
      for (const field of entity.fields) {
        const wrong = `${entity.name}.${field.name}x`;
        const issues = checkExtension(model, { ...fitting, fields: [wrong] });
        expect(issues.map((issue) => issue.message)).toEqual([
          `The extension overrides ${wrong}, but ${entity.name} has no field ${field.name}x.`,
        ]);
      }
    }
    expect(codes({ fields: ['Toll.name', 'Tool'] })).toEqual([
      'unknown-override The extension overrides Toll.name, but the specification has no entity Toll.',
      'unknown-override The extension overrides Tool, but the specification has no entity Tool.',
    ]);
  });

  it('accepts every kind of point 3 and no other', () => {
    expect(checkExtension(model, { ...fitting, kinds: [...FIELD_KINDS] })).toEqual([]);
    expect(codes({ kinds: ['stars'] })).toEqual([
      `unknown-override The extension overrides fields of kind "stars", which is no kind of point 3.`,
    ]);
  });

  it('warns of a widget and a screen component nothing in the specification names', () => {
    expect(codes({ widgets: ['stars', 'map'], screens: ['ShelfLabel', 'Invoice'] })).toEqual([
      'unknown-override The extension provides the widget "map", but no field of the specification names it.',
      'unknown-override The extension provides the screen component Invoice, but no custom screen of point 2 names it.',
    ]);
  });

  it('holds each slot to the slots the client has and to the entities and dashboards it names', () => {
    for (const [slot, keyed] of Object.entries(EXTENSION_SLOTS)) {
      const key = keyed === 'entity' ? 'Tool' : keyed === 'dashboard' ? 'home' : undefined;
      expect(checkExtension(model, { ...fitting, slots: [{ slot, ...(key ? { key } : {}) }] })).toEqual([]);
    }
    expect(
      codes({
        slots: [
          { slot: 'footer' },
          { slot: 'detailAside', key: 'Toll' },
          { slot: 'dashboardTiles', key: 'tools' },
        ],
      }),
    ).toEqual([
      'unknown-override The extension fills a slot called footer, which the client does not have.',
      'unknown-override The extension fills the detailAside slot of Toll, but the specification has no entity Toll.',
      'unknown-override The extension fills the dashboardTiles slot of tools, but the specification has no dashboard screen tools.',
    ]);
  });

  it('refuses an action whose transition call no transition takes any more (its button would vanish)', () => {
    if (!model.states.shown) throw new Error('the fixture says point 4');
    // The transition removed from point 4, its call kept in point 7: as a person editing the specification
    // leaves it.
    const without: Model = {
      ...model,
      states: {
        ...model.states,
        machines: model.states.machines.map((machine) => ({
          ...machine,
          transitions: machine.transitions.filter((step) => step.call !== 'returnLoan'),
        })),
      },
    };
    expect(checkExtension(model, fitting)).toEqual([]);
    expect(checkExtension(without, fitting).map((issue) => `${issue.code} ${issue.message}`)).toEqual([
      "unknown-override The extension's action takeBack runs returnLoan, a transition call that no transition of point 4 takes: its button would never be offered.",
    ]);
  });

  it('holds each action to its entity and to a call of point 7 it can run', () => {
    const action = (over: Partial<ExtensionNames['actions'][number]>) => ({
      name: 'act',
      entity: 'Tool',
      hasBody: false,
      hasRun: false,
      ...over,
    });
    expect(
      codes({
        actions: [
          action({ entity: 'Toll', call: 'updateTool' }),
          action({ call: 'updateTol' }),
          action({ call: 'returnLoan' }),
          action({ call: 'listTools' }),
          action({ call: 'updateTool' }),
          action({}),
        ],
      }),
    ).toEqual([
      "unknown-override The extension's action act is for the entity Toll, which the specification does not have.",
      "unknown-override The extension's action act runs the call updateTol, which point 7 does not have.",
      "unknown-override The extension's action act is for Tool, but the call returnLoan is for Loan.",
      "unknown-override The extension's action act runs listTools, a list call; an action runs an update, a delete or a transition.",
      "unknown-override The extension's action act runs the update updateTool without a body.",
      "unknown-override The extension's action act has neither a call nor run.",
    ]);
    // Each call of an entity that acts on one record, and code of its own, are accepted.
    expect(
      checkExtension(model, {
        ...fitting,
        actions: [
          action({ call: 'updateTool', hasBody: true }),
          action({ call: 'deleteTool' }),
          action({ entity: 'Loan', call: 'returnLoan' }),
          action({ hasRun: true }),
        ],
      }),
    ).toEqual([]);
  });

  it('places a warning at the name in the extension when told where names are', () => {
    const [issue] = checkExtension(
      model,
      { ...fitting, fields: ['Tool.colour'] },
      {
        locateName: (name) =>
          name === 'Tool.colour' ? { file: 'tool-library.ui.tsx', line: 7, column: 12 } : undefined,
      },
    );
    expect(issue?.source).toEqual({ file: 'tool-library.ui.tsx', line: 7, column: 12 });
    expect(issue?.hint).toBe("Tool's fields are id, name, condition, rating, notes");
  });
});
