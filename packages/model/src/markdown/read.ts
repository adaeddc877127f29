import type { Heading, List, Nodes, RootContent, Table } from 'mdast';
import { NOT_SHOWN_PATTERN } from '../document/schema';
import type { SourceDocument } from '../document/source';
import type { PathSegment, SourcePosition } from '../issues';
import { POINT_KEYS, type PointKey } from '../model';
import { markdownBlocks } from './blocks';
import { constantValue, readActions, readType } from './cell-grammars';
import type { Text } from './located-text';
import { setOwn } from './located-text';
import { type PropertyEntry, type Row, TableReader } from './table-reader';
import { tableShapeProblems } from './table-shapes';
import {
  namesFirstColumn,
  PROPERTIES,
  SUBSECTIONS,
  type SubsectionSpec,
  TABLES,
  type TableSpec,
} from './table-specs';
import { findTextLimitOverflow } from './text-limits';
import { closest, norm, SIGN_IN_HEADINGS, SIGN_IN_KINDS, word } from './words';

/**
 * Reads a nine-point Markdown specification into the authoring document (the YAML/JSON shape), following
 * the convention in `docs/spec-format.md`. Never throws: problems with the convention become issues, each
 * located at `file:line:column`, and every value it produces can be located again through `locate`.
 *
 * @example
 * ```ts
 * const source = readMarkdown('# Shop\n\n## 1. Product\n\nNot shown.\n', 'shop.md');
 * source.data; // { title: 'Shop', product: 'Not shown.' }
 * source.locate(['product']); // { file: 'shop.md', line: 5, column: 1 }
 * ```
 */
export function readMarkdown(text: string, file: string): SourceDocument {
  const reader = new Reader(asString(text), asString(file));
  const overflow = findTextLimitOverflow(reader.source);
  if (overflow) {
    reader.issues.push({
      code: overflow.code,
      severity: 'error',
      message: overflow.message,
      path: [],
      source: { file: reader.file, line: overflow.line, column: overflow.column },
      hint: overflow.hint,
    });
  } else {
    try {
      reader.read();
    } catch (error) {
      reader.internalError(error, []);
    }
  }
  return {
    format: 'markdown',
    file: reader.file,
    data: reader.data,
    issues: reader.issues,
    locate: (path, options) => reader.locate(path, options),
    locateInString: (path, offset) => reader.locateInString(path, offset),
  };
}

/** Callers pass strings; anything else (from plain JavaScript) is read as text rather than crashing. */
function asString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : String(value);
  } catch {
    return '';
  }
}

type Obj = Record<string, unknown>;

// ------------------------------------------------------------------------------------------ sections

/** The first column of point 1's table of words in other languages. */
const TRANSLATION_HEADERS = new Set(['text', 'texts', 'words', 'wording']);

const POINT_LABELS: Record<PointKey, string> = {
  product: 'product',
  screens: 'screens',
  entities: 'entities',
  states: 'states',
  validation: 'validation',
  roles: 'roles',
  calls: 'calls',
  errors: 'errors',
  constants: 'constants',
};
const SECTION_LIST =
  '1 product, 2 screens, 3 entities, 4 states, 5 validation, 6 roles, 7 calls, 8 errors, 9 constants';
const SECTION_WORDS: Array<[string, number]> = [
  ['product', 1],
  ['screen', 2],
  ['route', 2],
  ['entit', 3],
  ['field', 3],
  ['state', 4],
  ['transition', 4],
  ['workflow', 4],
  ['validation', 5],
  ['rule', 5],
  ['role', 6],
  ['permission', 6],
  ['sign', 6],
  ['call', 7],
  ['api', 7],
  ['error', 8],
  ['constant', 9],
  ['limit', 9],
];

/** The number a `##` heading starts with (`4. States`, `4) Workflow`, `4 - States`), when it is 1 to 9. */
function sectionNumber(heading: string): number | undefined {
  const match = /^\s*(\d+)(.*)$/s.exec(heading);
  if (!match?.[1]) return undefined;
  const rest = match[2] ?? '';
  if (/^[.,]\d/.test(rest)) return undefined;
  const n = Number(match[1]);
  return n >= 1 && n <= 9 ? n : undefined;
}

interface Section {
  heading: Heading;
  number: number | undefined;
  blocks: RootContent[];
}

interface Subsection {
  heading: Heading;
  blocks: RootContent[];
}

