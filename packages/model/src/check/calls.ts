import type { PathSegment } from '../issues';
import type { Entity } from '../model';
import { type Context, isRecord, list, refer, referField, report, shownList, text } from './context';
import { checkAmount } from './validation';

// The checks of point 7 (the calls it makes). check/index.ts runs them in point order over one shared Context.

export function checkCalls(context: Context): void {
  const calls = shownList(context.model.calls, 'items');
  if (!calls) return;
  const seen = new Set<string>();
  const routes = new Map<string, string>();
  for (const call of calls) {
    if (!isRecord(call)) continue;
    const name = text(call.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['calls', 'operations', name];
    const owner = `call "${name}" (point 7)`;
    if (seen.has(name)) {
      report(context, 'duplicate-name', base, `${owner} is defined twice. Rename one of them.`);
      continue;
    }
    seen.add(name);

    if (typeof call.path === 'string') {
      const problem = callPathProblem(call.path);
      if (problem !== undefined) {
        report(
          context,
          'invalid-path',
          [...base, 'path'],
          `${owner} has path "${call.path}", which ${problem}`,
        );
      } else if (typeof call.method === 'string') {
        const shape = `${call.method.toUpperCase()} ${call.path.replace(/\{[^}]*\}/g, '{}')}`;
        const first = routes.get(shape);
        if (first !== undefined) {
          report(
            context,
            'conflicting-route',
            [...base, 'path'],
            `${owner} is ${call.method} ${call.path}, which is the same request as call "${first}". ` +
              'Remove one of them or change its method or path.',
          );
        } else {
          routes.set(shape, name);
        }
      }
    }

    const entity = refer<Entity>(context, 'entity', call.entity, [...base, 'entity'], owner);
    if (isRecord(call.body)) {
      const bodyEntity = refer<Entity>(
        context,
        'entity',
        call.body.entity,
        [...base, 'body'],
        `the body of ${owner}`,
      );
      for (const field of list(call.body.fields)) {
        referField(context, bodyEntity, field, [...base, 'body'], `the body of ${owner}`);
      }
    }
    let responseEntity: Entity | undefined;
    if (isRecord(call.response)) {
      responseEntity = refer<Entity>(
        context,
        'entity',
        call.response.entity,
        [...base, 'response'],
        `the response of ${owner}`,
      );
    }
    // Sorting and filtering are on the records the call lists.
    const listed =
      typeof call.entity === 'string' ? entity : isRecord(call.response) ? responseEntity : undefined;
    if (isRecord(call.sort)) {
      for (const field of list(call.sort.fields))
        referField(context, listed, field, [...base, 'sort'], owner);
    }
    for (const filter of list(call.filters)) {
      if (!isRecord(filter)) continue;
      referField(context, listed, filter.field, [...base, 'filters'], owner);
      const pattern = text(filter.pattern);
      if (pattern !== undefined && pattern.split('{value}').length !== 2)
        report(
          context,
          'invalid-value',
          [...base, 'filters'],
          `${owner} writes its filter on "${String(filter.field)}" as "${pattern}", which must hold {value} once, e.g. "%{value}%".`,
        );
    }
    checkSearch(context, call, listed, base, owner);
    if (isRecord(call.pagination)) {
      checkAmount(
        context,
        call.pagination.maxSize,
        [...base, 'pagination'],
        `the maximum page size of ${owner}`,
        'number',
      );
    }
  }
}

/** Free text is searched in text: a number or a date has no words to find. */
const SEARCHABLE_KINDS: readonly string[] = ['text', 'markdown', 'enum'];

function checkSearch(
  context: Context,
  call: Record<string, unknown>,
  listed: Entity | undefined,
  base: PathSegment[],
  owner: string,
): void {
  const search = call.search;
  const param = typeof search === 'string' ? search : isRecord(search) ? text(search.param) : undefined;
  if (param === undefined) return;
  const at = [...base, 'search'];
  if (!CALL_PARAMETER.test(param)) {
    report(
      context,
      'invalid-name',
      at,
      `${owner} searches with parameter "${param}", which is not a plain name. Use letters, digits, _, . and -.`,
    );
  }
  const taken = list(call.filters).some(
    (filter) =>
      (typeof filter === 'string' ? filter : isRecord(filter) ? (filter.param ?? filter.field) : '') ===
      param,
  );
  if (taken) {
    report(
      context,
      'duplicate-name',
      at,
      `${owner} uses "${param}" both for its search and for a filter. Give the search its own parameter, e.g. "q".`,
    );
  }
  if (!isRecord(search)) return;
  for (const name of list(search.fields)) {
    const field = referField(context, listed, name, at, owner);
    if (field !== undefined && !SEARCHABLE_KINDS.includes(field.kind)) {
      report(
        context,
        'kind-mismatch',
        at,
        `${owner} searches field "${String(name)}", a ${field.kind} field. Only text, markdown and enum fields are searched for words; filter on a ${field.kind} instead.`,
      );
    }
  }
}

export const CALL_PARAMETER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function callPathProblem(path: string): string | undefined {
  if (!path.startsWith('/'))
    return `does not start with "/". Write it as "/${path}", relative to the base URL.`;
  if (/[?#]/.test(path)) return "has a query or fragment. Put query parameters in the call's parameters.";
  if (/\s/.test(path)) return 'has spaces. Remove them or encode them as %20.';
  if (path.includes('//')) return 'has an empty segment ("//"). Remove it.';
  const names = new Set<string>();
  let rest = path;
  while (rest !== '') {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open === -1 && close === -1) break;
    if (open === -1 || (close !== -1 && close < open))
      return 'has a "}" without its "{". Write parameters as {name}.';
    const end = rest.indexOf('}', open);
    if (end === -1) return 'has a "{" without its "}". Write parameters as {name}.';
    const name = rest.slice(open + 1, end);
    if (!CALL_PARAMETER.test(name)) {
      return `has parameter "{${name}}", whose name is not a plain name. Use letters, digits and _.`;
    }
    if (names.has(name)) return `has parameter "{${name}}" twice. Give each parameter its own name.`;
    names.add(name);
    rest = rest.slice(end + 1);
  }
  const colon = path.split('/').find((segment) => segment.startsWith(':'));
  if (colon !== undefined) {
    return `has segment "${colon}". Call parameters are written {name}, e.g. "{${colon.slice(1)}}".`;
  }
  return undefined;
}
