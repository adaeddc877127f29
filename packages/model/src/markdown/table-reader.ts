import type { List, ListItem, RootContent, Table, TableRow } from 'mdast';
import type { PathSegment } from '../issues';
import { CELL_GRAMMARS } from './cell-grammars';
import { LocatedSource } from './located-source';
import { listOf, setOwn, type Text } from './located-text';
import { type CellType, NameIndex, type Property, type TableSpec } from './table-specs';
import { norm } from './words';

type Obj = Record<string, unknown>;

/** A table row with content: its name (the first cell, when the table names its rows) and its cells. */
export interface Row {
  node: TableRow;
  name?: Text;
  cells: Map<string, Text>;
}

/** One `Key: value` item of a properties list. */
export interface PropertyEntry {
  property: Property;
  key: Text;
  value: Text;
  /** Texts of a nested list under the item, for list-valued properties. */
  nested: Text[];
}

/** How the blocks of a point or subsection are read (see `readBlocks`). */
export interface BlockReaders {
  table(table: Table): void;
  other(block: RootContent): void;
  /** Properties lists of these keys, read into `target` at `path`. */
  properties?: { list: readonly Property[]; target: Obj; path: PathSegment[] };
}

/**
 * The reader's generic machinery for the convention's tables and properties lists: it follows a
 * `TableSpec` or a list of `Property` keys, reads each cell with its grammar, records where every value
 * came from, and reports unknown, repeated and missing columns and keys. The points' own reading is in
 * `markdown/read.ts`.
 *
 * @example
 * ```ts
 * class ScreensReader extends TableReader {
 *   screens(table: Table): Obj {
 *     const screens = {};
 *     this.readNamedRows(table, TABLES.screens, screens, ['screens'], 'screens');
 *     return screens;
 *   }
 * }
 * ```
 */
export class TableReader extends LocatedSource {
  /** Whether the section being read has a table, properties list or subsection that the point uses. */
  protected structured = false;

  /**
   * Reads the blocks of a point or subsection in order: tables through `table`, properties lists of the
   * given keys, and anything else through `other`. The lists share their keys (one given again in a later
   * list is reported), and their values go into the target after the last block.
   */
  protected readBlocks(blocks: readonly RootContent[], readers: BlockReaders): void {
    const properties = readers.properties;
    const found = new Map<string, PropertyEntry>();
    for (const block of blocks) {
      if (block.type === 'table') readers.table(block);
      else if (properties && block.type === 'list' && this.isProperties(block, properties.list)) {
        this.readProperties(block, properties.list, properties.path, found);
      } else readers.other(block);
    }
    if (properties) this.applyProperties(properties.target, properties.path, found);
  }

  // ---------------------------------------------------------------------------------------- tables

  /** The rows of a table that have content, with their cells by column key; a row without a name is reported. */
  protected readTable(table: Table, spec: TableSpec, path: readonly PathSegment[]): Row[] {
    this.structured = true;
    const [header, ...body] = table.children;
    if (!header) return [];
    const keys = this.readHeader(header, spec, path);
    const rows: Row[] = [];
    for (const row of body) {
      const texts = row.children.map((cell) => this.inline(cell).trim());
      if (texts.every((t) => t.length === 0)) continue;
      const cells = new Map<string, Text>();
      texts.forEach((text, index) => {
        if (index === 0 && spec.name) return;
        const key = keys[index];
        if (text.length === 0) return;
        // A cell past the header's columns is reported once for its row (cell-count, by the reader).
        if (index >= keys.length) return;
        if (key) cells.set(key, text);
      });
      const entry: Row = { node: row, cells };
      if (spec.name) {
        const name = texts[0];
        if (!name || name.length === 0) {
          if (!spec.name.optional) {
            this.issue(
              'missing-key',
              'error',
              `A row of the ${spec.what} has no name in its first column ("${spec.name.label}"); the row is ignored.`,
              path,
              this.at(row),
              `Write the name in the "${spec.name.label}" column.`,
            );
            continue;
          }
        } else entry.name = name;
      }
      rows.push(entry);
    }
    return rows;
  }

