import { describeApi, transitionsByCall } from '../contract/api';
import { exhaustiveSwitchError } from '../exhaustive';
import type { FieldType, Model } from '../model';

/**
 * The names of a specification as a TypeScript module, for an extension typed against them
 * (`defineExtension<Extension<Spec>>({ … })`, docs/extending.md): each entity's fields and the values
 * they hold, the calls an action may run on each entity's records, and the widgets, custom screen
 * components and dashboards point 2 and point 3 name. `ninefold types SPEC` writes it. A name the
 * specification loses is then a compile error where the module uses it.
 *
 * @example
 * ```ts
 * specTypes(model, 'tool-library.yaml');
 * // 'export interface Spec {\n  entities: {\n    Tool: {\n      id?: number | null;\n …'
 * ```
 */
export function specTypes(model: Model, source: string): string {
  const entities = model.entities.shown ? model.entities.items.filter((entity) => !entity.embedded) : [];
  const api = describeApi(model);
  const transitions = transitionsByCall(model, api.calls, api.conventional);
  const lines = [
    `// The names of ${source} for an extension module typed against them (docs/extending.md), written by`,
    '// `ninefold types`. Not to be edited: write it again when the specification changes.',
    'export interface Spec {',
    '  entities: {',
  ];
  for (const entity of entities) {
    lines.push(`    ${key(entity.name)}: {`);
    for (const field of entity.fields)
      lines.push(`      ${key(field.name)}?: ${valueType(model, field)} | null;`);
    lines.push('    };');
  }
  lines.push('  };', '  actionCalls: {');
  for (const entity of entities) {
    // The calls an action may run, as `check` holds an action to them: an update, a delete, or a
    // transition call that a transition of point 4 takes.
    const calls = api.calls
      .filter(
        (call) =>
          call.entity === entity.name &&
          (call.purpose === 'update' ||
            call.purpose === 'delete' ||
            (call.purpose === 'transition' && transitions.has(call.name))),
      )
      .map((call) => call.name);
    lines.push(`    ${key(entity.name)}: ${union(calls)};`);
  }
  const screens = model.screens.shown ? model.screens.items : [];
  const widgets = entities.flatMap((entity) =>
    entity.fields.flatMap((field) => (field.widget === undefined ? [] : [field.widget])),
  );
  const components = screens.flatMap((screen) => (screen.kind === 'custom' ? [screen.component] : []));
  const dashboards = screens.flatMap((screen) => (screen.kind === 'dashboard' ? [screen.name] : []));
  lines.push(
    '  };',
    `  widgets: ${union(widgets)};`,
    `  components: ${union(components)};`,
    `  dashboards: ${union(dashboards)};`,
    '}',
    '',
  );
  return lines.join('\n');
}

/** What a field's value is in TypeScript, as the API answers it. */
function valueType(model: Model, type: FieldType): string {
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'date':
    case 'datetime':
      return 'string';
    case 'number':
    case 'integer':
    case 'money':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'enum':
      return union(type.values.map((value) => value.value));
    case 'reference':
      return 'string | number';
    case 'file':
    case 'object':
      return 'unknown';
    case 'list': {
      const item = valueType(model, type.of);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

/** A union of string literals; `never` when there are none. */
function union(values: readonly string[]): string {
  const unique = [...new Set(values)];
  return unique.length === 0 ? 'never' : unique.map((value) => JSON.stringify(value)).join(' | ');
}

/** A property name, quoted when it is not an identifier. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
