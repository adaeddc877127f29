// PostgreSQL's catalog read into a `Catalog`, in one read-only transaction: the import never writes.
import pg from 'pg';
import type { Catalog, Check, Column, ColumnType, ForeignKey, Table } from '../catalog';
import { withoutPassword } from '../source';

/** Schemas that are PostgreSQL's own, or Ninefold's: never a team's tables. */
const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema', 'ninefold'];

const ON_DELETE: Record<string, ForeignKey['onDelete']> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/**
 * Reads every table and view of the database's schemas (or of `schemas`), with columns, keys, foreign
 * keys, unique constraints and indexes, CHECKs, enum types and comments. The transaction is `READ ONLY`:
 * PostgreSQL refuses any write in it, whatever the role may do.
 */
export async function readPostgres(url: string, schemas?: readonly string[]): Promise<Catalog> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN TRANSACTION READ ONLY');
    const relations = await client.query<{
      oid: number;
      schema: string;
      name: string;
      kind: string;
      comment: string | null;
    }>(
      `select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relkind as kind,
              obj_description(c.oid, 'pg_class') as comment
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm')
          and n.nspname <> all($1) and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'
          and ($2::text[] is null or n.nspname = any($2))
          and not c.relispartition
        order by n.nspname, c.relname`,
      [SYSTEM_SCHEMAS, schemas ?? null],
    );
    const oids = relations.rows.map((r) => r.oid);
    const columns = await client.query<{
      rel: number;
      num: number;
      name: string;
      notnull: boolean;
      formatted: string;
      typtype: string;
      typname: string;
      typschema: string;
      elemtype: string | null;
      elemname: string | null;
      elemschema: string | null;
      def: string | null;
      identity: string;
      generated: string;
      comment: string | null;
    }>(
      `select a.attrelid::int as rel, a.attnum::int as num, a.attname as name, a.attnotnull as notnull,
              format_type(a.atttypid, a.atttypmod) as formatted, t.typtype, t.typname, tn.nspname as typschema,
              et.typtype as elemtype, et.typname as elemname, etn.nspname as elemschema,
              pg_get_expr(d.adbin, d.adrelid) as def, a.attidentity::text as identity,
              a.attgenerated::text as generated, col_description(a.attrelid, a.attnum) as comment
         from pg_attribute a
         join pg_type t on t.oid = a.atttypid
         join pg_namespace tn on tn.oid = t.typnamespace
         left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
         left join pg_namespace etn on etn.oid = et.typnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attnum > 0 and not a.attisdropped and a.attrelid = any($1)
        order by a.attrelid, a.attnum`,
      [oids],
    );
    const enums = await client.query<{ schema: string; name: string; label: string }>(
      `select n.nspname as schema, t.typname as name, e.enumlabel as label
         from pg_enum e join pg_type t on t.oid = e.enumtypid join pg_namespace n on n.oid = t.typnamespace
        order by t.oid, e.enumsortorder`,
    );
    const constraints = await client.query<{
      rel: number;
      name: string;
      type: string;
      keys: number[];
      target: number | null;
      targetkeys: number[] | null;
      ondelete: string;
      def: string;
    }>(
      `select conrelid::int as rel, conname as name, contype::text as type, conkey::int[] as keys,
              nullif(confrelid, 0)::int as target, confkey::int[] as targetkeys, confdeltype::text as ondelete,
              pg_get_constraintdef(oid) as def
         from pg_constraint where conrelid = any($1) order by conname`,
      [oids],
    );
    const indexes = await client.query<{ rel: number; keys: string }>(
      `select indrelid::int as rel, indkey::text as keys from pg_index
        where indisunique and not indisprimary and indexprs is null and indpred is null and indrelid = any($1)`,
      [oids],
    );
    await client.query('COMMIT');

    const enumValues = new Map<string, string[]>();
    for (const row of enums.rows) {
      const key = `${row.schema}.${row.name}`;
      enumValues.set(key, [...(enumValues.get(key) ?? []), row.label]);
    }
    const byOid = new Map(relations.rows.map((r) => [r.oid, r]));
    const names = new Map<number, Map<number, string>>();
    for (const column of columns.rows) {
      const map = names.get(column.rel) ?? new Map<number, string>();
      map.set(column.num, column.name);
      names.set(column.rel, map);
    }
    const nameOf = (rel: number, num: number) => names.get(rel)?.get(num) ?? String(num);
    const qualified = (oid: number) => {
      const relation = byOid.get(oid);
      return relation ? `${relation.schema}.${relation.name}` : String(oid);
    };

    const tables: Table[] = relations.rows.map((relation) => {
      const own = constraints.rows.filter((c) => c.rel === relation.oid);
      const primary = own.find((c) => c.type === 'p');
      const uniques = [
        ...own.filter((c) => c.type === 'u').map((c) => c.keys.map((k) => nameOf(relation.oid, k))),
        ...indexes.rows
          .filter((i) => i.rel === relation.oid)
          .map((i) => i.keys.split(' ').map((k) => nameOf(relation.oid, Number(k)))),
      ];
      const foreignKeys: ForeignKey[] = own
        .filter((c) => c.type === 'f' && c.target !== null)
        .map((c) => ({
          name: c.name,
          columns: c.keys.map((k) => nameOf(relation.oid, k)),
          target: qualified(c.target as number),
          targetColumns: (c.targetkeys ?? []).map((k) => nameOf(c.target as number, k)),
          onDelete: ON_DELETE[c.ondelete] ?? 'no action',
        }));
      const checks: Check[] = own
        .filter((c) => c.type === 'c')
        .map((c) => ({
          name: c.name,
          expression: c.def.replace(/^CHECK\s*/i, '').replace(/\s+NOT VALID$/i, ''),
        }));
      const cols: Column[] = columns.rows
        .filter((c) => c.rel === relation.oid)
        .map((c) => ({
          name: c.name,
          type: columnType(c, enumValues),
          nullable: !c.notnull,
          ...(c.def !== null ? { default: c.def } : {}),
          ...(c.identity !== ''
            ? { generated: 'identity' as const }
            : c.generated !== ''
              ? { generated: 'computed' as const }
              : c.def?.startsWith('nextval(')
                ? { generated: 'serial' as const }
                : {}),
          ...(c.comment ? { comment: c.comment } : {}),
        }));
      return {
        schema: relation.schema,
        name: relation.name,
        kind: relation.kind === 'v' || relation.kind === 'm' ? 'view' : 'table',
        ...(relation.comment ? { comment: relation.comment } : {}),
        columns: cols,
        primaryKey: primary ? primary.keys.map((k) => nameOf(relation.oid, k)) : [],
        foreignKeys,
        uniques: dedupe(uniques),
        checks,
      };
    });
    return { dialect: 'postgres', source: withoutPassword(url), tables };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

