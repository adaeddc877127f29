import { base, en, Faker } from '@faker-js/faker';
import {
  brokenRules,
  checkTransition,
  derivedValues,
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FieldType,
  guardReadsUser,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import type { StoredRecord } from '../store/store';
import { dependencyOrder, MAX_OBJECT_DEPTH } from './dependency-order';
import { dateHint, type HintContext, nameMatches, rangeHint, textHint } from './name-hints';
import { samplePattern } from './sample-pattern';
import {
  type ConstraintIndex,
  constraintIndex,
  type FieldPlace,
  NO_RULES,
  placeOf,
  type SeedRules,
} from './seed-constraints';
import { type StatePlan, statePlans } from './state-plan';

export interface SeedOptions {
  /** Same model, count and seed: deep-equal records, on every run and machine. Defaults to 1. */
  seed?: number;
  /** The moment dates are generated around (the last two years before it). Defaults to 2026-01-01T00:00:00Z. */
  now?: Date;
}

export const DEFAULT_SEED = 1;
/** ISO moment used when `options.now` is not given: fixed, so that dates never depend on today. */
export const DEFAULT_NOW = '2026-01-01T00:00:00Z';

/** Share of records with an optional field filled in. */
const PRESENT_PROBABILITY = 0.85;
/** Share of records of an entity with a state machine left in its initial state. */
const INITIAL_STATE_PROBABILITY = 0.25;
const DAY_MS = 86_400_000;
const PAST_WINDOW_DAYS = 730;
/** Tries at a fresh value (unique fields, patterns) before falling back to numbering the last one. */
const ATTEMPTS = 20;
/** Draws of a whole record before one that still breaks a cross-field rule is kept (and said). */
const RULE_ATTEMPTS = 30;

/**
 * Generates `count` realistic records for every non-embedded entity of point 3, for `--seed N`.
 *
 * Pure and deterministic: the result depends only on the model, the count and `options` (never on the
 * clock, the time zone or the global faker). Each entity draws from its own stream, seeded by the seed
 * and the entity's name, so changing one entity of the specification leaves the others' records alone.
 * The map's order is the insertion order: referenced entities come first. Integer keys are left out
 * (the store assigns 1..N in insertion order, and references count on exactly that); other keys are
 * generated. Derived fields are left out; read-only ones are filled, since a seed writes the database
 * directly. Values satisfy the field constraints of point 5 (required, min, max, pattern, unique), and
 * the cross-field rules that read only the record as far as drawing again finds a record that meets them.
 */
export function generateRecords(
  model: Model,
  count: number,
  options: SeedOptions = {},
): Map<string, StoredRecord[]> {
  if (!Number.isInteger(count) || count < 0) {
    throw new RangeError(`The record count must be a whole number of 0 or more, not ${count}.`);
  }
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isFinite(seed)) throw new RangeError(`The seed must be a finite number, not ${seed}.`);
  const now = options.now ?? new Date(DEFAULT_NOW);
  if (Number.isNaN(now.getTime())) throw new RangeError('`now` must be a valid date.');
  if (!model.entities.shown) return new Map();
  return new SeedRun(model, model.entities.items, count, seed, now).generate();
}

/** Where a value is being generated. */
interface Slot {
  /** The top-level entity whose record this is. */
  root: Entity;
  /** The entity that owns the field: the root or an embedded one. */
  owner: Entity;
  place: FieldPlace;
  /** Field name (for list items, the list's name) and format: the hints read them. */
  name: string;
  format: string | undefined;
  rules: SeedRules;
  /** Values of the fields generated so far in the same object. */
  siblings: Record<string, JsonValue>;
  /** Position of the top-level record. */
  index: number;
  /** Objects above this field: 0 for a record's own fields. */
  depth: number;
  /** Identifies the field across all records of the root, for uniqueness. */
  uniquePath: string;
}

/** The state a record is in, and what getting there set. */
interface StateChoice {
  states: Map<string, string>;
  /** Values of fields that the transitions on the way set to `now`: a plausible timeline. */
  presets: Map<string, JsonValue>;
  /** Fields that only transitions the record has not taken would set: left out unless required. */
  notYetSet: Set<string>;
  /** The record passed a guarded transition; filling every field keeps guards such as `has(...)` true. */
  complete: boolean;
}

