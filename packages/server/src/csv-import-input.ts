// What an import is asked to do, read strictly before any row is: its options, its rows (CSV or JSON)
// and which column holds which field (csv-import.ts imports them).
import { type Entity, entityLabel, type Field, fieldAccess, fieldLabel, uniqueFields } from '@ninefold/spec';
import { parse } from 'csv-parse/sync';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './access';
import { clip, ProblemError, problem } from './problem';
import type { Context } from './record-context';
import { machineOf, withDefaults } from './record-helpers';

/** Rows one request may carry: a larger file is sent in parts. */
export const MAX_IMPORT_ROWS = 100_000;
/** A cell longer than this is not a value a form could have taken either. */
export const MAX_CELL_CHARS = 1_000_000;

export interface ImportOptions {
  dryRun: boolean;
  /** A unique field (or the key) that finds the record a row is about, when it exists. */
  match?: string;
  /** What a row matching an existing record does. */
  existing: 'skip' | 'update';
  /** The file's row number of the first row sent (a header is row 1), for the report's row numbers. */
  firstRow: number;
}

/** A column left unread, and why. */
export interface IgnoredColumn {
  column: string;
  reason: string;
}

/** The import's options from the query, strictly: an unknown one, or a bad value, is a 400 saying which. */
export function importOptions(entity: Entity, context: Context, request: FastifyRequest): ImportOptions {
  const query = (request.query ?? {}) as Record<string, string | string[] | undefined>;
  const problems: string[] = [];
  const one = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value.at(-1) : value;
  };
  for (const name of Object.keys(query)) {
    if (!['dryRun', 'match', 'existing', 'firstRow'].includes(name)) {
      problems.push(
        `"${clip(name)}" is not a parameter of an import; it takes dryRun, match, existing and firstRow.`,
      );
    }
  }
  const dry = one('dryRun') ?? 'false';
  if (dry !== 'true' && dry !== 'false') problems.push(`"dryRun" is true or false, not "${clip(dry)}".`);
  const existing = one('existing') ?? 'skip';
  if (existing !== 'skip' && existing !== 'update')
    problems.push(`"existing" is skip or update, not "${clip(existing)}".`);
  const first = one('firstRow') ?? '2';
  if (!/^\d{1,9}$/.test(first) || Number(first) < 1)
    problems.push(`"firstRow" is a row number from 1, not "${clip(first)}".`);
  const match = one('match');
  const unique = uniqueFields(context.model, entity);
  if (match !== undefined && !unique.includes(match)) {
    problems.push(
      `"match" names a field no two ${entityLabel(entity)} records share: ${unique.join(', ') || 'none'}; not "${clip(match)}".`,
    );
  }
  if (problems.length > 0) throw new ProblemError(problem(400, 'INVALID_QUERY', problems.join(' ')));
  return {
    dryRun: dry === 'true',
    ...(match === undefined ? {} : { match }),
    existing: existing as ImportOptions['existing'],
    firstRow: Number(first),
  };
}

