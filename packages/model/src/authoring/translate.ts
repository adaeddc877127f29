import { entityLabel, entityPlural, fieldLabel, humanize } from '../lookup';
import type { Entity, Field, FieldType, Model } from '../model';
import { translationsFor } from './translation-words';

// The specification's own words in the person's language (point 1's translations). A translation is
// keyed by the text as the specification shows it, labels it leaves to their names included ("Placed
// on" for `placedOn`), so that an author translates what they read, as with gettext. The model is
// translated as a whole, once per language: every screen then shows the words it always showed.

/** The languages the specification has words in besides its own. */
export function translatedLanguages(model: Model): string[] {
  return model.product.shown ? Object.keys(model.product.translations ?? {}) : [];
}

/**
 * The model with its words in `language`: labels (of entities, fields, enum values, states,
 * transitions, roles, screens and figures), help, confirmations and messages. A text without a
 * translation stays as written; so does the whole model when the language is the specification's own or
 * has no translations. Names, expressions and values never change.
 *
 * @example
 * ```ts
 * translateModel(shop, 'fr'); // entities: Order labelled "Commande", its field placedOn "Passée le", ...
 * ```
 */
export function translateModel(model: Model, language: string): Model {
  const words = translationsFor(model, language);
  return words ? translateWith(model, new Map(Object.entries(words))) : model;
}

/**
 * Every text of the specification a translation may be given for: a translation of any other text
 * would never be shown, which `check` says.
 */
export function specTexts(model: Model): Set<string> {
  const seen = new Set<string>();
  translateWith(model, {
    get: (text) => {
      seen.add(text);
      return undefined;
    },
  });
  return seen;
}

/** Where the words come from: a language's translations, or a reader of which texts are asked. */
interface Words {
  get(text: string): string | undefined;
}

function translateWith(model: Model, words: Words): Model {
  const say = (text: string | undefined): string | undefined =>
    text === undefined ? undefined : (words.get(text) ?? words.get(text.trim()) ?? text);
  const sayOwn = (text: string | undefined, fallback: string): string | undefined => {
    const translated = words.get(text ?? fallback);
    return translated ?? text;
  };
  return {
    ...model,
    screens: model.screens.shown
      ? {
          ...model.screens,
          items: model.screens.items.map((screen) => {
            const titled = { ...screen, ...optional('title', say(screen.title)) };
            return titled.kind === 'dashboard'
              ? {
                  ...titled,
                  figures: titled.figures.map((figure) => ({
                    ...figure,
                    ...optional('title', sayOwn(figure.title, humanize(figure.name))),
                    ...optional('description', say(figure.description)),
                  })),
                }
              : titled;
          }),
        }
      : model.screens,
    entities: model.entities.shown
      ? { ...model.entities, items: model.entities.items.map((entity) => translateEntity(entity, words)) }
      : model.entities,
    states: model.states.shown
      ? {
          ...model.states,
          machines: model.states.machines.map((machine) => ({
            ...machine,
            states: machine.states.map((state) => ({
              ...state,
              ...optional(
                'label',
                words.get(`${machine.entity}.${machine.field}.${state.name}`) ??
                  sayOwn(state.label, humanize(state.name)),
              ),
            })),
            transitions: machine.transitions.map((transition) => ({
              ...transition,
              ...optional('label', sayOwn(transition.label, humanize(transition.name))),
              ...optional('guardMessage', say(transition.guardMessage)),
              ...optional('confirm', say(transition.confirm)),
            })),
          })),
        }
      : model.states,
    validation: model.validation.shown
      ? {
          ...model.validation,
          fields: model.validation.fields.map((constraints) => ({
            ...constraints,
            ...optional('message', say(constraints.message)),
          })),
          rules: model.validation.rules.map((rule) => ({
            ...rule,
            message: say(rule.message) ?? rule.message,
            ...optional('hint', say(rule.hint)),
          })),
        }
      : model.validation,
    roles: model.roles.shown
      ? {
          ...model.roles,
          roles: model.roles.roles.map((role) => ({
            ...role,
            ...optional('label', sayOwn(role.label, humanize(role.name))),
            ...optional('description', say(role.description)),
          })),
        }
      : model.roles,
    errors: model.errors.shown
      ? {
          ...model.errors,
          entries: model.errors.entries.map((entry) => ({
            ...entry,
            message: say(entry.message) ?? entry.message,
          })),
        }
      : model.errors,
  };
}

function translateEntity(entity: Entity, words: Words): Entity {
  const label = words.get(entityLabel(entity));
  const plural = words.get(entityPlural(entity));
  return {
    ...entity,
    ...(label !== undefined ? { label } : {}),
    ...(plural !== undefined ? { plural } : {}),
    fields: entity.fields.map((field) => translateField(field, words, `${entity.name}.${field.name}`)),
  };
}

/**
 * A field's words. Each may also be keyed by its path (`Booking.status` for the field's label,
 * `Booking.status.out` for a value or a state), which wins over the shown text: the same word may name
 * two things that another language names apart (an entity Order, and the value "order" of a kind).
 */
function translateField(field: Field, words: Words, path: string): Field {
  const label = words.get(path) ?? words.get(fieldLabel(field));
  const help = field.help === undefined ? undefined : words.get(field.help);
  return {
    ...field,
    ...translateType(field, words, path),
    ...(label !== undefined ? { label } : {}),
    ...(help !== undefined ? { help } : {}),
  } as Field;
}

/** Enum values' labels, also inside lists. */
function translateType<T extends FieldType>(type: T, words: Words, path: string): Partial<T> {
  if (type.kind === 'enum') {
    return {
      values: type.values.map((option) => {
        const label =
          words.get(`${path}.${option.value}`) ??
          words.get(option.label ?? option.value) ??
          words.get(humanize(option.value));
        return label === undefined ? option : { ...option, label };
      }),
    } as unknown as Partial<T>;
  }
  if (type.kind === 'list') {
    return { of: { ...type.of, ...translateType(type.of, words, path) } } as unknown as Partial<T>;
  }
  return {};
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