  /**
   * The column key of each header cell: undefined for the name column and for a column that is unknown or
   * repeated (both reported). A required column that is missing is reported too.
   */
  private readHeader(
    header: TableRow,
    spec: TableSpec,
    path: readonly PathSegment[],
  ): Array<string | undefined> {
    const keys: Array<string | undefined> = [];
    const seen = new Set<string>();
    const known = new NameIndex(spec.columns);
    header.children.forEach((cell, index) => {
      if (index === 0 && spec.name) {
        keys.push(undefined);
        return;
      }
      const text = this.plain(cell);
      const n = norm(text);
      const column = known.find(n);
      if (!column) {
        keys.push(undefined);
        if (text === '') return;
        const best = known.closest(n);
        this.issue(
          'unknown-column',
          'error',
          `The ${spec.what} has a column "${text}" that Ninefold does not know; its cells are ignored.`,
          path,
          this.at(cell),
          best
            ? `did you mean "${best.label}"?`
            : `The columns are: ${[spec.name?.label, ...spec.columns.map((c) => c.label)].filter(Boolean).join(', ')}.`,
        );
        return;
      }
      if (seen.has(column.key)) {
        keys.push(undefined);
        this.issue(
          'duplicate-key',
          'error',
          `The ${spec.what} has the column "${column.label}" twice; the second one is ignored.`,
          path,
          this.at(cell),
        );
        return;
      }
      seen.add(column.key);
      keys.push(column.key);
    });
    for (const column of spec.columns) {
      if (column.required && !seen.has(column.key)) {
        this.issue(
          'missing-column',
          'error',
          `The ${spec.what} has no "${column.label}" column, which every row needs.`,
          path,
          this.at(header),
          `Add a "${column.label}" column.`,
        );
      }
    }
    return keys;
  }

  /**
   * Reads each named row of a table as an item of `items` (at `path`, named by its first cell), filled by
   * `fill`: by default from its cells as the spec says. A name given twice is reported.
   */
  protected readNamedRows(
    table: Table,
    spec: TableSpec,
    items: Obj,
    path: readonly PathSegment[],
    what: string,
    fill = (item: Obj, row: Row, itemPath: PathSegment[]) => this.fillRow(item, row, spec, itemPath),
  ): void {
    for (const row of this.readTable(table, spec, path)) {
      if (!row.name) continue;
      const item: Obj = {};
      if (!this.addNamed(items, row.name, item, path, what)) continue;
      const itemPath = [...path, row.name.value];
      this.recordNamed(itemPath, row.name);
      fill(item, row, itemPath);
    }
  }

  /** Reads each row of a table as the next item of `items` (at `path`); a name, if the row has one, is kept. */
  protected readListedRows(
    table: Table,
    spec: TableSpec,
    items: unknown[],
    path: readonly PathSegment[],
  ): void {
    for (const row of this.readTable(table, spec, path)) {
      const item: Obj = {};
      const itemPath = [...path, items.length];
      items.push(item);
      this.record(itemPath, row.name ?? this.at(row.node));
      if (row.name) {
        item.name = row.name.value;
        this.record([...itemPath, 'name'], row.name);
      }
      this.fillRow(item, row, spec, itemPath);
    }
  }

  /** Adds a named item to a map once; the same name again is reported and ignored. */
  protected addNamed(map: Obj, name: Text, value: Obj | unknown, path: readonly PathSegment[], what: string) {
    if (Object.hasOwn(map, name.value)) {
      this.issue(
        'duplicate-name',
        'error',
        `There are two ${what} named "${name.value}"; the second one is ignored.`,
        [...path, name.value],
        name,
      );
      return false;
    }
    setOwn(map, name.value, value);
    return true;
  }

  /** Reads the cells of a row that are not `custom`, in the order of the spec's columns. */
  protected fillRow(target: Obj, row: Row, spec: TableSpec, path: readonly PathSegment[]): void {
    for (const column of spec.columns) {
      this.setCell(target, path, column.key, column.type, row.cells.get(column.key), column.label);
    }
  }

