// Other programs write to a team's tables too (their own application, a person at psql). Ninefold puts
// no trigger on those tables, so it learns of such writes by asking the database, once a second, for a
// figure that any write moves: SQLite's `data_version` (it changes when another connection commits) and
// PostgreSQL's count of rows inserted, updated and deleted per table (`pg_stat_user_tables`, which a
// writer's session reports within about a second of its commit). A change is told to live updates as
// "records of this entity changed": open lists read their page again.
import { sql } from 'kysely';
import type { DynamicKysely } from './schema-sync';
import type { NewEvent } from './shared-state';
import type { PlannedTable } from './table-plan';

/** How often the database is asked. */
export const OUTSIDE_WRITES_MS = 1000;

export interface OutsideWrites {
  close(): void;
}

/** Figures per entity: when one moves, that entity's records changed. */
type Probe = () => Promise<Map<string, string>>;

/**
 * Asks `probe` every `interval` and tells `changed` of each entity whose figure moved since the last
 * answer. The first answer is the baseline; a probe that fails (a lost connection) is tried again.
 */
export function watchOutsideWrites(
  probe: Probe,
  changed: (event: NewEvent) => void,
  interval = OUTSIDE_WRITES_MS,
): OutsideWrites {
  let last: Map<string, string> | undefined;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const now = await probe();
      if (last) {
        for (const [entity, figure] of now) {
          if (last.get(entity) !== figure) changed({ entity, kind: 'changed', at: Date.now() });
        }
      }
      last = now;
    } catch {
      // The next tick asks again; live updates only wait longer meanwhile.
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), interval);
  timer.unref();
  return { close: () => clearInterval(timer) };
}

/** SQLite: one figure for the whole file, so every entity of a team's table is told of any change. */
export function sqliteProbe(tables: PlannedTable[], dataVersion: () => number): Probe {
  return async () => {
    const version = String(dataVersion());
    return new Map(tables.map((table) => [table.name, version]));
  };
}

/** PostgreSQL: the rows inserted, updated and deleted in each table, as its statistics count them. */
export function postgresProbe(db: DynamicKysely, tables: PlannedTable[]): Probe {
  const relations = tables.map((table) => ({
    entity: table.name,
    relation: `${quoted(table.existing?.schema ?? 'public')}.${quoted(table.existing?.name ?? table.name)}`,
  }));
  return async () => {
    const result = await sql<{ relation: string; figure: string }>`
      SELECT r.relation, COALESCE(s.n_tup_ins + s.n_tup_upd + s.n_tup_del, 0)::text AS figure
      FROM unnest(${relations.map((r) => r.relation)}::text[]) AS r(relation)
      LEFT JOIN pg_stat_user_tables s ON s.relid = to_regclass(r.relation)
    `.execute(db);
    const byRelation = new Map(result.rows.map((row) => [row.relation, row.figure]));
    return new Map(relations.map((r) => [r.entity, byRelation.get(r.relation) ?? '']));
  };
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
