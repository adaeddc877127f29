import { didYouMean } from '../authoring/suggest';
import { exhaustiveSwitchError } from '../exhaustive';
import type { PathSegment } from '../issues';
import { type Entity, SCREEN_KINDS, type Screen, type ScreenKind } from '../model';
import { type Context, isRecord, list, refer, referField, report, shownList, text } from './context';
import { checkFigures } from './figures';
import { checkAmount } from './validation';

// The checks of point 2 (screens and routes). check/index.ts runs them in point order over one shared Context.

export function checkScreens(context: Context): void {
  const screens = shownList(context.model.screens, 'items');
  if (!screens) return;
  const seen = new Set<string>();
  const routes = new Map<string, string>();
  for (const screen of screens) {
    if (!isRecord(screen)) continue;
    const name = text(screen.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['screens', name];
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        base,
        `Screen "${name}" is defined twice in point 2 (screens and routes). Rename one of them.`,
      );
      continue;
    }
    seen.add(name);
    const owner = `screen "${name}" (point 2)`;
    const kind = SCREEN_KINDS.find((known) => known === screen.kind);
    if (kind === undefined) {
      report(
        context,
        'invalid-value',
        [...base, 'kind'],
        `${owner} has kind "${String(screen.kind)}", which is not a screen kind. Use one of: ${SCREEN_KINDS.join(', ')}.`,
        { hint: typeof screen.kind === 'string' ? didYouMean(screen.kind, SCREEN_KINDS) : undefined },
      );
    } else {
      checkScreenOfKind(context, screen, kind, base, owner);
    }
    checkRoute(context, screen, kind, base, owner, routes);
    list(screen.roles).forEach((role, index) => {
      refer(context, 'role', role, [...base, 'roles', index], owner);
    });
  }
}

export function checkScreenOfKind(
  context: Context,
  raw: Record<string, unknown>,
  kind: ScreenKind,
  base: PathSegment[],
  owner: string,
): void {
  switch (kind) {
    case 'list': {
      const entity = screenEntity(context, raw, base, owner, true);
      list(raw.columns).forEach((field, index) => {
        referField(context, entity, field, [...base, 'columns', index], owner);
      });
      list(raw.filters).forEach((field, index) => {
        referField(context, entity, field, [...base, 'filters', index], owner);
      });
      list(raw.sort).forEach((key, index) => {
        if (isRecord(key)) referField(context, entity, key.field, [...base, 'sort', index], owner);
      });
      checkAmount(context, raw.pageSize, [...base, 'pageSize'], `the page size of ${owner}`, 'number');
      list(raw.card).forEach((field, index) => {
        referField(context, entity, field, [...base, 'card', index], owner);
      });
      return;
    }
    case 'detail':
    case 'create':
    case 'edit': {
      const entity = screenEntity(context, raw, base, owner, true);
      list(raw.fields).forEach((field, index) => {
        referField(context, entity, field, [...base, 'fields', index], owner);
      });
      return;
    }
    case 'dashboard': {
      const listScreens = [...(context.screens?.values() ?? [])]
        .filter((candidate) => candidate.kind === 'list')
        .map((candidate) => candidate.name);
      list(raw.tiles).forEach((tile, index) => {
        const path = [...base, 'tiles', index];
        const target = refer<Screen>(context, 'screen', tile, path, owner, listScreens);
        if (target !== undefined && target.kind !== 'list') {
          report(
            context,
            'kind-mismatch',
            path,
            `${owner} shows screen "${String(tile)}" as a tile, but it is a ${String(target.kind)} screen; ` +
              'a tile counts the records of a list screen. Name a list screen.',
            { hint: typeof tile === 'string' ? didYouMean(tile, listScreens) : undefined },
          );
        }
      });
      checkFigures(context, raw, base);
      return;
    }
    case 'sign-in':
      return;
    case 'custom': {
      if (text(raw.component) === undefined || raw.component === '') {
        report(
          context,
          'missing-key',
          [...base, 'component'],
          `${owner} is a custom screen without a component. Name the registered component that renders it.`,
        );
      }
      screenEntity(context, raw, base, owner, false);
      return;
    }
    default:
      exhaustiveSwitchError(kind);
  }
}