class SeedRun {
  private readonly faker = new Faker({ locale: [en, base] });
  private readonly index: ConstraintIndex;
  private readonly byName: Map<string, Entity>;
  private readonly plannedKeys = new Map<string, JsonValue[]>();
  private readonly done = new Set<string>();
  private readonly recordsByKey = new Map<string, Map<string, StoredRecord>>();
  private readonly seen = new Map<string, Set<string>>();
  private readonly seedWords: number[];
  private readonly nowMs: number;

  constructor(
    private readonly model: Model,
    private readonly entities: readonly Entity[],
    private readonly count: number,
    seed: number,
    now: Date,
  ) {
    this.index = constraintIndex(model);
    this.byName = new Map(entities.map((entity) => [entity.name, entity]));
    const whole = Math.trunc(seed);
    this.seedWords = [whole >>> 0, Math.floor(whole / 2 ** 32) >>> 0];
    this.nowMs = now.getTime();
    this.faker.setDefaultRefDate(now);
  }

  generate(): Map<string, StoredRecord[]> {
    const order = dependencyOrder(this.entities, this.index);
    // Keys first, so that a required reference a cycle leaves unmet can still name a record inserted later.
    for (const entity of order) {
      this.reseed(entity, 1);
      this.plannedKeys.set(entity.name, this.planKeys(entity));
    }
    const result = new Map<string, StoredRecord[]>();
    for (const entity of order) {
      this.reseed(entity, 2);
      const plans = statePlans(this.model, entity);
      const keys = this.plannedKeys.get(entity.name) ?? [];
      const records: StoredRecord[] = [];
      const byKey = new Map<string, StoredRecord>();
      for (let index = 0; index < this.count; index++) {
        const record = this.recordWithinRules(entity, index, plans);
        records.push(record);
        byKey.set(String(keys[index]), record);
      }
      result.set(entity.name, records);
      this.recordsByKey.set(entity.name, byKey);
      this.done.add(entity.name);
    }
    return result;
  }

  /** One stream per entity and phase: what one entity gets does not depend on the others. */
  private reseed(entity: Entity, phase: number): void {
    this.faker.seed([...this.seedWords, fnv1a(entity.name), phase]);
  }

  /** Integer keys are the store's 1..N; a `number` key is numbered the same way; others are generated. */
  private planKeys(entity: Entity): JsonValue[] {
    const keyField = entity.fields.find((field) => field.name === entity.key);
    const positions = Array.from({ length: this.count }, (_, index) => index + 1);
    if (keyField === undefined || keyField.kind === 'integer' || keyField.kind === 'number') return positions;
    const place = placeOf(entity.name);
    const rules = {
      ...this.index.rulesAt(place, keyField.name, keyField.kind),
      required: true,
      unique: true,
    };
    return positions.map((position, index) => {
      const slot = this.slot(entity, entity, place, keyField, rules, {}, index, 0);
      const key =
        keyField.kind === 'text' || keyField.kind === 'markdown'
          ? this.text(slot, () => this.faker.string.uuid())
          : this.value(keyField, slot);
      return key ?? `${entity.name.toLowerCase()}-${position}`;
    });
  }

  /**
   * A record that meets the cross-field rules of point 5 a create is checked by (a lightning talk of 5
   * minutes, not 180), drawn again until it does; after `RULE_ATTEMPTS` the last one is kept, and the seed
   * leaves it out or says which rule it breaks. Rules that read other records are met, or not, at seeding.
   */
  private recordWithinRules(entity: Entity, index: number, plans: StatePlan[]): StoredRecord {
    let record = this.record(entity, index, plans);
    const rules = this.model.validation.shown && this.model.validation.rules.length > 0;
    const guards = plans.some((plan) => plan.machine.transitions.some((transition) => transition.guard));
    if (!rules && !guards) return record;
    for (let attempt = 1; attempt < RULE_ATTEMPTS; attempt++) {
      // A state reached past a guard its record fails (a booking of 901 confirmed past "at most 900")
      // is drawn again, in its initial state once the draws run short: that one needs no step.
      if (!this.guardsHeld(record, plans)) {
        record = this.record(entity, index, plans, attempt >= RULE_ATTEMPTS / 2);
        continue;
      }
      const broken = rules ? this.brokenFields(entity, record) : undefined;
      if (broken === undefined) return record;
      // A rule that names its field (a talk's minutes) is met by drawing that field again, the others
      // kept: drawing the whole record again would rarely meet two rules at once.
      record =
        broken.size > 0 && attempt % 5 !== 0
          ? this.redraw(entity, index, record, broken)
          : this.record(entity, index, plans);
    }
    return record;
  }

