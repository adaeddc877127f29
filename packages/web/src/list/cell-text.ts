import {
  exhaustiveSwitchError,
  type FieldType,
  findEntity,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import type { Formatters } from '../i18n/I18nProvider';

/** What formatting a cell needs besides the value: the model for references, and the language. */
export interface CellTextContext {
  model: Model;
  format: Formatters;
  yes: string;
  no: string;
  /** "3 items": how a list of records reads in one cell. */
  items(count: number): string;
}

/**
 * A value as plain text for a table cell, by its field's kind. Stands in for the field displays of
 * `src/fields` until they exist; it never produces markup, so API data cannot inject any.
 */
export function cellText(type: FieldType, value: JsonValue | undefined, context: CellTextContext): string {
  if (value === undefined || value === null) return '';
  switch (type.kind) {
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'markdown':
      // One line in a cell: the text with its line breaks folded.
      return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : JSON.stringify(value);
    case 'number':
    case 'integer': {
      const number = toNumber(value);
      return number === undefined ? String(value) : context.format.number(number);
    }
    case 'money': {
      const number = toNumber(value);
      return number === undefined ? String(value) : context.format.money(number, type.currency);
    }
    case 'boolean':
      return value === true || value === 'true'
        ? context.yes
        : value === false || value === 'false'
          ? context.no
          : String(value);
    case 'date':
      return typeof value === 'string' ? context.format.date(value) : String(value);
    case 'datetime':
      return typeof value === 'string' ? context.format.datetime(value) : String(value);
    case 'enum': {
      const option = type.values.find((candidate) => candidate.value === value);
      return option?.label ?? String(value);
    }
    case 'reference':
      return referenceText(context.model, type.entity, value);
    case 'object':
      return objectText(context.model, type.entity, value, context);
    case 'file':
      return fileText(value);
    case 'list': {
      if (!Array.isArray(value)) return String(value);
      if (type.of.kind === 'object' || type.of.kind === 'list') return context.items(value.length);
      const of = type.of;
      return value.map((item) => cellText(of, item, context)).join(', ');
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

function toNumber(value: JsonValue): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/**
 * A list answer usually holds only the referenced record's key, so that is what shows. When the API
 * embeds the record instead, its display field is used.
 */
function referenceText(model: Model, entityName: string, value: JsonValue): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return String(value);
  const entity = findEntity(model, entityName);
  const shown = (entity?.display && value[entity.display]) ?? value[entity?.key ?? 'id'];
  return shown === undefined || shown === null || typeof shown === 'object' ? '' : String(shown);
}

function objectText(model: Model, entityName: string, value: JsonValue, context: CellTextContext): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return String(value);
  const entity = findEntity(model, entityName);
  if (entity?.display !== undefined) {
    const field = entity.fields.find((candidate) => candidate.name === entity.display);
    if (field) return cellText(field, value[entity.display], context);
  }
  // An embedded value without a display field (an address) reads as its simple parts, in field order.
  const parts: string[] = [];
  for (const field of entity?.fields ?? []) {
    if (field.kind === 'object' || field.kind === 'list' || field.kind === 'file') continue;
    const text = cellText(field, value[field.name], context);
    if (text !== '') parts.push(text);
  }
  return parts.join(', ');
}

function fileText(value: JsonValue): string {
  if (typeof value === 'string') return value.split(/[/\\]/).filter(Boolean).at(-1) ?? value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const name = value.name ?? value.filename ?? value.url;
    return typeof name === 'string' ? fileText(name) : '';
  }
  return String(value);
}