function columnType(
  column: {
    formatted: string;
    typtype: string;
    typname: string;
    typschema: string;
    elemtype: string | null;
    elemname: string | null;
    elemschema: string | null;
  },
  enums: Map<string, string[]>,
): ColumnType {
  if (column.typtype === 'e') {
    return {
      kind: 'enum',
      type: column.typname,
      values: enums.get(`${column.typschema}.${column.typname}`) ?? [],
    };
  }
  if (column.elemname !== null) {
    const inner =
      column.elemtype === 'e'
        ? {
            kind: 'enum' as const,
            type: column.elemname,
            values: enums.get(`${column.elemschema}.${column.elemname}`) ?? [],
          }
        : scalarType(column.formatted.replace(/\[\]$/, ''), column.elemname);
    return { kind: 'array', of: inner };
  }
  return scalarType(column.formatted, column.typname);
}

/** A scalar type by its formatted name (`character varying(120)`, `numeric(10,2)`, `timestamp with time zone`). */
export function scalarType(formatted: string, name: string): ColumnType {
  const text = formatted.toLowerCase();
  const length = /^(?:character varying|varchar|character|char)\((\d+)\)/.exec(text);
  if (length) return { kind: 'text', maxLength: Number(length[1]) };
  if (/^(?:text|character varying|varchar|character|char|citext|name|bpchar)$/.test(text))
    return { kind: 'text' };
  if (text === 'smallint') return { kind: 'integer', bits: 16 };
  if (text === 'integer') return { kind: 'integer', bits: 32 };
  if (text === 'bigint') return { kind: 'integer', bits: 64 };
  const numeric = /^numeric(?:\((\d+)(?:,(\d+))?\))?$/.exec(text);
  if (numeric) {
    return {
      kind: 'decimal',
      ...(numeric[1] ? { precision: Number(numeric[1]) } : {}),
      ...(numeric[2] ? { scale: Number(numeric[2]) } : {}),
    };
  }
  if (text === 'real' || text === 'double precision') return { kind: 'float' };
  if (text === 'money') return { kind: 'money' };
  if (text === 'boolean') return { kind: 'boolean' };
  if (text === 'date') return { kind: 'date' };
  if (text.startsWith('timestamp')) return { kind: 'timestamp', zoned: text.includes('with time zone') };
  if (text.startsWith('time')) return { kind: 'time' };
  if (text === 'json' || text === 'jsonb') return { kind: 'json' };
  if (text === 'uuid') return { kind: 'uuid' };
  if (text === 'bytea') return { kind: 'bytes' };
  return { kind: 'other', name };
}

function dedupe(lists: string[][]): string[][] {
  const seen = new Set<string>();
  return lists.filter((list) => {
    const key = list.join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