  /**
   * Whether the record could have taken each step of point 4 to its state: every guard on the way holds
   * of it, as the record was before that step. A guard that reads other records or the person taking
   * the step is the API's to decide when one is taken; the seed cannot, and leaves it.
   */
  private guardsHeld(record: StoredRecord, plans: StatePlan[]): boolean {
    const now = new Date(this.nowMs);
    for (const plan of plans) {
      const { machine } = plan;
      const state = record[machine.field];
      let before = machine.initial;
      for (const transition of typeof state === 'string' ? (plan.paths.get(state) ?? []) : []) {
        if (transition.guard !== undefined && !guardReadsUser(this.model, machine, transition)) {
          const verdict = checkTransition(
            this.model,
            machine,
            transition,
            { ...record, [machine.field]: before },
            { now },
          );
          if (!verdict.allowed && verdict.reason === 'guard') return false;
        }
        before = transition.to;
      }
    }
    return true;
  }

  /**
   * The top-level fields the broken rules name, empty when one names none it could be redrawn by, or
   * undefined when the record breaks no rule.
   */
  private brokenFields(entity: Entity, record: StoredRecord): Set<string> | undefined {
    const values = { ...record, ...derivedValues(this.model, entity.name, record) };
    const broken = brokenRules(this.model, entity, values, { mode: 'create', now: new Date(this.nowMs) });
    if (broken.length === 0) return undefined;
    const fields = new Set<string>();
    for (const { rule } of broken) {
      const field = entity.fields.find((candidate) => candidate.name === rule.field);
      if (field === undefined || field.readOnly || field.derived !== undefined) return new Set();
      fields.add(field.name);
    }
    return fields;
  }

  /** The record with the named fields drawn again, each from its own hints and constraints. */
  private redraw(entity: Entity, index: number, record: StoredRecord, names: Set<string>): StoredRecord {
    const place = placeOf(entity.name);
    const next = { ...record };
    for (const field of entity.fields) {
      if (!names.has(field.name)) continue;
      const rules = this.index.rulesAt(place, field.name, field.kind);
      const value = this.value(field, this.slot(entity, entity, place, field, rules, next, index, 0));
      if (value === undefined) delete next[field.name];
      else next[field.name] = value;
    }
    return next;
  }

  private record(entity: Entity, index: number, plans: StatePlan[], initialOnly = false): StoredRecord {
    const choice = this.chooseStates(entity, plans, initialOnly);
    const record: StoredRecord = {};
    const place = placeOf(entity.name);
    const keyField = entity.fields.find((field) => field.name === entity.key);
    for (const field of entity.fields) {
      if (field.derived !== undefined) continue;
      if (field === keyField) {
        const key = this.plannedKeys.get(entity.name)?.[index];
        if (field.kind !== 'integer' && key !== undefined) record[field.name] = key;
        continue;
      }
      const rules = this.index.rulesAt(place, field.name, field.kind);
      // Drawn for every field, so whether one field is filled does not shift the values of the next.
      const roll = this.faker.datatype.boolean({ probability: PRESENT_PROBABILITY });
      const state = choice.states.get(field.name);
      const preset = choice.presets.get(field.name);
      if (state !== undefined || preset !== undefined) {
        record[field.name] = state ?? preset ?? null;
        continue;
      }
      if (choice.notYetSet.has(field.name) && !rules.required) continue;
      if (field.writeOnly && !rules.required) continue;
      // The server sets read-only fields on creation and a record is always named by its display field.
      const always = field.readOnly || field.name === entity.display || field.default !== undefined;
      if (!(rules.required || always || choice.complete || roll)) continue;
      const value = this.value(field, this.slot(entity, entity, place, field, rules, record, index, 0));
      if (value !== undefined) record[field.name] = value;
    }
    this.copyPrices(entity, place, record);
    return record;
  }