  /** Reads a cell or property value by its grammar into `target[key]`; an empty or unreadable one is left out. */
  protected setCell(
    target: Obj,
    path: readonly PathSegment[],
    key: string,
    type: CellType,
    text: Text | undefined,
    label: string,
  ): void {
    if (!text || text.length === 0 || type === 'custom') return;
    const value = CELL_GRAMMARS[type](this, text, [...path, key], label);
    if (value !== undefined) target[key] = value;
  }

  // ---------------------------------------------------------------------------------------- properties lists

  private propertyKey(item: ListItem): { key: Text; value: Text } | undefined {
    const first = item.children[0];
    if (first?.type !== 'paragraph') return undefined;
    const text = this.inline(first);
    const colon = text.indexOf(':');
    if (colon <= 0) return undefined;
    return { key: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
  }

  /** A list is a properties list when one of its items starts with a known key and a colon. */
  protected isProperties(list: List, properties: readonly Property[]): boolean {
    const known = new NameIndex(properties);
    return list.children.some((item, index) => {
      const kv = this.propertyKey(item);
      if (!kv || kv.key.length > 40) return false;
      const n = norm(kv.key.value);
      if (n === '') return false;
      return known.find(n) !== undefined || (index === 0 && known.closest(n) !== undefined);
    });
  }

  protected readProperties(
    list: List,
    properties: readonly Property[],
    path: readonly PathSegment[],
    found: Map<string, PropertyEntry>,
  ): void {
    this.structured = true;
    const known = new NameIndex(properties);
    const keysHint = `The keys here are: ${properties.map((p) => p.label).join(', ')}.`;
    for (const item of list.children) {
      const kv = this.propertyKey(item);
      if (!kv || kv.key.length === 0) {
        const first = item.children[0];
        this.issue(
          'unreadable-cell',
          'error',
          `The list item "${first ? this.plain(first) : ''}" should read "Key: value"; it is ignored.`,
          path,
          this.at(item),
          keysHint,
        );
        continue;
      }
      const n = norm(kv.key.value);
      const property = known.find(n);
      if (!property) {
        const best = known.closest(n);
        this.issue(
          'unknown-key',
          'error',
          `"${kv.key.value}" is not a property Ninefold knows here; it is ignored.`,
          path,
          kv.key,
          best ? `did you mean "${best.label}"?` : keysHint,
        );
        continue;
      }
      if (found.has(property.key)) {
        this.keyGivenTwice(property, kv.key, path);
        continue;
      }
      const nested: Text[] = [];
      for (const child of item.children.slice(1)) {
        if (child.type === 'list' && property.type === 'list') {
          for (const sub of child.children) {
            const para = sub.children[0];
            if (para?.type === 'paragraph') nested.push(this.inline(para).trim());
          }
        } else {
          this.issue(
            'unused-content',
            'warning',
            `The content under "${property.label}" is not used: a property's value is the text after the colon.`,
            [...path, property.key],
            this.at(child),
          );
        }
      }
      found.set(property.key, { property, key: kv.key, value: kv.value, nested });
    }
  }

  protected keyGivenTwice(property: Property, key: Text, path: readonly PathSegment[]): void {
    this.issue(
      'duplicate-key',
      'error',
      `"${property.label}" is given twice; the second one is ignored.`,
      [...path, property.key],
      key,
    );
  }

  /** Applies the properties that are not `custom` to a target object. */
  protected applyProperties(target: Obj, path: readonly PathSegment[], found: Map<string, PropertyEntry>) {
    for (const [key, entry] of found) {
      const at = [...path, key];
      if (entry.property.type === 'list') {
        const values = [...listOf(entry.value), ...entry.nested.filter((t) => t.length > 0)];
        if (values.length === 0) continue;
        target[key] = values.map((v) => v.value);
        values.forEach((v, i) => {
          this.record([...at, i], v);
        });
        this.record(at, entry.value.length > 0 ? entry.value : values[0], this.textStart(entry.key));
        continue;
      }
      if (entry.property.type === 'custom') continue;
      this.setCell(target, path, key, entry.property.type, entry.value, entry.property.label);
      this.recordKey(at, entry.key);
    }
  }
}