function describe(node: RootContent, inline: (node: Nodes) => string): string {
  switch (node.type) {
    case 'table': {
      const header = node.children[0]?.children[0];
      return `the table whose first column is "${header ? inline(header) : ''}"`;
    }
    case 'heading':
      return `the heading "${'#'.repeat(node.depth)} ${inline(node)}"`;
    case 'list':
      return 'a list';
    case 'paragraph':
      return 'a paragraph';
    case 'code':
      return 'a code block';
    case 'blockquote':
      return 'a quotation';
    default:
      return `a block (${node.type})`;
  }
}

// ------------------------------------------------------------------------------------------ the reader

class Reader extends TableReader {
  data: Obj | undefined;
  private readonly notes = new Map<PointKey, RootContent[]>();

  // ---------------------------------------------------------------------------------------- issues

  internalError(error: unknown, path: readonly PathSegment[], at?: SourcePosition): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.issue(
      'syntax',
      'error',
      `Ninefold could not read this part of the document because of an internal error (${detail}).`,
      path,
      at ?? { file: this.file, line: 1, column: 1 },
      'Please report this as a bug, with the document.',
    );
  }

  private unused(point: PointKey, node: RootContent, why: string, hint?: string): void {
    this.issue(
      'unused-content',
      'warning',
      `In section ${POINT_KEYS.indexOf(point) + 1} (${POINT_LABELS[point]}), ${describe(node, (n) => this.plain(n))} is not used: ${why}`,
      [point],
      this.at(node),
      hint,
    );
  }

  // ---------------------------------------------------------------------------------------- the document

  read(): void {
    if (this.source.trim() === '') {
      this.issue('empty-file', 'error', 'The file is empty.', [], this.position(0));
      return;
    }
    const tree = { children: markdownBlocks(this.source) };
    const data: Obj = {};
    this.data = data;
    this.record([], this.position(0));

    for (const found of tableShapeProblems(tree.children, this.source)) {
      this.issue(found.code, 'error', found.message, [], this.at(found.node), found.hint);
    }
    let title: Heading | undefined;
    const sections: Section[] = [];
    let current: Section | undefined;
    for (const node of tree.children) {
      if (node.type === 'heading' && node.depth === 1) {
        if (title === undefined) {
          title = node;
        } else {
          this.issue(
            'extra-title',
            'warning',
            `The document has more than one title; "${this.plain(node)}" is ignored and "${this.plain(title)}" is used.`,
            ['title'],
            this.at(node),
            'Use "#" for the title only, and "##" for the nine sections.',
          );
        }
        continue;
      }
      if (node.type === 'heading' && node.depth === 2) {
        current = { heading: node, number: sectionNumber(this.plain(node)), blocks: [] };
        sections.push(current);
        continue;
      }
      // HTML comments are notes to the authors, never content.
      if (node.type === 'html' && node.value.trimStart().startsWith('<!--')) continue;
      // Content before the first section is a preface: read by people, not by Ninefold.
      current?.blocks.push(node);
    }

    const titleText = title ? this.inline(title).trim() : undefined;
    if (titleText && titleText.length > 0) {
      data.title = titleText.value;
      this.record(['title'], titleText, this.at(title));
    } else {
      this.issue(
        'missing-title',
        'error',
        'The document has no title: it should start with "# " and the name of the product.',
        ['title'],
        title ? this.at(title) : this.position(0),
        'Write the title on the first line, for example "# Corner Shop".',
      );
    }

    const seen = new Map<number, Section>();
    let highest = 0;
    const values = new Map<PointKey, unknown>();
    for (const section of sections) {
      const n = section.number;
      const headingText = this.plain(section.heading);
      if (n === undefined) {
        const lower = headingText.toLowerCase();
        const guess = SECTION_WORDS.find(([w]) => lower.includes(w));
        this.issue(
          'unknown-section',
          'error',
          `The section "## ${headingText}" has no number from 1 to 9, so Ninefold cannot tell which point it is; its content is ignored.`,
          [],
          this.at(section.heading),
          guess
            ? `did you mean "## ${guess[1]}. ${headingText}"? The sections are numbered ${SECTION_LIST}.`
            : `Start the heading with the point's number: ${SECTION_LIST}.`,
        );
        continue;
      }
      const key = POINT_KEYS[n - 1] as PointKey;
      const first = seen.get(n);
      if (first) {
        this.issue(
          'duplicate-section',
          'error',
          `Section ${n} (${POINT_LABELS[key]}) appears twice; this second one is ignored (the first is at line ${this.at(first.heading).line}).`,
          [key],
          this.at(section.heading),
          'Merge the two sections into one.',
        );
        continue;
      }
      seen.set(n, section);
      if (n < highest) {
        this.issue(
          'section-order',
          'warning',
          `Section ${n} (${POINT_LABELS[key]}) comes after section ${highest}; the sections should be in order from 1 to 9.`,
          [key],
          this.at(section.heading),
          'It is still read; move it so that readers find the points in the usual order.',
        );
      }
      highest = Math.max(highest, n);
      this.record([key], this.at(section.heading), this.at(section.heading));
      try {
        const value = this.readSection(key, section);
        if (value !== undefined) values.set(key, value);
      } catch (error) {
        this.internalError(error, [key], this.at(section.heading));
      }
    }

    for (const key of POINT_KEYS) {
      if (values.has(key)) data[key] = values.get(key);
    }
    // A point with no section whose heading is there but broken ("x## 3. Entities": a stray character
    // before it, or "##3." without its space) is missing at that line, not at the top of the file.
    for (const [index, key] of POINT_KEYS.entries()) {
      if (seen.has(index + 1)) continue;
      const offset = brokenHeading(this.source, index + 1);
      if (offset !== undefined) this.record([key], this.position(offset));
    }
    const notes: Obj = {};
    for (const key of POINT_KEYS) {
      const blocks = this.notes.get(key);
      if (!blocks || blocks.length === 0) continue;
      const text = this.prose(blocks);
      notes[key] = text.value;
      this.record(['notes', key], text);
    }
    if (Object.keys(notes).length > 0) {
      data.notes = notes;
      const firstNote = Object.keys(notes)[0] ?? '';
      this.record(['notes'], this.locate(['notes', firstNote]));
    }
  }

  private readSection(key: PointKey, section: Section): unknown {
    const blocks = section.blocks.filter((b) => b.type !== 'thematicBreak');
    const first = blocks[0];
    // An empty section is left out, so that the check reports the point as missing (at this heading).
    if (!first) return undefined;
    if (first.type === 'paragraph') {
      const text = this.inline(first).trim();
      if (NOT_SHOWN_PATTERN.test(text.value)) {
        this.record([key], text, this.at(section.heading));
        const rest = blocks[1];
        if (rest) {
          this.unused(
            key,
            rest,
            `the section says "not shown", so the ${blocks.length - 1} block(s) after it are ignored.`,
            'Remove "not shown" to use the content, or remove the content.',
          );
        }
        return text.value;
      }
    }
    this.structured = false;
    const value = this.readPoint(key, blocks, section);
    // Prose alone (a misspelt "not shown", say) is no content: the point counts as missing, and the
    // prose is still kept as notes.
    return key === 'product' || this.structured ? value : undefined;
  }

  private readPoint(key: PointKey, blocks: readonly RootContent[], section: Section): unknown {
    switch (key) {
      case 'product':
        return this.readProduct(blocks);
      case 'screens':
        return this.readScreens(blocks);
      case 'entities':
        return this.readSubsections(blocks, SUBSECTIONS.entities, (entity, sub, path) =>
          this.readEntity(entity, sub, path),
        );
      case 'states':
        return this.readSubsections(blocks, SUBSECTIONS.states, (machine, sub, path) =>
          this.readMachine(machine, sub, path),
        );
      case 'validation':
        return this.readValidation(blocks);
      case 'roles':
        return this.readRoles(blocks, section);
      case 'calls':
        return this.readCalls(blocks);
      case 'errors':
        return this.readErrors(blocks);
      case 'constants':
        return this.readConstants(blocks);
    }
  }

  private note(key: PointKey, block: RootContent): void {
    const list = this.notes.get(key) ?? [];
    list.push(block);
    this.notes.set(key, list);
  }

  /** Sets `target.description` to the source of prose blocks, when there are any. */
  private setDescription(target: Obj, path: readonly PathSegment[], prose: readonly RootContent[]): void {
    if (prose.length === 0) return;
    const text = this.prose(prose);
    target.description = text.value;
    this.record([...path, 'description'], text);
  }

  // ---------------------------------------------------------------------------------------- subsections and tables

  /** Blocks before the first `###`, then one group per `###`. Deeper headings stay with the blocks. */
  private subsections(blocks: readonly RootContent[]): { intro: RootContent[]; subs: Subsection[] } {
    const intro: RootContent[] = [];
    const subs: Subsection[] = [];
    let current: Subsection | undefined;
    for (const block of blocks) {
      if (block.type === 'heading' && block.depth === 3) {
        current = { heading: block, blocks: [] };
        subs.push(current);
      } else if (current) current.blocks.push(block);
      else intro.push(block);
    }
    return { intro, subs };
  }

  /**
   * Reads a point made of `###` subsections that each name one item (an entity, a state machine) into a
   * map of the items. Before the first subsection there are only notes: a table or properties list there
   * is reported. A failure inside one subsection is reported there, and the others are still read.
   */
  private readSubsections(
    input: readonly RootContent[],
    spec: SubsectionSpec,
    read: (item: Obj, sub: Subsection, path: PathSegment[]) => void,
  ): Obj {
    const { point } = spec;
    const items: Obj = {};
    const { intro, subs } = this.subsections(input);
    for (const block of intro) {
      if (block.type === 'table' || (block.type === 'list' && this.isProperties(block, spec.properties))) {
        this.unused(point, block, spec.beforeFirst.why, spec.beforeFirst.hint);
      } else this.note(point, block);
    }
    for (const sub of subs) {
      const name = this.inline(sub.heading).trim();
      if (name.length === 0) {
        this.issue(
          'missing-key',
          'error',
          spec.unnamed.message,
          [point],
          this.at(sub.heading),
          spec.unnamed.hint,
        );
        continue;
      }
      this.structured = true;
      const item: Obj = {};
      if (!this.addNamed(items, name, item, [point], spec.items)) continue;
      const path = [point, name.value];
      this.record(path, this.at(sub.heading), this.textStart(name));
      try {
        read(item, sub, path);
      } catch (error) {
        this.internalError(error, path, this.at(sub.heading));
      }
    }
    return items;
  }

  /** In points without subsections, a `###` is reported and what follows it is read as usual. */
  private flatten(key: PointKey, blocks: readonly RootContent[]): RootContent[] {
    const out: RootContent[] = [];
    for (const block of blocks) {
      if (block.type === 'heading' && block.depth === 3) {
        this.unused(
          key,
          block,
          'this point has no subsections; the heading is ignored and what follows it is read as part of the section.',
          'Remove the heading, or use "####" for a heading that belongs to the notes.',
        );
      } else out.push(block);
    }
    return out;
  }

  /** The spec whose name column the table starts with; otherwise the table is reported as unused, with a hint. */
  private tableSpec(table: Table, specs: readonly TableSpec[], point: PointKey): TableSpec | undefined {
    const header = table.children[0]?.children[0];
    const text = header ? this.plain(header) : '';
    const spec = specs.find((s) => namesFirstColumn(s, text));
    if (spec) return spec;
    const labels = [...new Set(specs.map((s) => s.name?.label ?? ''))];
    const best = closest(
      norm(text),
      labels.map((l) => norm(l)),
    );
    const bestLabel = labels.find((l) => norm(l) === best);
    this.unused(
      point,
      table,
      `tables here start with a column ${labels.map((l) => `"${l}"`).join(' or ')}.`,
      bestLabel ? `did you mean "${bestLabel}"?` : undefined,
    );
    return undefined;
  }

  // ---------------------------------------------------------------------------------------- 1. product

  private readProduct(input: readonly RootContent[]): Obj {
    const product: Obj = {};
    const prose: RootContent[] = [];
    let summary: Text | undefined;
    this.readBlocks(input, {
      table: (table) => {
        const first = norm(this.plain(table.children[0]?.children[0] ?? table));
        if (TRANSLATION_HEADERS.has(first)) this.readTranslations(table, product);
        else
          this.unused(
            'product',
            table,
            'point 1 has one table, of the words in other languages, whose first column is "Text".',
            'Use a list of "Key: value" items for the rest.',
          );
      },
      other: (block) => {
        if (block.type === 'paragraph' && summary === undefined) {
          summary = this.inline(block).trim();
          if (summary.length > 0) {
            product.summary = summary.value;
            this.record(['product', 'summary'], summary);
          }
        } else prose.push(block);
      },
      properties: { list: PROPERTIES.product, target: product, path: ['product'] },
    });
    this.setDescription(product, ['product'], prose);
    return product;
  }

  /**
   * The words in other languages: `| Text | fr | de |`, each row a text as the specification writes it
   * and its translations; an empty cell leaves that text as written in that language.
   */
  private readTranslations(table: Table, product: Obj): void {
    this.structured = true;
    const [header, ...rows] = table.children;
    const languages = (header?.children.slice(1) ?? []).map((cell) => this.inline(cell).trim());
    product.translations ??= {};
    const translations = product.translations as Obj;
    this.record(['product', 'translations'], this.at(table));
    for (const language of languages) {
      if (language.value === '') continue;
      translations[language.value] ??= {};
      this.record(['product', 'translations', language.value], language);
    }
    for (const row of rows) {
      const [sourceCell, ...cells] = row.children;
      const source = sourceCell ? this.inline(sourceCell).trim() : undefined;
      if (!source || source.value === '') continue;
      cells.forEach((cell, index) => {
        const language = languages[index];
        const translated = this.inline(cell).trim();
        if (!language || language.value === '' || translated.value === '') return;
        const words = translations[language.value] as Obj;
        if (Object.hasOwn(words, source.value)) {
          this.issue(
            'duplicate-name',
            'error',
            `"${source.value}" is translated twice into ${language.value}; the second is ignored.`,
            ['product', 'translations', language.value, source.value],
            source,
          );
          return;
        }
        setOwn(words, source.value, translated.value);
        this.record(['product', 'translations', language.value, source.value], translated);
      });
    }
  }

  // ---------------------------------------------------------------------------------------- 2. screens

  private readScreens(input: readonly RootContent[]): Obj {
    const screens: Obj = {};
    const figures: Row[] = [];
    this.readBlocks(this.flatten('screens', input), {
      table: (table) => {
        const spec = this.tableSpec(table, [TABLES.screens, TABLES.figures], 'screens');
        if (spec === TABLES.screens) this.readNamedRows(table, spec, screens, ['screens'], 'screens');
        else if (spec === TABLES.figures) figures.push(...this.readTable(table, spec, ['screens']));
      },
      other: (block) => this.note('screens', block),
    });
    // Read after every table, so that a figures table may come before the screens it names.
    for (const row of figures) this.readFigure(row, screens);
    return screens;
  }

  /** A row of the figures table goes to its dashboard: the one it names, or the only one there is. */
  private readFigure(row: Row, screens: Obj): void {
    if (!row.name) return;
    const dashboards = Object.entries(screens).filter(
      ([, screen]) => (screen as Obj | undefined)?.kind === 'dashboard',
    );
    const named = row.cells.get('dashboard');
    const at = named ?? row.name;
    const name = named?.value ?? (dashboards.length === 1 ? dashboards[0]?.[0] : undefined);
    const dashboard = name === undefined ? undefined : dashboards.find(([candidate]) => candidate === name);
    if (!dashboard || name === undefined) {
      const known = dashboards.map(([candidate]) => `"${candidate}"`).join(', ');
      this.issue(
        'unknown-reference',
        'error',
        named
          ? `Figure "${row.name.value}" is on dashboard "${named.value}", which is not a dashboard screen of point 2; the figure is ignored.`
          : `Figure "${row.name.value}" does not say on which dashboard it is, and there are ${dashboards.length} dashboards; the figure is ignored.`,
        ['screens'],
        at,
        dashboards.length > 0 ? `Name one of: ${known}.` : 'Add a dashboard screen to the screens table.',
      );
      return;
    }
    const screen = dashboard[1] as Obj;
    const path = ['screens', name, 'figures'];
    screen.figures ??= {};
    const items = screen.figures as Obj;
    const item: Obj = {};
    if (!this.addNamed(items, row.name, item, path, 'figures')) return;
    const itemPath = [...path, row.name.value];
    this.recordNamed(itemPath, row.name);
    this.fillRow(item, row, TABLES.figures, itemPath);
    delete item.dashboard;
  }

  // ---------------------------------------------------------------------------------------- 3. entities

  private readEntity(entity: Obj, sub: Subsection, path: PathSegment[]): void {
    const prose: RootContent[] = [];
    const fields: Obj = {};
    let fieldsAt: SourcePosition | undefined;
    this.readBlocks(sub.blocks, {
      table: (table) => {
        if (!this.tableSpec(table, [TABLES.fields], 'entities')) return;
        fieldsAt ??= this.at(table);
        this.readNamedRows(
          table,
          TABLES.fields,
          fields,
          [...path, 'fields'],
          `fields of ${path[1]}`,
          (field, row, at) => this.readField(field, row, at),
        );
      },
      other: (block) => prose.push(block),
      properties: { list: PROPERTIES.entity, target: entity, path },
    });
    this.setDescription(entity, path, prose);
    entity.fields = fields;
    this.record([...path, 'fields'], fieldsAt ?? this.at(sub.heading));
  }

  private readField(field: Obj, row: Row, path: PathSegment[]): void {
    const kind = row.cells.get('kind');
    if (kind) Object.assign(field, readType(this, kind, path));
    this.fillRow(field, row, TABLES.fields, path);
    // A default is written as a value of the field's kind.
    const k = field.kind;
    const type =
      k === 'number' || k === 'integer' || k === 'money' ? 'amount' : k === 'boolean' ? 'yesno' : 'text';
    this.setCell(field, path, 'default', type, row.cells.get('default'), 'Default');
  }

  // ---------------------------------------------------------------------------------------- 4. states

  private readMachine(machine: Obj, sub: Subsection, path: PathSegment[]): void {
    let states: Obj | undefined;
    const transitions: Obj = {};
    let transitionsAt: SourcePosition | undefined;
    this.readBlocks(sub.blocks, {
      table: (table) => {
        const spec = this.tableSpec(table, [TABLES.states, TABLES.transitions], 'states');
        if (spec === TABLES.states) {
          if (!states) this.record([...path, 'states'], this.at(table));
          states ??= {};
          this.readNamedRows(table, spec, states, [...path, 'states'], 'states');
        } else if (spec === TABLES.transitions) {
          transitionsAt ??= this.at(table);
          this.readNamedRows(table, spec, transitions, [...path, 'transitions'], 'transitions');
        }
      },
      other: (block) => this.note('states', block),
      properties: { list: PROPERTIES.machine, target: machine, path },
    });
    if (states) machine.states = states;
    machine.transitions = transitions;
    this.record([...path, 'transitions'], transitionsAt ?? this.at(sub.heading));
  }

  // ---------------------------------------------------------------------------------------- 5. validation

  private readValidation(input: readonly RootContent[]): Obj {
    const validation: Obj = {};
    let fields: Obj | undefined;
    let rules: unknown[] | undefined;
    this.readBlocks(this.flatten('validation', input), {
      table: (table) => {
        const spec = this.tableSpec(table, [TABLES.fieldConstraints, TABLES.rules], 'validation');
        if (spec === TABLES.fieldConstraints) {
          if (!fields) this.record(['validation', 'fields'], this.at(table));
          fields ??= {};
          this.readNamedRows(table, spec, fields, ['validation', 'fields'], 'constraints for');
        } else if (spec === TABLES.rules) {
          if (!rules) this.record(['validation', 'rules'], this.at(table));
          rules ??= [];
          this.readListedRows(table, spec, rules, ['validation', 'rules']);
        }
      },
      other: (block) => this.note('validation', block),
    });
    if (fields) validation.fields = fields;
    if (rules) validation.rules = rules;
    return validation;
  }

  // ---------------------------------------------------------------------------------------- 6. roles

  private readRoles(input: readonly RootContent[], section: Section): Obj {
    const result: Obj = {};
    const roles: Obj = {};
    const defined = new Set<string>();
    const grantsSeen = new Set<string>();
    /** Each role a permissions row names, at the first row that names it. */
    const granted = new Map<string, Text>();
    let rolesAt: SourcePosition | undefined;
    let signIn: Obj | undefined;
    const { intro, subs } = this.subsections(input);

    const readRoleBlocks = (blocks: readonly RootContent[], inSignIn: boolean) =>
      this.readBlocks(blocks, {
        table: (table) => {
          if (!this.tableSpec(table, [TABLES.roles, TABLES.permissions], 'roles')) return;
          rolesAt ??= this.at(table);
          const header = table.children[0];
          const hasEntity = header?.children.slice(1).some((cell) => norm(this.plain(cell)) === 'entity');
          if (hasEntity) this.readPermissions(table, roles, grantsSeen, granted);
          else this.readRoleTable(table, roles, defined);
        },
        other: (block) => {
          if (block.type === 'list' && this.isProperties(block, PROPERTIES.signIn)) {
            if (inSignIn && signIn) this.readSignIn(block, signIn);
            else
              this.unused(
                'roles',
                block,
                'sign-in properties belong under a "### Sign-in" heading.',
                'Add "### Sign-in" above the list.',
              );
          } else this.note('roles', block);
        },
      });

    readRoleBlocks(intro, false);
    for (const sub of subs) {
      const heading = this.plain(sub.heading);
      const isSignIn = SIGN_IN_HEADINGS.has(heading.toLowerCase().replace(/[^a-z]/g, ''));
      if (isSignIn && signIn) {
        this.issue(
          'duplicate-name',
          'error',
          'There are two sign-in subsections; the second one is ignored.',
          ['roles', 'signIn'],
          this.at(sub.heading),
        );
        continue;
      }
      if (isSignIn) {
        this.structured = true;
        signIn = {};
        this.record(['roles', 'signIn'], this.at(sub.heading), this.at(sub.heading));
      }
      readRoleBlocks(sub.blocks, isSignIn);
    }
    // A role is made by the roles table: a permissions row naming any other (a misspelling, a role
    // removed) would otherwise make a role of its own, with grants nobody meant.
    for (const [name, at] of granted) {
      if (defined.has(name)) continue;
      this.issue(
        'unknown-reference',
        'error',
        `The permissions table gives role "${name}" a grant, but the roles table of point 6 does not define "${name}".`,
        ['roles', 'roles', name],
        at,
        closest(name, [...defined]) !== undefined
          ? `Did you mean "${closest(name, [...defined])}"?`
          : `Add "${name}" to the roles table, or correct the name.`,
      );
    }
    if (signIn) result.signIn = signIn;
    else if (this.structured)
      this.issue(
        'missing-key',
        'error',
        'Section 6 (roles) has no "### Sign-in" subsection, so Ninefold does not know how people sign in.',
        ['roles', 'signIn'],
        this.at(section.heading),
        'Add "### Sign-in" with "- Kind: none" when nobody signs in, or "- Kind: password", "- Kind: oidc", ...',
      );
    result.roles = roles;
    this.record(['roles', 'roles'], rolesAt ?? this.at(section.heading));
    return result;
  }

  private readSignIn(list: List, signIn: Obj): void {
    const found = new Map<string, PropertyEntry>();
    const path = ['roles', 'signIn'];
    this.readProperties(list, PROPERTIES.signIn, path, found);
    // A later list of the subsection may not change what an earlier one gave.
    for (const [key, entry] of found) {
      if (Object.hasOwn(signIn, key)) {
        this.keyGivenTwice(entry.property, entry.key, path);
        found.delete(key);
      }
    }
    const kind = found.get('kind');
    if (kind && kind.value.length > 0) {
      const known = SIGN_IN_KINDS[norm(kind.value.value)];
      signIn.kind = known ?? word(kind.value.value);
      this.record([...path, 'kind'], kind.value, this.textStart(kind.key));
    }
    this.applyProperties(signIn, path, found);
  }

  private readRoleTable(table: Table, roles: Obj, defined: Set<string>): void {
    for (const row of this.readTable(table, TABLES.roles, ['roles', 'roles'])) {
      if (!row.name) continue;
      const name = row.name.value;
      const path = ['roles', 'roles', name];
      if (defined.has(name)) {
        this.issue(
          'duplicate-name',
          'error',
          `There are two roles named "${name}"; the second one is ignored.`,
          path,
          row.name,
        );
        continue;
      }
      defined.add(name);
      const role = (roles[name] as Obj | undefined) ?? {};
      setOwn(roles, name, role);
      this.recordNamed(path, row.name);
      this.fillRow(role, row, TABLES.roles, path);
    }
  }

  private readPermissions(table: Table, roles: Obj, seen: Set<string>, granted: Map<string, Text>): void {
    for (const row of this.readTable(table, TABLES.permissions, ['roles', 'roles'])) {
      if (!row.name) continue;
      const name = row.name.value;
      if (!granted.has(name)) granted.set(name, row.name);
      const entity = row.cells.get('entity');
      if (!entity) {
        this.issue(
          'missing-key',
          'error',
          `A permission of the role "${name}" names no entity; the row is ignored.`,
          ['roles', 'roles', name, 'can'],
          row.name,
        );
        continue;
      }
      const path = ['roles', 'roles', name, 'can', entity.value];
      const id = JSON.stringify([name, entity.value]);
      if (seen.has(id)) {
        this.issue(
          'duplicate-name',
          'error',
          `The role "${name}" has two rows for "${entity.value}"; the second one is ignored.`,
          path,
          entity,
        );
        continue;
      }
      seen.add(id);
      if (!Object.hasOwn(roles, name)) {
        setOwn(roles, name, {});
        this.recordNamed(['roles', 'roles', name], row.name);
      }
      const role = roles[name] as Obj;
      if (!role.can) this.record(['roles', 'roles', name, 'can'], row.name);
      const can = (role.can as Obj | undefined) ?? {};
      role.can = can;

      const actionsText = row.cells.get('actions');
      const actions = actionsText ? readActions(this, actionsText, path) : undefined;
      const grant: Obj = {};
      if (actions !== undefined) grant.actions = actions;
      this.fillRow(grant, row, TABLES.permissions, path);
      const onlyActions = Object.keys(grant).every((k) => k === 'actions') && actions !== undefined;
      if (onlyActions) {
        can[entity.value] = actions;
        this.record(path, actionsText, this.textStart(entity));
        if (Array.isArray(actions)) {
          // The bare form is the array itself: its elements sit one level up from `actions`.
          actions.forEach((_, i) => {
            this.copyPlace([...path, 'actions', i], [...path, i]);
          });
        }
      } else {
        can[entity.value] = grant;
        this.record(path, entity, this.textStart(entity));
        if (actionsText) this.record([...path, 'actions'], actionsText);
      }
    }
  }

  // ---------------------------------------------------------------------------------------- 7. calls

  private readCalls(input: readonly RootContent[]): Obj {
    const calls: Obj = {};
    const operations: Obj = {};
    let operationsAt: SourcePosition | undefined;
    this.readBlocks(this.flatten('calls', input), {
      table: (table) => {
        if (!this.tableSpec(table, [TABLES.calls], 'calls')) return;
        operationsAt ??= this.at(table);
        this.readNamedRows(table, TABLES.calls, operations, ['calls', 'operations'], 'calls');
      },
      other: (block) => this.note('calls', block),
      properties: { list: PROPERTIES.calls, target: calls, path: ['calls'] },
    });
    calls.operations = operations;
    this.record(['calls', 'operations'], operationsAt ?? this.locate(['calls']));
    return calls;
  }

  // ---------------------------------------------------------------------------------------- 8. errors

  private readErrors(input: readonly RootContent[]): unknown[] {
    const errors: unknown[] = [];
    this.readBlocks(this.flatten('errors', input), {
      table: (table) => this.readListedRows(table, TABLES.errors, errors, ['errors']),
      other: (block) => this.note('errors', block),
    });
    return errors;
  }

  // ---------------------------------------------------------------------------------------- 9. constants

  private readConstants(input: readonly RootContent[]): Obj {
    const constants: Obj = {};
    this.readBlocks(this.flatten('constants', input), {
      table: (table) => {
        if (this.tableSpec(table, [TABLES.constants], 'constants')) this.readConstantRows(table, constants);
      },
      other: (block) => this.note('constants', block),
    });
    return constants;
  }

  /** A constant with only a value is the value itself; one with a unit or meaning is an object. */
  private readConstantRows(table: Table, constants: Obj): void {
    for (const row of this.readTable(table, TABLES.constants, ['constants'])) {
      if (!row.name) continue;
      // Before its cells are read, so that a second row of the same name cannot move the first one's places.
      if (!this.addNamed(constants, row.name, undefined, ['constants'], 'constants')) continue;
      const path = ['constants', row.name.value];
      const valueText = row.cells.get('value');
      const value = valueText ? constantValue(valueText.value) : undefined;
      const details: Obj = {};
      this.fillRow(details, row, TABLES.constants, path);
      const bare = Object.keys(details).length === 0 && value !== undefined;
      constants[row.name.value] = bare ? value : { ...(value === undefined ? {} : { value }), ...details };
      if (bare) {
        this.record(path, valueText, this.textStart(row.name));
      } else {
        this.recordNamed(path, row.name);
        if (valueText) this.record([...path, 'value'], valueText);
      }
    }
  }
}

/**
 * Where a heading of point `n` is written but not read as one: text before its "##" on the line, or no
 * space after the hashes. Undefined when there is none.
 */
function brokenHeading(source: string, n: number): number | undefined {
  // Linear: each line start scans to its first "#" once (a text of long lines without one is fuzzed).
  const pattern = new RegExp(`^([^\\n#]*)(#{2,6})([ \\t]*)${n}[ \\t]*[.):]`, 'gm');
  for (const match of source.matchAll(pattern)) {
    const before = match[1] ?? '';
    // A well-formed heading is read as a section already; only a broken one is looked for here.
    if (before.trim() === '' && before.length < 4 && (match[3] ?? '') !== '') continue;
    return match.index + before.length;
  }
  return undefined;
}