  /**
   * Picks each machine's state: the initial one for a share of the records, otherwise any reachable
   * one. Fields the transitions on the way set to `now` get increasing moments in the past.
   */
  private chooseStates(entity: Entity, plans: StatePlan[], initialOnly: boolean): StateChoice {
    const choice: StateChoice = {
      states: new Map(),
      presets: new Map(),
      notYetSet: new Set(),
      complete: false,
    };
    for (const plan of plans) {
      const initial = plan.reachable.includes(plan.machine.initial);
      // Drawn even when only the initial state will do, so that the draws after it stay the same.
      const drawn =
        initial && this.faker.datatype.boolean({ probability: INITIAL_STATE_PROBABILITY })
          ? plan.machine.initial
          : this.faker.helpers.arrayElement(plan.reachable);
      const state = initialOnly && initial ? plan.machine.initial : drawn;
      choice.states.set(plan.machine.field, state);
      const path = plan.paths.get(state) ?? [];
      if (path.some((transition) => transition.guard !== undefined)) choice.complete = true;
      const taken = new Set(path.flatMap((transition) => transition.set.map((set) => set.field)));
      for (const field of plan.assigned) if (!taken.has(field)) choice.notYetSet.add(field);
      let moment = this.faker.number.int({
        min: this.nowMs - PAST_WINDOW_DAYS * DAY_MS,
        max: this.nowMs - 30 * DAY_MS,
      });
      for (const transition of path) {
        moment = Math.min(this.nowMs, moment + this.faker.number.int({ min: DAY_MS / 24, max: 7 * DAY_MS }));
        for (const set of transition.set) {
          const field = entity.fields.find((candidate) => candidate.name === set.field);
          if (set.expression.trim() !== 'now' || field === undefined) continue;
          if (field.kind === 'date' || field.kind === 'datetime') {
            choice.presets.set(field.name, formatMoment(moment, field.kind));
          }
        }
      }
    }
    return choice;
  }

  private slot(
    root: Entity,
    owner: Entity,
    place: FieldPlace,
    field: Field,
    rules: SeedRules,
    siblings: Record<string, JsonValue>,
    index: number,
    depth: number,
  ): Slot {
    const rootAnchor = place.anchors[0];
    const path = [...(rootAnchor?.path ?? []), field.name].join('.');
    return {
      root,
      owner,
      place,
      name: field.name,
      format: field.format,
      rules,
      siblings,
      index,
      depth,
      uniquePath: `${root.name}.${path}`,
    };
  }

  private value(type: FieldType, slot: Slot): JsonValue | undefined {
    switch (type.kind) {
      case 'text':
        return this.text(
          slot,
          textHint(slot.name, slot.format) ?? (() => this.faker.word.words({ count: { min: 1, max: 3 } })),
        );
      case 'markdown':
        return this.text(
          slot,
          textHint(slot.name, slot.format) ?? (() => this.faker.lorem.sentences({ min: 1, max: 2 })),
        );
      case 'number':
      case 'integer':
      case 'money':
        return this.number(type.kind, slot);
      case 'boolean':
        return this.boolean(slot);
      case 'date':
      case 'datetime':
        return this.date(type.kind, slot);
      case 'enum': {
        const values = type.values.map((value) => value.value);
        if (values.length === 0) return undefined;
        return this.unique(slot, () => this.faker.helpers.arrayElement(values));
      }
      case 'reference': {
        const pool = this.pool(type.entity, slot);
        if (pool.length === 0) return undefined;
        return this.unique(slot, () => this.faker.helpers.arrayElement(pool));
      }
      case 'object':
        return this.object(type.entity, slot);
      case 'list':
        return this.list(type.of, slot);
      case 'file':
        return this.file(type.accept, slot);
      default:
        return exhaustiveSwitchError(type);
    }
  }

  /** Text from a hint, fitted to the length bounds and patterns; unique ones numbered if need be. */
  private text(slot: Slot, generate: (context: HintContext) => string): string | undefined {
    const context: HintContext = {
      faker: this.faker,
      entity: slot.owner,
      siblings: slot.siblings,
      index: slot.index,
      sequencePrefix: sequencePrefix(slot.root.name),
    };
    let raw: string | undefined;
    const fitted = this.unique(
      slot,
      () => {
        raw = generate(context);
        return this.fitText(raw, slot.rules);
      },
      (value, n) => numbered(value, n).find((candidate) => fitsText(candidate, slot.rules)),
    );
    // A required field keeps its value even when no pattern-matching one was found: absent is no better.
    return fitted ?? (slot.rules.required ? raw : undefined);
  }

