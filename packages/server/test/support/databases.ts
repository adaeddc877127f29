import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import pg from 'pg';

/** The PostgreSQL the suites use: the machine's local server, or NINEFOLD_TEST_PG. */
export const PG_URL = process.env.NINEFOLD_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Why PostgreSQL cannot be used here, or undefined when it can. */
export async function postgresUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `${PG_URL} is not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The databases a suite runs on. In CI PostgreSQL is required, so its absence fails the run; elsewhere
 * the PostgreSQL suite is skipped with one visible line saying why.
 */
export async function testDatabases(): Promise<
  Array<{ name: string; url: string; postgres: boolean; skip?: string }>
> {
  const reason = await postgresUnavailable();
  if (reason && process.env.CI === 'true') throw new Error(`CI must run the PostgreSQL suite: ${reason}`);
  if (reason) console.warn(`PostgreSQL suite skipped: ${reason}`);
  return [
    { name: 'SQLite', url: 'sqlite::memory:', postgres: false },
    { name: 'PostgreSQL', url: PG_URL, postgres: true, ...(reason ? { skip: reason } : {}) },
  ];
}

let counter = 0;
/** A schema name no other run or test uses, so suites do not interfere. */
export function uniqueSchema(label: string): string {
  counter++;
  return `nf_${label}_${process.pid}_${Date.now().toString(36)}_${counter}`.toLowerCase();
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

export function exampleModel(name = 'shop.yaml'): Model {
  const text = readFileSync(new URL(`../../../../examples/${name}`, import.meta.url), 'utf8');
  const result = loadSpec(text, { file: name });
  if (!result.ok || !result.model)
    throw new Error(`${name} must load cleanly: ${JSON.stringify(result.issues)}`);
  return result.model;
}

/** A PostgreSQL database made for one user alone (a real server process), and how to drop it. */
export interface TemporaryDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTemporaryDatabase(label: string): Promise<TemporaryDatabase> {
  const database = `nf_${label}_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${database}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${database}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Runs `work` with the URL of a PostgreSQL database made for it alone, dropped afterwards: for a real
 * `ninefold serve` process, which owns its database's tables.
 */
export async function withTemporaryDatabase<T>(label: string, work: (url: string) => Promise<T>): Promise<T> {
  const database = await createTemporaryDatabase(label);
  try {
    return await work(database.url);
  } finally {
    await database.drop();
  }
}
