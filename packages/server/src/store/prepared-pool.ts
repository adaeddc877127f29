import type { PostgresPool, PostgresPoolClient } from 'kysely';

/** How many statement texts get a name; past this, statements run unnamed (parsed and planned each time). */
const NAMED_STATEMENTS = 1000;
/** Only data statements are kept prepared: DDL takes no parameters and changes what others would plan. */
const DATA_STATEMENT = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

type Query = (
  first: string | { name: string; text: string; values: unknown[] } | object,
  values?: readonly unknown[],
) => unknown;

/**
 * A pool whose connections keep the store's statements prepared, by name. Kysely sends every query
 * unnamed, which PostgreSQL parses and plans at every call; the store's statements are few and built with
 * bound parameters, so naming each text once lets every connection reuse its plan (`pg` prepares a named
 * statement on a connection at its first use and only binds it after).
 */
export function preparedStatementsPool(pool: PostgresPool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= NAMED_STATEMENTS || !DATA_STATEMENT.test(text)) return known;
    const name = `ninefold_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  const prepared = new WeakSet<PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      if (!prepared.has(client)) {
        prepared.add(client);
        const query = client.query.bind(client) as unknown as Query;
        const named: Query = (first, values) => {
          const name = typeof first === 'string' && values && values.length > 0 ? nameOf(first) : undefined;
          return name === undefined
            ? query(first, values)
            : query({ name, text: first as string, values: [...(values ?? [])] });
        };
        client.query = named as unknown as PostgresPoolClient['query'];
      }
      return client;
    },
    end: () => pool.end(),
  };
}