  private fitText(value: string, rules: SeedRules): string | undefined {
    let text = value;
    let length = Array.from(text).length;
    while (rules.min !== undefined && length < rules.min) {
      const word = ` ${this.faker.word.sample()}`;
      text += word;
      length += Array.from(word).length;
    }
    if (rules.max !== undefined && length > rules.max) {
      text = Array.from(text).slice(0, Math.max(0, rules.max)).join('').trimEnd();
    }
    if (fitsText(text, rules)) return text;
    for (let attempt = 0; rules.patterns.length > 0 && attempt < ATTEMPTS; attempt++) {
      const pattern = rules.patterns[attempt % rules.patterns.length] as RegExp;
      const candidate = samplePattern(this.faker, pattern);
      if (candidate !== undefined && fitsText(candidate, rules)) return candidate;
    }
    return undefined;
  }

  private number(kind: 'number' | 'integer' | 'money', slot: Slot): number | undefined {
    const hint = rangeHint(slot.name, slot.format, slot.depth > 0);
    const defaults =
      kind === 'integer' ? { min: 0, max: 1000 } : { min: kind === 'money' ? 1 : 0, max: 1000 };
    const digits = kind === 'integer' ? 0 : kind === 'money' ? 2 : (hint?.digits ?? 2);
    const step = kind === 'integer' ? Math.max(1, Math.round(hint?.step ?? 1)) : hint?.step;
    const [low, high] = fitRange(hint?.min ?? defaults.min, hint?.max ?? defaults.max, slot.rules);
    const unit = step ?? 10 ** -digits;
    const first = Math.ceil(roundTo(low / unit, 9));
    const last = Math.floor(roundTo(high / unit, 9));
    if (first > last) return undefined;
    const toValue = (n: number) => roundTo(n * unit, digits);
    return this.unique(
      slot,
      () => toValue(this.faker.number.int({ min: first, max: last })),
      (value, n) => toValue(wrap(Math.round(value / unit) + n - 1, first, last)),
    );
  }

  private boolean(slot: Slot): boolean {
    const field = slot.owner.fields.find((candidate) => candidate.name === slot.name);
    const probability = field?.default === true ? 0.85 : field?.default === false ? 0.15 : 0.5;
    return this.faker.datatype.boolean({ probability });
  }

  private date(kind: 'date' | 'datetime', slot: Slot): string | undefined {
    const hint = dateHint(slot.name);
    const from = this.nowMs + (hint?.fromDays ?? -PAST_WINDOW_DAYS) * DAY_MS;
    const to = this.nowMs + (hint?.toDays ?? 0) * DAY_MS;
    const bounds = {
      min: slot.rules.earliest === undefined ? undefined : Date.parse(slot.rules.earliest),
      max: slot.rules.latest === undefined ? undefined : Date.parse(slot.rules.latest),
    };
    const [low, high] = fitRange(from, to, {
      min: Number.isNaN(bounds.min) ? undefined : bounds.min,
      max: Number.isNaN(bounds.max) ? undefined : bounds.max,
    });
    const unit = kind === 'date' ? DAY_MS : 1000;
    const first = Math.ceil(low / unit);
    const last = Math.floor(high / unit);
    if (first > last) return undefined;
    return this.unique(
      slot,
      () => formatMoment(this.faker.number.int({ min: first, max: last }) * unit, kind),
      (value, n) =>
        formatMoment(wrap(Math.floor(Date.parse(value) / unit) + n - 1, first, last) * unit, kind),
    );
  }

  /**
   * Keys a reference may point at: every record of an entity generated before, or the records before
   * this one of the same entity. A required reference with nothing before it (a cycle of required
   * references) names a record inserted later rather than none.
   */
  private pool(target: string, slot: Slot): JsonValue[] {
    const planned = this.plannedKeys.get(target);
    if (planned === undefined) return [];
    if (this.done.has(target)) return planned;
    const before = target === slot.root.name ? planned.slice(0, slot.index) : [];
    if (before.length > 0 || !slot.rules.required) return before;
    const own = target === slot.root.name ? planned[slot.index] : undefined;
    const later = planned.filter((key) => key !== own);
    return later.length > 0 ? later : planned;
  }

