import type { Entity, Screen } from '@ninefold/model';
import type { MappedCall } from './calls';
import type { MapContext } from './context';
import { ROUTE_PARAMETER, uniqueName } from './document';
import { paramOf } from './operations';

const COLUMNS = 5;

/**
 * Point 2: screens from resources. A collection path with a list call is a list screen, an item path
 * with a get call a detail screen, POST to a collection a create screen and PUT/PATCH on an item an
 * edit screen. Sub-resources keep their parent's parameters: `/stores/{storeId}/employees` becomes
 * the nested route `/stores/:storeId/employees`.
 *
 * @example
 * ```ts
 * mapScreens(context, calls, entities).map((s) => s.route);
 * // ['/articles', '/articles/:slug', '/articles/new', '/articles/:slug/edit']
 * ```
 */
export function mapScreens(
  context: MapContext,
  calls: MappedCall[],
  entities: Map<string, Entity>,
): Screen[] {
  const screens: Screen[] = [];
  const names = new Set<string>();
  const shapes = new Set<string>();
  const add = (screen: Screen, info: MappedCall['info']): void => {
    const at = info.pointer;
    const shape = screen.route
      .split('/')
      .map((s) => (s.startsWith(':') ? ':' : s.toLowerCase()))
      .join('/');
    if (shapes.has(shape)) {
      context.report.add(
        'screens',
        'skipped',
        at,
        `screen for ${screen.route} is left out: another screen already has a route of that shape`,
      );
      return;
    }
    shapes.add(shape);
    // The navigation groups screens as the document groups its operations: by their first tag.
    const [tag] = Array.isArray(info.operation.tags) ? info.operation.tags : [];
    if (typeof tag === 'string' && tag.trim() !== '') screen.group = tag.trim();
    screens.push(screen);
    context.report.add('screens', 'mapped', at, `${screen.kind} screen "${screen.name}" at ${screen.route}`);
  };
  for (const { call, info } of calls) {
    if (call.entity === undefined) continue;
    const entity = entities.get(call.entity);
    if (entity === undefined || entity.embedded === true) continue;
    const route = routeOf(info.resourcePath);
    if (route === undefined) {
      if (['list', 'get', 'create', 'update'].includes(call.purpose)) {
        context.report.add(
          'screens',
          'skipped',
          info.pointer,
          `no screen for ${call.method} ${info.path}: a path parameter is not a plain name (letters, digits, _), so it cannot be a route parameter`,
        );
      }
      continue;
    }
    const base = info.pathSegments.filter((segment) => paramOf(segment) === undefined).join('-') || 'root';
    switch (call.purpose) {
      case 'list': {
        if (info.isItem) break;
        const readable = entity.fields.filter((f) => f.writeOnly !== true);
        const scalars = readable.filter((f) => !['object', 'list', 'file'].includes(f.kind));
        // A record of nothing but nested values (Twilio's call events: a request and a response) still
        // shows them, each summed up in its cell, rather than a list with no columns.
        const shown = scalars.length > 0 ? scalars : readable;
        const columns = shown.slice(0, COLUMNS).map((f) => f.name);
        const screen: Screen = {
          kind: 'list',
          name: uniqueName(safe(base), names),
          route,
          entity: entity.name,
          title: entity.label ?? titleOf(info.pathSegments),
          columns,
          filters: [...new Set(call.filters.map((f) => f.field))],
          sort: (call.sort?.fields ?? []).map((field) => ({ field, direction: 'asc' as const })),
        };
        add(screen, info);
        context.report.add(
          'screens',
          'inferred',
          info.pointer,
          `columns of "${screen.name}" are the first ${COLUMNS} ${scalars.length > 0 ? 'scalar fields' : 'fields (it has no scalar ones)'} of "${entity.name}": ${columns.join(', ') || 'none'}`,
        );
        break;
      }
      case 'get':
        if (!info.isItem) break;
        add(
          {
            kind: 'detail',
            name: uniqueName(`${safe(base)}-detail`, names),
            route,
            entity: entity.name,
            hidden: true,
          },
          info,
        );
        break;
      case 'create':
        if (call.body === undefined) {
          // A form would send what the document never asked for, and the API refuses a body it does not take.
          context.report.add(
            'screens',
            'skipped',
            info.pointer,
            `no create screen for ${call.method} ${info.path}: the call takes no request body the client can fill`,
          );
          break;
        }
        add(
          {
            kind: 'create',
            name: uniqueName(`${safe(base)}-new`, names),
            route: `${route}/new`,
            entity: entity.name,
            hidden: true,
          },
          info,
        );
        break;
      case 'update':
        if (!info.isItem) break;
        add(
          {
            kind: 'edit',
            name: uniqueName(`${safe(base)}-edit`, names),
            route: `${route}/edit`,
            entity: entity.name,
            hidden: true,
          },
          info,
        );
        break;
      default:
        break;
    }
  }
  return screens;
}

/** `/stores/{storeId}/employees` -> `/stores/:storeId/employees`; undefined when it cannot be a route. */
export function routeOf(path: string): string | undefined {
  const segments = path.split('/').filter(Boolean);
  const out: string[] = [];
  for (const segment of segments) {
    const param = paramOf(segment);
    if (param !== undefined) {
      if (!ROUTE_PARAMETER.test(param)) return undefined;
      out.push(`:${param}`);
    } else if (/^[A-Za-z0-9._~!$&'()+,;=@%-]+$/.test(segment)) {
      out.push(segment);
    } else {
      return undefined;
    }
  }
  return `/${out.join('/')}`;
}

function safe(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `s-${cleaned}`;
}

function titleOf(segments: string[]): string {
  const last = [...segments].reverse().find((segment) => paramOf(segment) === undefined) ?? '';
  const words = last.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
