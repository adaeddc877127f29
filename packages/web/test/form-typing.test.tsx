import type { ApiDescription } from '@ninefold/model';
import { type Field, type Model, notShownModel } from '@ninefold/model';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';

const FIELDS = 200;

/** An entity of 200 fields, each text with a length limit (so each has a live counter). */
function bigModel(): Model {
  const fields: Field[] = Array.from({ length: FIELDS }, (_, index) => ({
    name: `field${index}`,
    kind: 'text',
  }));
  return {
    ...notShownModel('Big'),
    entities: {
      shown: true,
      items: [
        { name: 'Big', key: 'id', fields: [{ name: 'id', kind: 'integer', readOnly: true }, ...fields] },
      ],
    },
    screens: {
      shown: true,
      items: [{ name: 'new-big', kind: 'create', route: '/bigs/new', entity: 'Big' }],
    },
    validation: {
      shown: true,
      fields: fields.map((field) => ({
        entity: 'Big',
        field: [field.name],
        max: { kind: 'number', value: 50 },
      })),
      rules: [],
    },
    calls: {
      shown: true,
      items: [
        {
          name: 'createBig',
          method: 'POST',
          path: '/bigs',
          purpose: 'create',
          entity: 'Big',
          parameters: [],
          filters: [],
          body: { entity: 'Big', encoding: 'json' },
          response: { shape: 'one' },
        },
      ],
    },
  };
}

describe('a form of 200 fields', () => {
  // Guards against a keystroke re-rendering the whole form (a `watch()` of everything, a form-level
  // subscription): typing must cost a small fraction of drawing the form.
  it('re-renders only the typed field on each keystroke', async () => {
    const model = bigModel();
    const api: ApiDescription = {
      base: '/api',
      conventional: false,
      calls: model.calls.shown ? model.calls.items : [],
    };
    const data = createMemoryDataProvider(model, api);
    const commits: number[] = [];
    render(
      <Profiler id="app" onRender={(_id, _phase, duration) => commits.push(duration)}>
        <App spec={{ model, api, data }} initialPath="/bigs/new" locale="en" />
      </Profiler>,
    );
    const input = await screen.findByLabelText('Field199', {}, { timeout: 10_000 });
    const drawn = commits.reduce((sum, duration) => sum + duration, 0);
    const user = userEvent.setup();
    const before = commits.length;
    await user.type(input, 'abcdefghij');
    await act(() => Promise.resolve());
    const typing = commits.slice(before);
    expect(input).toHaveProperty('value', 'abcdefghij');
    expect(screen.getByText('10 of 50')).toBeTruthy();
    const perKeystroke = typing.reduce((sum, duration) => sum + duration, 0) / 10;
    expect(perKeystroke).toBeLessThan(drawn / 20);
  });
});