  private object(entityName: string, slot: Slot): StoredRecord | undefined {
    const entity = this.byName.get(entityName);
    if (entity === undefined || slot.depth >= MAX_OBJECT_DEPTH) return undefined;
    const place = this.index.enter(slot.place, slot.name, entity.name);
    const object: StoredRecord = {};
    for (const field of entity.fields) {
      if (field.derived !== undefined) continue;
      const rules = this.index.rulesAt(place, field.name, field.kind);
      const roll = this.faker.datatype.boolean({ probability: PRESENT_PROBABILITY });
      if (field.writeOnly && !rules.required) continue;
      if (!(rules.required || field.default !== undefined || roll)) continue;
      const value = this.value(
        field,
        this.slot(slot.root, entity, place, field, rules, object, slot.index, slot.depth + 1),
      );
      if (value !== undefined) object[field.name] = value;
    }
    this.copyPrices(entity, place, object);
    return object;
  }

  /** 1..3 items (within the field's count bounds); references and enum values are distinct. */
  private list(of: FieldType, slot: Slot): JsonValue[] | undefined {
    const [low, high] = fitRange(1, 3, slot.rules);
    const first = Math.max(0, Math.ceil(low));
    const last = Math.floor(high);
    if (first > last) return undefined;
    const size = this.faker.number.int({ min: first, max: last });
    const itemSlot: Slot = { ...slot, rules: { ...NO_RULES, required: true, patterns: slot.rules.patterns } };
    const distinct = (values: JsonValue[]) => {
      if (values.length < first) return slot.rules.required ? values : undefined;
      return this.faker.helpers.arrayElements(values, Math.min(size, values.length));
    };
    if (of.kind === 'reference') return distinct(this.pool(of.entity, slot));
    if (of.kind === 'enum') return distinct(of.values.map((value) => value.value));
    // Items differ: distinct words, and objects that reference distinct records (no order line twice).
    const references =
      of.kind === 'object'
        ? (this.byName.get(of.entity)?.fields ?? []).filter((field) => field.kind === 'reference')
        : [];
    const identity = (item: JsonValue): string | undefined => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) return JSON.stringify(item);
      if (references.length === 0) return undefined;
      return JSON.stringify(references.map((field) => item[field.name] ?? null));
    };
    const items: JsonValue[] = [];
    const seen = new Set<string>();
    for (let attempt = 0; items.length < size && attempt < size * 5; attempt++) {
      const item = this.value(of, itemSlot);
      if (item === undefined) continue;
      const key = identity(item);
      if (key !== undefined && seen.has(key)) continue;
      if (key !== undefined) seen.add(key);
      items.push(item);
    }
    return items.length >= first ? items : undefined;
  }

  private file(accept: string[] | undefined, slot: Slot): StoredRecord | undefined {
    const types = (accept ?? []).map(mediaType).filter((type) => type !== undefined);
    const type = types.length > 0 ? this.faker.helpers.arrayElement(types) : 'application/pdf';
    const [low, high] = fitRange(10_000, 2_000_000, slot.rules);
    const first = Math.ceil(low);
    const last = Math.floor(high);
    if (first > last) return undefined;
    const name = this.faker.system.commonFileName(EXTENSIONS[type] ?? 'bin');
    return { name, type, size: this.faker.number.int({ min: first, max: last }) };
  }

  /**
   * A price next to a reference (an order line's unit price) is the referenced record's price when it
   * has one, so that lines agree with the catalogue.
   */
  private copyPrices(owner: Entity, place: FieldPlace, object: StoredRecord): void {
    const references = owner.fields.filter((field) => field.kind === 'reference');
    const prices = owner.fields.filter(
      (field) =>
        (field.kind === 'money' || field.kind === 'number') &&
        typeof object[field.name] === 'number' &&
        nameMatches(field.name, ['price', 'unitprice']),
    );
    for (const field of prices) {
      const rules = this.index.rulesAt(place, field.name, field.kind);
      const price = references
        .map((reference) => {
          const key = object[reference.name];
          if (reference.kind !== 'reference' || key === undefined) return undefined;
          const target = this.recordsByKey.get(reference.entity)?.get(String(key));
          return [target?.[field.name], target?.price].find((value) => typeof value === 'number');
        })
        .find((value): value is number => typeof value === 'number' && withinBounds(value, rules));
      if (price !== undefined) object[field.name] = price;
    }
  }

  /**
   * Runs `produce` until it gives a value not seen before at this field (when the field must be unique),
   * then numbers the last value with `vary`. Values that cannot be made unique are left out.
   */
  private unique<T extends JsonValue>(
    slot: Slot,
    produce: () => T | undefined,
    vary?: (value: T, n: number) => T | undefined,
  ): T | undefined {
    if (!slot.rules.unique) return produce();
    let seen = this.seen.get(slot.uniquePath);
    if (seen === undefined) {
      seen = new Set();
      this.seen.set(slot.uniquePath, seen);
    }
    let last: T | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const value = produce();
      if (value === undefined) continue;
      last = value;
      if (!seen.has(JSON.stringify(value))) {
        seen.add(JSON.stringify(value));
        return value;
      }
    }
    if (last === undefined || vary === undefined) return undefined;
    for (let n = 2; n < 2 + this.count + ATTEMPTS; n++) {
      const value = vary(last, n);
      if (value !== undefined && !seen.has(JSON.stringify(value))) {
        seen.add(JSON.stringify(value));
        return value;
      }
    }
    return undefined;
  }
}

