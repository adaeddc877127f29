import type { Call, Model, Parameter } from '@ninefold/model';

/**
 * Values an API asks for with its calls that no screen can know: an organisation, a tenant, an API
 * version, a required header. The person gives each once; it is kept for the tab (session storage,
 * never local storage) and sent with every call that names it, like a setting of the connection.
 */
export interface ConnectionValues {
  get(name: string): string | undefined;
  set(values: Readonly<Record<string, string>>): void;
}

/** Where the values live: the tab's session storage, one entry per API, or memory where there is none. */
export function createConnectionValues(apiBase: string, storage: Storage | undefined): ConnectionValues {
  const key = `ninefold:connection:${apiBase}`;
  let values: Record<string, string> = {};
  try {
    const stored = storage?.getItem(key);
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      for (const [name, value] of Object.entries(parsed)) if (typeof value === 'string') values[name] = value;
  } catch {
    // An unreadable entry is as good as none.
  }
  return {
    get: (name) => (Object.hasOwn(values, name) ? values[name] : undefined),
    set(next) {
      values = { ...values, ...next };
      try {
        storage?.setItem(key, JSON.stringify(values));
      } catch {
        // Full or refused storage: the values hold for this page.
      }
    },
  };
}

/**
 * The required query and header parameters of a call that the client must be given: not the path (the
 * route fills it), not the page, sort or filters (the screen fills them), and never the one that
 * carries an API key (a key in an address ends up in logs; the sign-in carries it, or nothing does).
 *
 * @example
 * askedParameters(model, listIssues).map((p) => p.name); // ['projectId', 'X-Api-Version']
 */
export function askedParameters(model: Model, call: Call): Parameter[] {
  const filled = new Set<string>(call.filters.map((filter) => filter.param));
  if (call.sort) filled.add(call.sort.param);
  const pagination = call.pagination;
  if (pagination !== undefined) {
    for (const value of Object.values(pagination)) if (typeof value === 'string') filled.add(value);
  }
  const signIn = model.roles.shown ? model.roles.signIn : undefined;
  const keyName = signIn?.kind === 'api-key' ? signIn.name.toLowerCase() : undefined;
  return call.parameters.filter(
    (parameter) =>
      parameter.required &&
      (parameter.in === 'query' || parameter.in === 'header') &&
      !filled.has(parameter.name) &&
      parameter.name.toLowerCase() !== keyName &&
      parameter.name.toLowerCase() !== 'authorization' &&
      !isSecretName(parameter.name),
  );
}

/** Names that say a secret: a token or key never goes in an address nor in the tab's storage. */
function isSecretName(name: string): boolean {
  return /^(?:api[-_]?key|key|token|access[-_]?token|secret|password)$/i.test(name);
}

/** The asked parameters of a call that have no value yet: what the screen must ask for. */
export function missingValues(model: Model, call: Call, values: ConnectionValues): Parameter[] {
  return askedParameters(model, call).filter((parameter) => !values.get(parameter.name));
}
