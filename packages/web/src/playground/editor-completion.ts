import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { markdownVocabulary } from '@ninefold/model';

// Suggestions while typing a specification. Markdown: the nine section headings, a section's table
// headers and its `- Property:` lines, from the words the reader itself follows. YAML: the keys and the
// values the published JSON Schema (schema/ninefold.schema.json) allows where the cursor is.

const VOCABULARY = markdownVocabulary();

/** Completes `## 3. Entities and fields`, table headers and properties of the section the cursor is in. */
export function markdownCompletion(context: CompletionContext): CompletionResult | null {
  const line = context.state.doc.lineAt(context.pos);
  const before = line.text.slice(0, context.pos - line.from);
  if (/^#{1,2}\s*[\w .]*$/.test(before)) {
    return {
      from: line.from,
      options: VOCABULARY.map((section) => ({
        label: `## ${section.number}. ${section.title}`,
        type: 'keyword',
        detail: `point ${section.number}`,
      })),
      validFor: /^#{0,2}\s*[\w .]*$/,
    };
  }
  const section = sectionAt(context);
  if (!section) return null;
  if (/^\|[^|]*$/.test(before) && !/^\|\s*-/.test(before)) {
    // A new table: its whole header row, then its separator.
    return {
      from: line.from,
      options: section.tables.map((table) => ({
        label: `| ${table.header.join(' | ')} |`,
        apply: `| ${table.header.join(' | ')} |\n|${' --- |'.repeat(table.header.length)}\n`,
        type: 'class',
        detail: table.what,
      })),
    };
  }
  const property = /^-\s*(\w*)$/.exec(before);
  if (property && section.properties.length > 0) {
    return {
      from: context.pos - (property[1]?.length ?? 0),
      options: section.properties.map((name) => ({ label: `${name}: `, type: 'property' })),
      validFor: /^\w*$/,
    };
  }
  return null;
}

/** The `##` section above the cursor, by its number. */
function sectionAt(context: CompletionContext) {
  const doc = context.state.doc;
  for (let number = doc.lineAt(context.pos).number - 1; number >= 1; number--) {
    const match = /^##\s+(\d)\b/.exec(doc.line(number).text);
    if (match) return VOCABULARY.find((section) => section.number === Number(match[1]));
  }
  return undefined;
}

/** A JSON Schema, as far as completion reads one. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  $defs?: Record<string, Schema>;
}

/** Completes YAML keys and values from a JSON Schema, by the indentation path to the cursor. */
export function yamlCompletion(root: Schema) {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const lines: string[] = [];
    for (let number = 1; number < line.number; number++) lines.push(context.state.doc.line(number).text);
    const value = /^(\s*(?:-\s+)?)([\w$-]+):\s+([\w-]*)$/.exec(before);
    if (value) {
      const path = [...yamlPathAt(lines, before), value[2] as string];
      const options = valueOptions(root, resolveAll(root, path));
      if (options.length === 0) return null;
      return { from: context.pos - (value[3]?.length ?? 0), options, validFor: /^[\w-]*$/ };
    }
    const key = /^(\s*(?:-\s+)?)([\w$-]*)$/.exec(before);
    if (!key) return null;
    if (!context.explicit && (key[2] ?? '') === '' && !/-\s+$/.test(key[1] ?? '')) return null;
    const schemas = resolveAll(root, yamlPathAt(lines, before));
    const options: Completion[] = [];
    const seen = new Set<string>();
    for (const schema of schemas) {
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (seen.has(name)) continue;
        seen.add(name);
        options.push({
          label: name,
          apply: `${name}: `,
          type: 'property',
          ...(describe(root, property) ? { info: describe(root, property) } : {}),
        });
      }
    }
    if (options.length === 0) return null;
    return { from: context.pos - (key[2]?.length ?? 0), options, validFor: /^[\w$-]*$/ };
  };
}

/**
 * The keys from the document's root to the mapping the cursor's line belongs to, `*` for a list item:
 * `['entities', 'Order', 'fields', '*']`. Read from indentation, which is how YAML nests blocks; flow
 * collections (`{…}`, `[…]`) are not followed.
 */
export function yamlPathAt(lines: readonly string[], current: string): string[] {
  const path: string[] = [];
  const dash = /^(\s*)-\s/.exec(current);
  let limit = dash ? (dash[1]?.length ?? 0) : (/^\s*/.exec(current)?.[0].length ?? 0);
  if (dash) path.unshift('*');
  for (let index = lines.length - 1; index >= 0 && limit > 0; index--) {
    const text = lines[index] as string;
    if (/^\s*(#.*)?$/.test(text)) continue;
    const indent = /^\s*/.exec(text)?.[0].length ?? 0;
    if (indent >= limit) continue;
    const item = /^(\s*)-\s+(?:([\w$-]+):\s*(#.*)?$)?/.exec(text);
    if (item) {
      // `- fields:` opens a mapping inside a list item when the cursor is deeper than its key.
      if (item[2] !== undefined && indent + 2 < limit) path.unshift(item[2]);
      path.unshift('*');
      limit = indent;
      continue;
    }
    const opener = /^\s*([\w$-]+):\s*(#.*)?$/.exec(text);
    if (opener) {
      path.unshift(opener[1] as string);
      limit = indent;
    }
  }
  return path;
}

/** Every schema the path may lead to, `$ref`s followed and unions opened. */
function resolveAll(root: Schema, path: readonly string[]): Schema[] {
  let current = expand(root, root);
  for (const segment of path) {
    const next: Schema[] = [];
    for (const schema of current) {
      const child =
        segment === '*'
          ? schema.items
          : (schema.properties?.[segment] ??
            (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined));
      if (child) next.push(...expand(root, child));
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

function expand(root: Schema, schema: Schema, depth = 0): Schema[] {
  if (depth > 8) return [];
  if (schema.$ref) {
    const name = /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name === undefined ? undefined : root.$defs?.[name];
    return target ? expand(root, target, depth + 1) : [];
  }
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  if (parts.length === 0) return [schema];
  return [schema, ...parts.flatMap((part) => expand(root, part, depth + 1))];
}

function valueOptions(root: Schema, schemas: Schema[]): Completion[] {
  const values = new Set<string>();
  for (const schema of schemas.flatMap((item) => expand(root, item))) {
    for (const value of schema.enum ?? []) if (typeof value !== 'object') values.add(String(value));
    if (schema.const !== undefined && typeof schema.const !== 'object') values.add(String(schema.const));
    if (schema.type === 'boolean') for (const value of ['true', 'false']) values.add(value);
  }
  return [...values].map((label) => ({ label, type: 'enum' }));
}

function describe(root: Schema, schema: Schema): string | undefined {
  return expand(root, schema).find((item) => item.description)?.description;
}
