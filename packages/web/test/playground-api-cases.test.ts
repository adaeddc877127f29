import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiDescription } from '@ninefold/model';
import { describeApi, loadSpec, type Model, type Principal } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { everyFieldWritable } from '../../server/test/support/variants';
import { ApiError, type DataProvider } from '../src/data/data-provider';
import { createTabApi } from '../src/playground/tab-api';
import { API_CASES, type ApiCase, type ApiStep } from './support/api-cases';
import { servedToPeople } from './support/served-people';

// The playground's API in the tab and the prototype API of `ninefold serve` answer the same calls the
// same way: every case of support/api-cases.ts runs against both, and each must get the answers the
// case states. A rule one side enforced and the other did not would fail here.

const ROOT = resolve(import.meta.dirname, '../../..');
const NOW = new Date('2026-06-01T12:00:00Z');

function modelOf(apiCase: ApiCase): Model {
  const file = resolve(ROOT, apiCase.spec);
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.ok || !loaded.model) throw new Error(`${apiCase.spec}: ${JSON.stringify(loaded.issues)}`);
  return apiCase.variant === 'every-field-writable' ? everyFieldWritable(loaded.model) : loaded.model;
}

/** A data interface per person of the case. */
type Backend = (person: string) => DataProvider;

async function served(apiCase: ApiCase, model: Model): Promise<{ as: Backend; close(): Promise<void> }> {
  return servedToPeople(model, apiCase.people, { now: NOW, domain: 'cases.test' });
}

function inTab(apiCase: ApiCase, model: Model): { as: Backend } {
  const api = { ...describeApi(model), base: '/api' } as ApiDescription;
  let current: Principal = {};
  const tab = createTabApi(model, api, {}, { principal: () => current, now: () => NOW });
  return {
    as: (person) => {
      const who = apiCase.people[person];
      // One API, asked as one person at a time: the steps run in order.
      current =
        !who || who.role === null
          ? {}
          : {
              role: who.role,
              user: {
                ...who.attributes,
                id: `user-${person}`,
                email: `${person}@cases.test`,
                role: who.role,
              },
            };
      return tab;
    },
  };
}

/** What a step got, in the case's words. */
async function outcome(data: DataProvider, step: ApiStep, saved: Map<string, string>): Promise<string> {
  const id = (name: string) => saved.get(`${step.entity}:${name}`) ?? name;
  try {
    switch (step.do) {
      case 'create': {
        const made = await data.create({ entity: step.entity, values: step.values });
        if (step.save) saved.set(`${step.entity}:${step.save}`, String(made.record.id));
        return 'ok';
      }
      case 'update': {
        const read = await data.get({ entity: step.entity, id: id(step.id) }).catch(() => undefined);
        await data.update({
          entity: step.entity,
          id: id(step.id),
          values: step.values,
          ...(read?.version ? { version: read.version } : { version: '"0"' }),
        });
        return 'ok';
      }
      case 'get': {
        const read = await data.get({ entity: step.entity, id: id(step.id) });
        return withHidden('ok', [read.record], step.hidden);
      }
      case 'delete':
        await data.delete({ entity: step.entity, id: id(step.id) });
        return 'ok';
      case 'transition': {
        const read = await data.get({ entity: step.entity, id: id(step.id) }).catch(() => undefined);
        await data.transition({
          entity: step.entity,
          id: id(step.id),
          transition: step.transition,
          ...(read?.version ? { version: read.version } : {}),
        });
        return 'ok';
      }
      case 'list': {
        const page = await data.list({
          entity: step.entity,
          filters: [],
          sort: [],
          page: { style: 'page', page: 1, size: 100 },
        });
        const counted = step.count === undefined ? 'ok' : `ok ${page.items.length}`;
        return withHidden(counted, page.items, step.hidden);
      }
    }
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code ?? ''}`.trim();
    throw error;
  }
}

function withHidden(result: string, records: Array<Record<string, unknown>>, hidden: string[] = []): string {
  const shown = hidden.filter((field) => records.some((record) => field in record));
  return shown.length === 0 ? result : `${result}, shows ${shown.join(', ')}`;
}

function expected(step: ApiStep): string {
  return step.do === 'list' && step.count !== undefined && step.expect === 'ok'
    ? `ok ${step.count}`
    : step.expect;
}

describe('the same API cases, against `ninefold serve` and the playground API in the tab', () => {
  for (const apiCase of API_CASES) {
    it(apiCase.name, async () => {
      const model = modelOf(apiCase);
      const server = await served(apiCase, model);
      const tab = inTab(apiCase, model);
      const answers: Array<{ step: string; wanted: string; serve: string; tab: string }> = [];
      const savedServe = new Map<string, string>();
      const savedTab = new Map<string, string>();
      try {
        for (const [index, step] of apiCase.steps.entries()) {
          const label = `${index + 1}. ${step.as} ${step.do} ${step.entity}${'id' in step ? ` ${step.id}` : ''}${step.do === 'transition' ? ` ${step.transition}` : ''}`;
          answers.push({
            step: label,
            wanted: expected(step),
            serve: await outcome(server.as(step.as), step, savedServe),
            tab: await outcome(tab.as(step.as), step, savedTab),
          });
        }
      } finally {
        await server.close();
      }
      // Every answer as wanted, on both sides: printed whole, so a failure shows every step at once.
      expect(
        answers.filter((answer) => answer.serve !== answer.wanted || answer.tab !== answer.wanted),
      ).toEqual([]);
    });
  }
});
