import { transitionsByCall } from '../contract/api';
import type { Issue, PathSegment, SourcePosition } from '../issues';
import { FIELD_KINDS, type Field, type Model } from '../model';

/**
 * What a team's extension module names, read from its default export (docs/extending.md): the
 * model-facing keys only, so that a check can hold them against a specification without running React.
 */
export interface ExtensionNames {
  /** `Entity.field` keys of `fields.fields`. */
  fields: string[];
  /** Keys of `fields.kinds`. */
  kinds: string[];
  /** Keys of `fields.widgets`. */
  widgets: string[];
  /** Keys of `screens`: the component names of custom screens. */
  screens: string[];
  /** Each slot the extension fills, with its key for the slots that have one (an entity or a dashboard). */
  slots: Array<{ slot: string; key?: string }>;
  actions: Array<{
    name: string;
    entity?: string;
    call?: string;
    hasBody: boolean;
    hasRun: boolean;
  }>;
}

/** Widgets the built-in client knows: a spec may name them with no extension at all. */
export const BUILT_IN_WIDGETS: readonly string[] = ['textarea'];

/** The slots an extension may fill, and what each one's keys name. */
export const EXTENSION_SLOTS = {
  brand: 'none',
  header: 'none',
  navigationFooter: 'none',
  listToolbar: 'entity',
  rowActions: 'entity',
  detailActions: 'entity',
  detailAside: 'entity',
  dashboardTiles: 'dashboard',
} as const satisfies Record<string, 'none' | 'entity' | 'dashboard'>;

export interface ExtensionCheckOptions {
  /** Where a name sits in the extension's files (its first mention), for `file:line:column`. */
  locateName?: (name: string) => SourcePosition | undefined;
  /** Where a path of the specification's authoring document sits in the specification's file. */
  locateSpec?: (path: readonly PathSegment[]) => SourcePosition | undefined;
}

/**
 * How a specification and its extension module (or none) fit together. Nothing either names is dropped
 * silently: an override, slot or action that names a screen, entity, field, widget or call the
 * specification does not have is a warning at the name in the extension, and a widget or custom screen
 * the specification names that nothing provides is a warning at the field or screen in the
 * specification. Without an extension (`names` undefined), only the specification's widgets are held to
 * the built-in ones; a custom screen then says on its page that its component is missing.
 *
 * @example
 * checkExtension(shop, { ...none, fields: ['Product.rating'] });
 * // [{ code: 'unknown-override', message: 'The extension overrides Product.rating, but Product has no field rating.', … }]
 */