export function screenEntity(
  context: Context,
  screen: Record<string, unknown>,
  base: PathSegment[],
  owner: string,
  required: boolean,
): Entity | undefined {
  const path = [...base, 'entity'];
  if (screen.entity === undefined || screen.entity === '') {
    if (required) {
      report(
        context,
        'missing-key',
        path,
        `${owner} is a ${String(screen.kind)} screen without an entity. Name the entity (point 3) it shows.`,
      );
    }
    return undefined;
  }
  const entity = refer<Entity>(context, 'entity', screen.entity, path, owner);
  if (entity !== undefined && required && entity.embedded === true) {
    report(
      context,
      'kind-mismatch',
      path,
      `${owner} shows entity "${entity.name}", which is embedded in other records and has no screens of ` +
        'its own. Show the entity that contains it instead.',
    );
  }
  return entity;
}

export const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const ROUTE_LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]+$/;

export function checkRoute(
  context: Context,
  screen: Record<string, unknown>,
  kind: ScreenKind | undefined,
  base: PathSegment[],
  owner: string,
  routes: Map<string, string>,
): void {
  const route = screen.route;
  const path = [...base, 'route'];
  if (typeof route !== 'string') return;
  const problem = routeProblem(route);
  if (problem !== undefined) {
    report(context, 'invalid-route', path, `${owner} has route "${route}", which ${problem}`);
    return;
  }
  const parameters =
    route === '/'
      ? []
      : route
          .slice(1)
          .split('/')
          .filter((s) => s.startsWith(':'));
  if ((kind === 'detail' || kind === 'edit') && parameters.length === 0) {
    report(
      context,
      'invalid-route',
      path,
      `${owner} is a ${kind} screen, but its route "${route}" has no parameter to say which record. ` +
        'Add one, e.g. "/orders/:id".',
    );
  }
  // React Router matches case-insensitively and by position, so parameter names and case do not matter.
  const shape =
    route === '/'
      ? '/'
      : `/${route
          .slice(1)
          .split('/')
          .map((segment) => (segment.startsWith(':') ? ':' : segment.toLowerCase()))
          .join('/')}`;
  const first = routes.get(shape);
  if (first !== undefined) {
    report(
      context,
      'conflicting-route',
      path,
      `${owner} has route "${route}", which matches the same addresses as the route of screen "${first}". ` +
        'Change one of the two routes.',
    );
  } else {
    const name = base[1];
    if (typeof name === 'string') routes.set(shape, name);
  }
}

export function routeProblem(route: string): string | undefined {
  if (!route.startsWith('/')) return `does not start with "/". Write it as "/${route}".`;
  if (route === '/') return undefined;
  const names = new Set<string>();
  for (const segment of route.slice(1).split('/')) {
    if (segment === '') return 'has an empty segment (a doubled or trailing "/"). Remove it.';
    if (segment.startsWith(':')) {
      const name = segment.slice(1);
      if (!PARAMETER_NAME.test(name)) {
        return `has parameter "${segment}", whose name is not a plain name. Use letters, digits and _, e.g. ":orderId".`;
      }
      if (names.has(name)) return `has parameter ":${name}" twice. Give each parameter its own name.`;
      names.add(name);
      continue;
    }
    if (/^\{.*\}$/.test(segment)) {
      return `has segment "${segment}". Route parameters are written ":name", e.g. ":${segment.slice(1, -1)}".`;
    }
    if (!ROUTE_LITERAL.test(segment)) {
      return `has segment "${segment}", which is neither literal text nor a ":parameter". Remove the special characters.`;
    }
  }
  return undefined;
}
