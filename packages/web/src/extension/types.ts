import type {
  CustomScreen,
  DashboardScreen,
  DetailScreen,
  Entity,
  Field,
  FieldKind,
  JsonValue,
  ListScreen,
} from '@ninefold/model';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import type { ApiRecord } from '../data/data-provider';

// The types a team's extension module is written against (docs/extending.md). Everything here is part of
// the stability promise: a name or a prop may be added in a minor version, never removed or changed.

/** What a field's display receives; `Original` is the built-in display it replaces. */
/**
 * The names of a specification, as `ninefold types SPEC` writes them (docs/extending.md): an extension
 * written as `defineExtension<Extension<Spec>>({ … })` is checked against them, so a field renamed or a
 * transition removed in the specification is a compile error where the module uses it.
 */
export interface SpecNames {
  /** Each entity of point 3, with its fields and the values they hold. */
  entities: Record<string, Record<string, unknown>>;
  /** By entity: the calls of point 7 an action may run on its records (update, delete, and transition calls that a transition of point 4 takes). */
  actionCalls: Record<string, string>;
  /** The widgets point 3 names. */
  widgets: string;
  /** The components of point 2's custom screens. */
  components: string;
  /** The dashboard screens of point 2. */
  dashboards: string;
}

/** Any specification: every name is a string. What `Extension` means without a `Spec`. */
export interface AnySpec extends SpecNames {
  entities: Record<string, Record<string, unknown>>;
  actionCalls: Record<string, string>;
  widgets: string;
  components: string;
  dashboards: string;
}

/** The entities' names. */
export type EntityName<S extends SpecNames = AnySpec> = keyof S['entities'] & string;
/** An entity's fields' names. */
export type FieldName<S extends SpecNames, E extends EntityName<S>> = keyof S['entities'][E] & string;
/** `Entity.field`, for every field of every entity (any text, without a `Spec`). */
export type FieldPath<S extends SpecNames = AnySpec> =
  string extends EntityName<S> ? string : { [E in EntityName<S>]: `${E}.${FieldName<S, E>}` }[EntityName<S>];
/** Keys of the entities' own slots. */
type ByEntity<S extends SpecNames, T> = Partial<Record<EntityName<S>, T>>;

export interface FieldDisplayOverrideProps {
  field: Field;
  /** The value as the API answered it; never empty (an empty value reads "not set" without the override). */
  value: JsonValue;
  /** The entity the field belongs to, where known. */
  entity?: string;
  /** Where the value is shown: a table cell is one line, a record's details may take more room. */
  place: 'cell' | 'details';
  /** The built-in display, to wrap rather than rewrite. */
  Original: ComponentType;
}

/** What a field's input receives: it edits one value of the form, by these props alone. */
export interface FieldInputOverrideProps {
  field: Field;
  /** The form's path of the value (`rating`, `lines.0.quantity`): unique, usable as an element id. */
  name: string;
  label: string;
  /** The field's help and bounds, as the built-in input says them. */
  description: string | undefined;
  required: boolean;
  /** The value in the form now. */
  value: unknown;
  /** Sets the value; the form checks it against point 5's rules as it does any input's. */
  onChange(value: unknown): void;
  /** Marks the field as visited (the form then shows its error). */
  onBlur(): void;
  /** The field's error, in the person's language, once there is one to show. */
  error: string | undefined;
  /** The built-in input, to wrap rather than rewrite. */
  Original: ComponentType;
}

/** A field's display, its input, or both. Either may be left out: the built-in one is used. */
export interface FieldOverride {
  display?: ComponentType<FieldDisplayOverrideProps>;
  input?: ComponentType<FieldInputOverrideProps>;
}

/** What a custom screen of point 2 receives. */
export interface CustomScreenProps {
  screen: CustomScreen;
  /** The route's parameters, e.g. `{ id: '7' }` for `/orders/:id/slip`. */
  params: Readonly<Record<string, string>>;
}

/** Every slot receives its built-in content (`Original`, which may render nothing) to wrap or replace. */
export interface SlotBase {
  Original: ComponentType;
}

export type BrandSlotProps = SlotBase & { title: string };
export type HeaderSlotProps = SlotBase;
export type NavigationFooterSlotProps = SlotBase;
export type ListToolbarSlotProps = SlotBase & {
  screen: ListScreen;
  entity: Entity;
  /** The records of the page in view (empty while loading). */
  records: readonly ApiRecord[];
};
export type RowActionsSlotProps = SlotBase & { screen: ListScreen; entity: Entity; record: ApiRecord };
export type DetailSlotProps = SlotBase & {
  screen: DetailScreen;
  entity: Entity;
  record: ApiRecord;
  /** The record's version (ETag), for an update that must not overwrite another's. */
  version: string | undefined;
};
export type DashboardTileSlotProps = SlotBase & { screen: DashboardScreen };

/**
 * The places on the built-in screens where an extension adds or replaces content. Slots about an entity
 * are keyed by the entity's name (`Order`); dashboard tiles by the dashboard screen's name.
 */
