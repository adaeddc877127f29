import {
  type ApiDescription,
  type Call,
  FIGURE_PERIODS,
  type FigureAnswer,
  type FigureGroup,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import { ApiError, type FigureParams } from './data-provider';
import type { Answer, SendInit } from './http-data-provider';
import { clipText } from './problem-reader';

/** The prototype API's figures call, as a call (it is no call of point 7). */
const FIGURES_CALL: Call = {
  name: 'figures',
  method: 'GET',
  path: '',
  purpose: 'other',
  parameters: [],
  filters: [],
};

/** The most groups read from an answer: a hostile one may hold millions. */
const MAX_GROUPS_READ = 100;

/**
 * `DataProvider.figure`: the figure's own call of point 7 where it names one, else the prototype API's
 * `GET {figures}/{screen}/{figure}`. Either answers `{ value }` or `{ groups: [{ key, value }] }`.
 */
export async function readFigure(
  model: Model,
  api: Pick<ApiDescription, 'figures'>,
  base: string,
  send: (call: Call, url: string, init: SendInit) => Promise<Answer>,
  params: FigureParams,
): Promise<FigureAnswer> {
  const own = params.figure.call;
  const call =
    own === undefined
      ? api.figures === undefined
        ? undefined
        : {
            ...FIGURES_CALL,
            path: `${api.figures}/${encodeURIComponent(params.screen)}/${encodeURIComponent(params.figure.name)}`,
          }
      : model.calls.shown
        ? model.calls.items.find((candidate) => candidate.name === own)
        : undefined;
  if (call === undefined) throw new Error(`No call answers figure ${params.figure.name}.`);
  // Only the prototype API's own call takes a period; a figure's call of point 7 answers as it answers.
  const per = own === undefined && params.per !== undefined ? `?per=${encodeURIComponent(params.per)}` : '';
  const answer = await send(call, `${base}${call.path}${per}`, {
    retry: true,
    ...(params.signal ? { signal: params.signal } : {}),
  });
  const read = readFigureAnswer(answer.body);
  if (read === undefined) {
    throw new ApiError(
      answer.status,
      'Unexpected answer',
      'The API answered with something other than a figure ({ value } or { groups }).',
      'UNEXPECTED_ANSWER',
      undefined,
      [],
      undefined,
    );
  }
  return read;
}

/**
 * A figure as an API answered it, or undefined when it is none: a number (or null) as `value`, or
 * `groups` of keys with numbers. Keys are clipped text or numbers, never markup; a group that is not
 * one is skipped.
 */
export function readFigureAnswer(body: unknown): FigureAnswer | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { value, groups, more, per } = body as {
    value?: unknown;
    groups?: unknown;
    more?: unknown;
    per?: unknown;
  };
  if (groups === undefined) {
    if (value === null) return { value: null };
    return typeof value === 'number' && Number.isFinite(value) ? { value } : undefined;
  }
  if (!Array.isArray(groups)) return undefined;
  const read: FigureGroup[] = [];
  for (const group of groups.slice(0, MAX_GROUPS_READ)) {
    if (typeof group !== 'object' || group === null) continue;
    const { key, value: measured } = group as { key?: unknown; value?: unknown };
    const number = typeof measured === 'number' && Number.isFinite(measured) ? measured : null;
    if (measured !== null && number === null) continue;
    const safeKey: JsonValue | undefined =
      typeof key === 'string'
        ? clipText(key)
        : typeof key === 'number' || typeof key === 'boolean' || key === null
          ? key
          : undefined;
    if (safeKey === undefined) continue;
    read.push({ key: safeKey, value: number });
  }
  const left = typeof more === 'number' && Number.isInteger(more) && more > 0 ? more : 0;
  const period = FIGURE_PERIODS.find((candidate) => candidate === per);
  return {
    groups: read,
    more: left + Math.max(0, groups.length - MAX_GROUPS_READ),
    ...(period === undefined ? {} : { per: period }),
  };
}
