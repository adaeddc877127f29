import { didYouMean } from '../authoring/suggest';
import type { PathSegment } from '../issues';
import type { Entity, Model } from '../model';
import { PROTOTYPE_CODES } from '../rules/errors';
import { type Context, isRecord, refer, referFieldPath, report, shownList, text } from './context';

// The checks of point 8 (the error catalogue), codes nothing can produce included. check/index.ts runs them in point order over one shared Context.

export function checkErrors(context: Context): void {
  const entries = shownList(context.model.errors, 'entries');
  if (!entries) return;
  // Codes that can reach the client, when every answer is the prototype API's; else any code may.
  const produced = answersOnlyFromPrototype(context.model) ? producedCodes(context.model) : undefined;
  entries.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const base: PathSegment[] = ['errors', index];
    const owner = `error entry ${index + 1} (point 8)`;
    const field = entry.field;
    if (typeof field === 'string') {
      const [entityName, ...segments] = field.split('.');
      if (
        entityName === undefined ||
        entityName === '' ||
        segments.length === 0 ||
        !segments.every(Boolean)
      ) {
        report(
          context,
          'invalid-value',
          [...base, 'field'],
          `${owner} names field "${field}"; write it as Entity.field, e.g. "Order.quantity".`,
        );
      } else {
        const entity = refer<Entity>(context, 'entity', entityName, [...base, 'field'], owner);
        referFieldPath(context, entity, segments, [...base, 'field'], owner);
      }
    }
    const match = isRecord(entry.match) ? entry.match : {};
    const code = text(match.code);
    if (code !== undefined && produced !== undefined && !produced.has(code)) {
      report(
        context,
        'unknown-reference',
        [...base, 'code'],
        `${owner} matches the code "${code}", which no rule of point 5 or guard of point 4 gives and the ` +
          'prototype API never answers, so it is never used. Give a rule or a guard this code, or correct it.',
        { severity: 'warning', hint: didYouMean(code, [...produced]) },
      );
    }
    const catchAll = match.status === undefined && match.type === undefined && match.code === undefined;
    // A catch-all as the last entry is the usual fallback; anywhere else it hides the entries after it.
    if (catchAll && index < entries.length - 1) {
      report(
        context,
        'invalid-value',
        base,
        `${owner} has no status, type or code, so it matches every answer and the entries after it are ` +
          'never used. This catch-all entry belongs last: put it last, or give it a status, type or code.',
        { severity: 'warning' },
      );
    }
  });
}

export function constantNumber(model: Model, name: string): number | undefined {
  const found = (shownList(model.constants, 'items') ?? []).find(
    (item) => isRecord(item) && item.name === name,
  );
  const value = isRecord(found) ? found.value : undefined;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Whether every answer comes from the prototype API (no calls of point 7 to a server of its own): then
 * its codes are known, and a catalogue entry for any other code is dead.
 */
export function answersOnlyFromPrototype(model: Model): boolean {
  const calls = model.calls as { shown?: unknown; baseUrl?: unknown } | undefined;
  return calls?.shown !== true || !/^https?:/i.test(String(calls.baseUrl ?? ''));
}

export function producedCodes(model: Model): Set<string> {
  const codes = new Set(PROTOTYPE_CODES);
  for (const rule of shownList(model.validation, 'rules') ?? []) {
    const code = isRecord(rule) ? text(rule.code) : undefined;
    if (code !== undefined) codes.add(code);
  }
  for (const machine of shownList(model.states, 'machines') ?? []) {
    for (const transition of isRecord(machine) && Array.isArray(machine.transitions)
      ? machine.transitions
      : []) {
      const code = isRecord(transition) ? text(transition.guardCode) : undefined;
      if (code !== undefined) codes.add(code);
    }
  }
  return codes;
}