export function checkExtension(
  model: Model,
  names: ExtensionNames | undefined,
  options: ExtensionCheckOptions = {},
): Issue[] {
  const issues: Issue[] = [];
  const entities = new Map(
    model.entities.shown ? model.entities.items.map((entity) => [entity.name, entity]) : [],
  );
  const screens = model.screens.shown ? model.screens.items : [];
  const orphan = (name: string, message: string, hint: string, path: PathSegment[]) => {
    const source = options.locateName?.(name);
    issues.push({
      code: 'unknown-override',
      severity: 'warning',
      message,
      hint,
      path,
      ...(source ? { source } : {}),
    });
  };

  const widgetFields: Array<{ entity: string; field: Field }> = [];
  for (const entity of entities.values()) {
    for (const field of entity.fields) {
      if (field.widget !== undefined) widgetFields.push({ entity: entity.name, field });
    }
  }
  const provided = new Set(names?.widgets ?? []);
  for (const { entity, field } of widgetFields) {
    const widget = field.widget as string;
    if (BUILT_IN_WIDGETS.includes(widget) || provided.has(widget)) continue;
    const path = ['entities', entity, 'fields', field.name, 'widget'];
    const source = options.locateSpec?.(path);
    issues.push({
      code: 'missing-override',
      severity: 'warning',
      message: `${entity}.${field.name} names the widget "${widget}", which ${names ? 'the extension does not provide' : 'no extension provides'}; the built-in display and input are used.`,
      hint: names
        ? `add fields.widgets["${widget}"] to the extension, or remove the widget`
        : `give the client an extension module (docs/extending.md) with fields.widgets["${widget}"], or use a built-in widget (${BUILT_IN_WIDGETS.join(', ')})`,
      path,
      ...(source ? { source } : {}),
    });
  }
  if (!names) return issues;

  for (const key of names.fields) {
    const [entityName, fieldName, ...rest] = key.split('.');
    const entity = entityName === undefined ? undefined : entities.get(entityName);
    if (!entity || fieldName === undefined || rest.length > 0) {
      orphan(
        key,
        `The extension overrides ${key}, but the specification has no entity ${entityName ?? key}.`,
        'keys of fields.fields are Entity.field, as point 3 names them',
        ['fields', 'fields', key],
      );
    } else if (!entity.fields.some((field) => field.name === fieldName)) {
      orphan(
        key,
        `The extension overrides ${key}, but ${entity.name} has no field ${fieldName}.`,
        `${entity.name}'s fields are ${entity.fields.map((field) => field.name).join(', ')}`,
        ['fields', 'fields', key],
      );
    }
  }
  for (const kind of names.kinds) {
    if (!(FIELD_KINDS as readonly string[]).includes(kind)) {
      orphan(
        kind,
        `The extension overrides fields of kind "${kind}", which is no kind of point 3.`,
        `kinds are ${FIELD_KINDS.join(', ')}`,
        ['fields', 'kinds', kind],
      );
    }
  }
  const named = new Set(widgetFields.map(({ field }) => field.widget));
  for (const widget of names.widgets) {
    if (!named.has(widget)) {
      orphan(
        widget,
        `The extension provides the widget "${widget}", but no field of the specification names it.`,
        'name it on a field of point 3 (Widget), or remove it',
        ['fields', 'widgets', widget],
      );
    }
  }

  const custom = screens.filter((screen) => screen.kind === 'custom');
  const components = new Set(names.screens);
  for (const component of names.screens) {
    if (!custom.some((screen) => screen.component === component)) {
      orphan(
        component,
        `The extension provides the screen component ${component}, but no custom screen of point 2 names it.`,
        'a custom screen names its component in point 2',
        ['screens', component],
      );
    }
  }
  for (const screen of custom) {
    if (components.has(screen.component)) continue;
    const path = ['screens', screen.name, 'component'];
    const source = options.locateSpec?.(path);
    issues.push({
      code: 'missing-override',
      severity: 'warning',
      message: `The custom screen ${screen.name} names the component ${screen.component}, which the extension does not provide; the screen says so instead.`,
      hint: `add screens.${screen.component} to the extension`,
      path,
      ...(source ? { source } : {}),
    });
  }

  const dashboards = new Set(
    screens.filter((screen) => screen.kind === 'dashboard').map((screen) => screen.name),
  );
  for (const { slot, key } of names.slots) {
    const keyed = Object.hasOwn(EXTENSION_SLOTS, slot)
      ? EXTENSION_SLOTS[slot as keyof typeof EXTENSION_SLOTS]
      : undefined;
    if (keyed === undefined) {
      orphan(
        slot,
        `The extension fills a slot called ${slot}, which the client does not have.`,
        `slots are ${Object.keys(EXTENSION_SLOTS).join(', ')}`,
        ['slots', slot],
      );
    } else if (keyed === 'entity' && key !== undefined && !entities.has(key)) {
      orphan(
        key,
        `The extension fills the ${slot} slot of ${key}, but the specification has no entity ${key}.`,
        `entities are ${[...entities.keys()].join(', ')}`,
        ['slots', slot, key],
      );
    } else if (keyed === 'dashboard' && key !== undefined && !dashboards.has(key)) {
      orphan(
        key,
        `The extension fills the ${slot} slot of ${key}, but the specification has no dashboard screen ${key}.`,
        'dashboardTiles is keyed by a dashboard screen of point 2',
        ['slots', slot, key],
      );
    }
  }

  const calls = model.calls.shown ? model.calls.items : [];
  const transitions = transitionsByCall(model, calls, false);
  for (const action of names.actions) {
    const path = ['actions', action.name];
    if (action.entity === undefined || !entities.has(action.entity)) {
      orphan(
        action.name,
        `The extension's action ${action.name} is for ${action.entity === undefined ? 'no entity' : `the entity ${action.entity}, which the specification does not have`}.`,
        'an action names the entity of point 3 whose records get its button',
        path,
      );
      continue;
    }
    if (action.call === undefined) {
      if (!action.hasRun)
        orphan(
          action.name,
          `The extension's action ${action.name} has neither a call nor run.`,
          'give it a call of point 7 or a run function',
          path,
        );
      continue;
    }
    const call = calls.find((candidate) => candidate.name === action.call);
    if (!call) {
      orphan(
        action.call,
        `The extension's action ${action.name} runs the call ${action.call}, which point 7 does not have.`,
        'name a call of point 7',
        path,
      );
    } else if (call.entity !== action.entity) {
      orphan(
        action.call,
        `The extension's action ${action.name} is for ${action.entity}, but the call ${call.name} is for ${call.entity ?? 'no entity'}.`,
        'an action runs a call of its own entity',
        path,
      );
    } else if (call.purpose !== 'update' && call.purpose !== 'delete' && call.purpose !== 'transition') {
      orphan(
        action.call,
        `The extension's action ${action.name} runs ${call.name}, a ${call.purpose} call; an action runs an update, a delete or a transition.`,
        'use run for anything else',
        path,
      );
    } else if (call.purpose === 'update' && !action.hasBody) {
      orphan(
        action.name,
        `The extension's action ${action.name} runs the update ${call.name} without a body.`,
        'give it body: (record) => ({ … the changed fields … })',
        path,
      );
    } else if (call.purpose === 'transition' && !transitions.has(call.name)) {
      // Its button is offered as point 4 offers the transition: with none, it would vanish for everyone.
      orphan(
        action.call,
        `The extension's action ${action.name} runs ${call.name}, a transition call that no transition of point 4 takes: its button would never be offered.`,
        'name the call in the transition it takes (Call:), or remove the action',
        path,
      );
    }
  }
  return issues;
}