export interface Slots<S extends SpecNames = AnySpec> {
  /** The product's name at the start of the header. */
  brand?: ComponentType<BrandSlotProps>;
  /** Beside the session, language and theme at the end of the header. */
  header?: ComponentType<HeaderSlotProps>;
  /** Below the navigation, above "About this client". */
  navigationFooter?: ComponentType<NavigationFooterSlotProps>;
  /** Above a list's table, beside its filters. */
  listToolbar?: ByEntity<S, ComponentType<ListToolbarSlotProps>>;
  /** A last column of each row of a list. */
  rowActions?: ByEntity<S, ComponentType<RowActionsSlotProps>>;
  /** Beside Edit and Delete on a record's page. */
  detailActions?: ByEntity<S, ComponentType<DetailSlotProps>>;
  /** Beside a record's fields (below them on a phone). */
  detailAside?: ByEntity<S, ComponentType<DetailSlotProps>>;
  /** A dashboard's tiles: `Original` is the built-in grid, to add tiles after it or replace it. */
  dashboardTiles?: Partial<Record<S['dashboards'], ComponentType<DashboardTileSlotProps>>>;
}

export type SlotName = keyof Slots;

/** What an action's own code receives. */
export interface ActionContext {
  record: ApiRecord;
  /** The record's key. */
  id: string;
  entity: Entity;
  version: string | undefined;
  /** The data interface the built-in screens use: the session's credentials, retries, the catalogue. */
  data: import('../data/data-provider').DataProvider;
}

/** Who may take an action: a permission of point 6 on the record, checked as the built-in actions are. */
export type ActionPermission = 'read' | 'update' | 'delete';

/**
 * A button on a record (its list row, its page, or both) that runs a call of point 7 or the extension's
 * own code, after a confirmation if one is given, with point 6's permission checks and point 8's
 * messages for a refusal.
 */
export type ActionDefinition<S extends SpecNames = AnySpec> =
  string extends EntityName<S>
    ? ActionOf<S, string>
    : { [E in EntityName<S>]: ActionOf<S, E> }[EntityName<S>];

/** An action on the records of one entity `E`. */
export interface ActionOf<S extends SpecNames, E extends string> {
  /** The entity whose records get the button. */
  entity: E;
  label: string;
  /** Where the button shows. Default: both. */
  places?: ReadonlyArray<'row' | 'detail'>;
  /**
   * A call of point 7 of this entity to run on the record: an `update` (with `body`), a `delete` or a
   * `transition`. Its purpose decides the permission checked (update, delete, or the transition's own).
   */
  call?: string extends E ? string : S['actionCalls'][E];
  /** For an `update` call: the changed fields to send. */
  body?: (
    record: ApiRecord,
  ) => string extends E ? Record<string, unknown> : Partial<Record<keyof S['entities'][E] & string, unknown>>;
  /** The extension's own code, instead of `call`. */
  run?: (context: ActionContext) => Promise<void> | void;
  /** For `run`: the permission of point 6 the role must have on the record (default: read). */
  permission?: ActionPermission;
  /** Asks before acting. `danger` colours the confirm button red. */
  confirm?: { title: string; text?: string; confirmLabel?: string; danger?: boolean };
  /** Said after success (else a short "Done"). */
  done?: string;
  /** Hides the button for some records (for a reason of the product, not a permission). */
  when?: (record: ApiRecord) => boolean;
}

/** The brand, as point 1 may state it and an extension may refine it. */
export interface ThemeOverride {
  /** A CSS colour (`#0b7285`): buttons, links, the current navigation entry. */
  primaryColor?: string;
  /** The logo shown before the product's name: a URL on the client's own origin, or a data: URL. */
  logo?: string;
  /** A CSS font-family list. */
  font?: string;
  /** Corner radius in pixels. */
  radius?: number;
  /** Space between things: compact for data-heavy teams. */
  density?: 'compact' | 'comfortable';
}

/** Overrides of a field's display and input by its kind, by `Entity.field`, or by point 3's `Widget:`. */
export interface FieldOverrides<S extends SpecNames = AnySpec> {
  kinds?: Partial<Record<FieldKind, FieldOverride>>;
  /** By `Entity.field`, e.g. `Product.rating`. Wins over a widget and a kind. */
  fields?: Partial<Record<FieldPath<S>, FieldOverride>>;
  /** By the widget name point 3 gives a field (`Widget: rating`). Wins over a kind. */
  widgets?: Partial<Record<S['widgets'], FieldOverride>>;
}

/** A team's extension: what `export default defineExtension({...})` in `SPEC.ui.tsx` describes. */
export interface Extension<S extends SpecNames = AnySpec> {
  /** Shown in notices about the extension, e.g. "Harbor Supply's extension". */
  name?: string;
  fields?: FieldOverrides<S>;
  /**
   * Components of point 2's custom screens, by the component name the screen gives. A screen the first
   * page seldom needs is best loaded when opened: `lazy(() => import('./PackingSlip'))`.
   */
  screens?: Partial<
    Record<
      S['components'],
      ComponentType<CustomScreenProps> | LazyExoticComponent<ComponentType<CustomScreenProps>>
    >
  >;
  slots?: Slots<S>;
  /** Actions by name (the name is the button's test id and the key of its messages). */
  actions?: Record<string, ActionDefinition<S>>;
  theme?: ThemeOverride;
}

/** Something an extension renders, for slots that add content. */
export type SlotContent = ReactNode;