/** Intersects a plausible range with the field's bounds; a range entirely outside them moves inside. */
function fitRange(low: number, high: number, bounds: { min?: number; max?: number }): [number, number] {
  const { min, max } = bounds;
  const from = min === undefined ? low : Math.max(low, min);
  const to = max === undefined ? high : Math.min(high, max);
  if (from <= to) return [from, to];
  if (min !== undefined && max !== undefined) return [min, max];
  if (min !== undefined) return [min, min + (high - low)];
  const upper = max ?? high;
  return [upper >= 0 && low >= 0 ? 0 : upper - (high - low), upper];
}

function withinBounds(value: number, rules: SeedRules): boolean {
  return (rules.min === undefined || value >= rules.min) && (rules.max === undefined || value <= rules.max);
}

/** Steps past the end of a range start again at its beginning, so every value in it gets a turn. */
function wrap(step: number, first: number, last: number): number {
  const size = last - first + 1;
  return first + ((((step - first) % size) + size) % size);
}

function fitsText(text: string, rules: SeedRules): boolean {
  const length = Array.from(text).length;
  if (rules.min !== undefined && length < rules.min) return false;
  if (rules.max !== undefined && length > rules.max) return false;
  return rules.patterns.every((pattern) => pattern.test(text));
}

/** Ways to make a taken value distinct: `+n` before an email's `@`, a trailing number bumped, or `-n`. */
function numbered(value: string, n: number): string[] {
  const at = value.lastIndexOf('@');
  const candidates: string[] = [];
  if (at > 0) candidates.push(`${value.slice(0, at)}+${n}${value.slice(at)}`);
  const digits = /\d+$/.exec(value)?.[0];
  if (digits !== undefined) {
    const bumped = String(Number(digits) + n - 1).padStart(digits.length, '0');
    if (bumped.length === digits.length) candidates.push(value.slice(0, -digits.length) + bumped);
  }
  candidates.push(`${value}-${n}`, `${value}${n}`);
  return candidates;
}

function roundTo(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

function formatMoment(ms: number, kind: 'date' | 'datetime'): string {
  const iso = new Date(ms).toISOString();
  return kind === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/** `Order` -> `ORD`: the prefix of sequential numbers such as `ORD-000042`. */
function sequencePrefix(entity: string): string {
  const letters = entity.replace(/[^A-Za-z]/g, '').toUpperCase();
  return letters.length >= 3 ? letters.slice(0, 3) : 'REC';
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/json': 'json',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

const BY_EXTENSION: Record<string, string> = {
  ...Object.fromEntries(Object.entries(EXTENSIONS).map(([type, extension]) => [extension, type])),
  jpeg: 'image/jpeg',
};

/** `image/*` -> `image/png`, `.pdf` -> `application/pdf`; anything unreadable is dropped. */
function mediaType(accept: string): string | undefined {
  const value = accept.trim().toLowerCase();
  if (value.startsWith('.')) return BY_EXTENSION[value.slice(1)];
  if (value === '*/*' || value === '*') return 'application/pdf';
  if (value.endsWith('/*')) {
    const family = value.slice(0, -2);
    return Object.keys(EXTENSIONS).find((type) => type.startsWith(`${family}/`));
  }
  return value.includes('/') ? value : undefined;
}

/** FNV-1a over UTF-16 code units: a stable 32-bit number per entity name, the same on every machine. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
