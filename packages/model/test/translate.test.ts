// The specification's own words in other languages (point 1's translations, issue 21): read from YAML
// and Markdown alike, applied to the whole model, and a translation of no text of the spec found.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specTexts, translateModel } from '../src/authoring/translate';
import { loadSpec } from '../src/load';
import { entityPlural, fieldLabel } from '../src/lookup';
import { toMarkdown } from '../src/markdown/write';
import type { DashboardScreen, Model } from '../src/model';

const EXAMPLES = resolve(import.meta.dirname, '../../../examples');

function load(file: string, text = readFileSync(resolve(EXAMPLES, file), 'utf8')): Model {
  const loaded = loadSpec(text, { file });
  expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  return loaded.model as Model;
}

const shop = load('shop.yaml');
const order = (model: Model) =>
  model.entities.shown ? model.entities.items.find((entity) => entity.name === 'Order') : undefined;

describe('the specification’s words in other languages', () => {
  it('are read from YAML and Markdown alike, and written back', () => {
    const markdown = load('shop.md');
    expect(markdown.product.shown && markdown.product.translations).toEqual(
      shop.product.shown && shop.product.translations,
    );
    const written = toMarkdown(shop);
    expect(written.lost).toEqual([]);
    expect(written.text).toMatch(/\| Text \| fr \|/);
    const again = load('again.md', written.text);
    expect(again.product.shown && again.product.translations?.fr?.['Placed on']).toBe('Passée le');
  });

  it('translate labels, the ones left to names included, enum values, states, transitions and figures', () => {
    const french = translateModel(shop, 'fr');
    const entity = order(french);
    expect(entity && entityPlural(entity)).toBe('Commandes');
    const field = (name: string) => entity?.fields.find((candidate) => candidate.name === name);
    expect(fieldLabel(field('placedOn') ?? { name: '' })).toBe('Passée le');
    // A label the spec leaves to the field's name ("Status") is translated as the client shows it.
    expect(fieldLabel(field('status') ?? { name: '' })).toBe('État');
    const status = field('status');
    expect(status?.kind === 'enum' && status.values.find((v) => v.value === 'draft')?.label).toBe(
      'Brouillon',
    );
    const machine = french.states.shown ? french.states.machines[0] : undefined;
    expect(machine?.states.find((state) => state.name === 'paid')?.label).toBe('Payée');
    const cancel = machine?.transitions.find((transition) => transition.name === 'cancel');
    expect([cancel?.label, cancel?.confirm]).toEqual([
      'Annuler la commande',
      'Annuler cette commande ? C’est définitif.',
    ]);
    const home = french.screens.shown ? (french.screens.items[0] as DashboardScreen) : undefined;
    expect(home?.title).toBe('Aujourd’hui');
    expect(home?.figures.find((figure) => figure.name === 'revenueByMonth')?.title).toBe(
      'Chiffre d’affaires par mois',
    );
    expect(french.roles.shown && french.roles.roles.find((role) => role.name === 'owner')?.label).toBe(
      'Gérant',
    );
  });

  it('change no name, expression or value, and leave untranslated texts as written', () => {
    const french = translateModel(shop, 'fr');
    const names = (model: Model) =>
      JSON.stringify(order(model)?.fields.map((field) => [field.name, field.kind]));
    expect(names(french)).toBe(names(shop));
    expect(french.validation).toEqual(shop.validation);
    expect(french.calls).toBe(shop.calls);
    const notes = order(french)?.fields.find((field) => field.name === 'notes');
    expect(notes?.help).toBe('Visible to the customer.');
  });

  it('fall back from a regional language to its base, and change nothing for a language without words', () => {
    expect(order(translateModel(shop, 'fr-CA'))?.label).toBe('Commande');
    expect(translateModel(shop, 'de')).toBe(shop);
    expect(translateModel(shop, 'en')).toBe(shop);
  });

  it('name every text a translation may be given for', () => {
    const texts = specTexts(shop);
    for (const text of ['Order', 'Orders', 'Placed on', 'Status', 'Draft', 'Place order', 'Today', 'Revenue'])
      expect(texts.has(text), text).toBe(true);
    expect(texts.has('placedOn')).toBe(false);
  });
});

describe('a translation the check reads', () => {
  // A tiny lending library of our own: one entity, two texts translated, one of them misspelt.
  const library = (translations: string) => `title: Corner Library
product:
  audience: [Volunteers]
  language: en
  translations:
${translations}
screens: not shown
states: not shown
validation: not shown
roles: not shown
calls: not shown
errors: not shown
constants: not shown
entities:
  Book:
    fields:
      title: { kind: text }
      dueOn: { kind: date, label: Due back }
`;

  it('warns of a text the specification never shows, with the one meant', () => {
    const loaded = loadSpec(library('    nl:\n      Due back: Terug op\n      Tittle: Titel'), {
      file: 'library.yaml',
    });
    const warnings = loaded.issues.filter((issue) => issue.severity === 'warning');
    expect(warnings.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/^"Tittle" is translated into nl, but the specification shows no such text/),
    ]);
    expect(warnings[0]?.hint).toMatch(/Title/);
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  // Keyed by the shown text alone, an entity and a value of the same word could not differ in French:
  // "Order" the entity is "Commande", "order" the topic is "Ordre" (issue 42).
  it('tells apart the same word for two things by the path of one, and warns of a path that names nothing', () => {
    const text = library(
      [
        '    fr:',
        '      Order: Commande',
        '      Book.topic.order: Ordre',
        '      Book.title: Intitulé',
        '      Book.topic.ordre: Ordre',
      ].join('\n'),
    )
      .replace(
        '      dueOn: { kind: date, label: Due back }',
        '      dueOn: { kind: date, label: Due back }\n      topic: { kind: enum, values: [order, gift] }',
      )
      .replace('entities:\n', 'entities:\n  Order:\n    fields:\n      id: { kind: integer }\n');
    const loaded = loadSpec(text, { file: 'library.yaml' });
    expect(loaded.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(loaded.issues.map((issue) => issue.message)).toEqual([
      expect.stringMatching(
        /^"Book\.topic\.ordre" is translated into fr, but the specification shows no such text/,
      ),
    ]);
    const french = translateModel(loaded.model as Model, 'fr');
    const entities = french.entities.shown ? french.entities.items : [];
    const book = entities.find((entity) => entity.name === 'Book');
    const topic = book?.fields.find((field) => field.name === 'topic');
    expect(entities.find((entity) => entity.name === 'Order')?.label).toBe('Commande');
    expect(topic?.kind === 'enum' ? topic.values.map((value) => value.label) : []).toEqual([
      'Ordre',
      undefined,
    ]);
    expect(book?.fields.find((field) => field.name === 'title')?.label).toBe('Intitulé');
  });

  it('refuses a language that is no language tag', () => {
    const loaded = loadSpec(library('    Dutch:\n      Due back: Terug op'), { file: 'library.yaml' });
    expect(loaded.issues.map((issue) => issue.message).join('\n')).toMatch(/BCP 47/);
  });
});