/** The rows of the body: CSV with a header row, or JSON `{ rows: [{ column: text }] }`. */
export function rowsOf(body: unknown): Array<Record<string, string>> {
  let rows: unknown;
  if (typeof body === 'string') {
    if (body.trim() === '')
      throw new ProblemError(
        problem(400, 'EMPTY_FILE', 'The file is empty: it has no header row and no rows.'),
      );
    try {
      rows = parse(body, {
        bom: true,
        columns: true,
        skip_empty_lines: true,
        max_record_size: MAX_CELL_CHARS * 4,
      });
    } catch (error) {
      throw new ProblemError(
        problem(
          400,
          'BAD_CSV',
          `The file is not CSV this import can read: ${clip((error as Error).message)}`,
        ),
      );
    }
  } else if (body !== null && typeof body === 'object' && Array.isArray((body as { rows?: unknown }).rows)) {
    rows = (body as { rows: unknown[] }).rows;
  } else {
    throw new ProblemError(
      problem(
        400,
        'BAD_REQUEST',
        'Send the rows as text/csv with a header row, or as JSON { "rows": [{ "column": "text" }] }.',
      ),
    );
  }
  const list = rows as unknown[];
  if (list.length === 0)
    throw new ProblemError(problem(400, 'EMPTY_FILE', 'The file has a header row but no rows.'));
  if (list.length > MAX_IMPORT_ROWS) {
    throw new ProblemError(
      problem(
        413,
        'TOO_MANY_ROWS',
        `${list.length.toLocaleString('en')} rows are more than one request takes (${MAX_IMPORT_ROWS.toLocaleString('en')}); send the file in parts with firstRow.`,
      ),
    );
  }
  for (const [index, row] of list.entries()) {
    if (
      row === null ||
      typeof row !== 'object' ||
      Array.isArray(row) ||
      Object.values(row).some((value) => typeof value !== 'string')
    ) {
      throw new ProblemError(
        problem(400, 'BAD_REQUEST', `Row ${index + 1} is not an object of texts, one per column.`),
      );
    }
  }
  return list as Array<Record<string, string>>;
}

/**
 * Which column holds which field: a column named like a field (its name or label, in any case) that the
 * role may write; every other column is left aside with the reason. A file without a column a new record
 * needs is refused before any row is read.
 */
export function columnPlan(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  headers: string[],
  options: ImportOptions,
): { fields: Map<string, Field>; ignored: IgnoredColumn[] } {
  const { model } = context;
  const access = fieldAccess(model, principalOf(request), entity.name);
  const machine = machineOf(model, entity);
  const fields = new Map<string, Field>();
  const ignored: IgnoredColumn[] = [];
  const taken = new Set<string>();
  for (const header of headers) {
    const wanted = header.trim().toLowerCase();
    const field = entity.fields.find(
      (candidate) =>
        candidate.name.toLowerCase() === wanted || fieldLabel(candidate).toLowerCase() === wanted,
    );
    const reason = !field
      ? `it is not a field of ${entityLabel(entity)}`
      : taken.has(field.name)
        ? `another column holds ${fieldLabel(field)} already`
        : field.name === options.match
          ? undefined
          : field.kind === 'file'
            ? 'files are not imported from CSV'
            : field.readOnly || field.derived !== undefined || field.name === machine?.field
              ? 'the API sets it'
              : access.hidden.has(field.name) || access.readOnly.has(field.name)
                ? 'your role may not write it'
                : undefined;
    if (reason !== undefined || !field) ignored.push({ column: header, reason: reason ?? 'unknown' });
    else {
      fields.set(header, field);
      taken.add(field.name);
    }
  }
  const missing = requiredFields(context, entity).filter((name) => !taken.has(name));
  if (missing.length > 0 && options.existing !== 'update') {
    const labels = missing.map((name) =>
      fieldLabel(entity.fields.find((field) => field.name === name) ?? { name }),
    );
    throw new ProblemError(
      problem(
        422,
        'MISSING_COLUMNS',
        `The file has no column for ${labels.join(', ')}, which every ${entityLabel(entity)} needs.`,
        {
          errors: missing.map((name) => ({
            pointer: `/${name}`,
            code: 'required',
            detail: 'No column holds it.',
          })),
        },
      ),
    );
  }
  return { fields, ignored };
}

/** Fields point 5 requires that nobody else gives: no default, not set by the API. */
function requiredFields(context: Context, entity: Entity): string[] {
  const model = context.model;
  if (!model.validation.shown) return [];
  const defaults = withDefaults(entity, {}, false);
  return model.validation.fields
    .filter(
      (constraint) =>
        constraint.entity === entity.name && constraint.required && constraint.field.length === 1,
    )
    .map((constraint) => constraint.field[0] as string)
    .filter((name) => {
      const field = entity.fields.find((candidate) => candidate.name === name);
      return (
        field &&
        !field.readOnly &&
        field.derived === undefined &&
        field.setOnCreate === undefined &&
        defaults[name] === undefined
      );
    });
}
