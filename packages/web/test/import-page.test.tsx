import { notShownModel } from '@ninefold/model';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import type { SpecContextValue } from '../src/app/SpecContext';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import type { ImportMessage, ImportRequest } from '../src/import/protocol';
import { runImport } from '../src/import/run-import';

/** A small document with one resource: a list, an item, and a create call. */
const PETS = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pet Shelter', version: '1' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
            },
          },
        },
      },
      post: {
        operationId: 'createPet',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string', maxLength: 40 } },
      },
    },
  },
});

/**
 * Stands in for the browser's Worker: runs the worker's job in this thread, asynchronously, and posts
 * its messages back as the real one does. Records what the page did with it.
 */
class InPageWorker {
  static started: InPageWorker[] = [];
  onmessage: ((event: MessageEvent<ImportMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  constructor() {
    InPageWorker.started.push(this);
  }
  postMessage(request: ImportRequest) {
    void runImport(request, (message) => {
      if (!this.terminated) this.onmessage?.({ data: message } as MessageEvent<ImportMessage>);
    });
  }
  terminate() {
    this.terminated = true;
  }
}

function renderImportPage(path = '/_/import') {
  vi.stubGlobal('Worker', InPageWorker);
  const model = notShownModel('Host client');
  const api = { base: '/api', conventional: false, calls: [] };
  const openPreview = vi.fn<NonNullable<SpecContextValue['openPreview']>>();
  render(
    <App
      spec={{ model, api, data: createMemoryDataProvider(model, api), openPreview }}
      initialPath={path}
      locale="en"
    />,
  );
  return { openPreview };
}

afterEach(() => {
  vi.unstubAllGlobals();
  InPageWorker.started = [];
});

describe('the import page', () => {
  it('imports a chosen file in a worker, sums it up, and opens the preview of its client', async () => {
    const { openPreview } = renderImportPage();
    const input = await screen.findByLabelText('OpenAPI document');
    await userEvent.upload(input, new File([PETS], 'pets.json', { type: 'application/json' }));
    expect(await screen.findByText(/^pets\.json imported \(OpenAPI 3\.0\) in \d+\.\d s$/)).toBeTruthy();
    expect(screen.getByText(/1 entities, \d+ screens and 3 calls/)).toBeTruthy();
    expect(InPageWorker.started).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Open the preview' }));
    expect(openPreview).toHaveBeenCalledTimes(1);
    const opened = openPreview.mock.calls[0]?.[0];
    expect(opened?.file).toBe('pets.json');
    expect(opened?.model.entities.shown && opened.model.entities.items.map((entity) => entity.name)).toEqual([
      'Pet',
    ]);
    expect(InPageWorker.started[0]?.terminated).toBe(true);
  });

  it('lists the issues of a broken document with their place, and offers no preview', async () => {
    const { openPreview } = renderImportPage();
    const broken = 'openapi: 3.0.3\ninfo:\n  title: Broken\n  version: "1"\npaths:\n  /pets: [\n';
    await userEvent.upload(
      await screen.findByLabelText('OpenAPI document'),
      new File([broken], 'broken.yaml'),
    );
    const list = await screen.findByRole('list', { name: 'Issues' });
    expect(list.textContent).toMatch(/broken\.yaml:\d+:\d+ error:/);
    expect(screen.getByText('broken.yaml has errors, so there is nothing to preview')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open the preview' })).toBeNull();
    expect(openPreview).not.toHaveBeenCalled();
  });

  it('reads the document a link names on this site, and opens the preview at once when asked to', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(PETS, { headers: { 'content-type': 'application/json' } });
    });
    const { openPreview } = renderImportPage('/_/import?url=/docs/pets.json&open=1');
    await vi.waitFor(() => expect(openPreview).toHaveBeenCalledTimes(1));
    expect(fetched).toEqual([new URL('/docs/pets.json', document.baseURI).href]);
    expect(openPreview.mock.calls[0]?.[0].file).toBe('pets.json');
  });

  it('refuses an address on another site, which the page may not read', async () => {
    renderImportPage();
    await userEvent.type(
      await screen.findByLabelText('or its address on this site'),
      'https://evil.example/x.json',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Read' }));
    expect(await screen.findByText('Give an address on this site, such as /openapi.json.')).toBeTruthy();
    expect(InPageWorker.started).toHaveLength(0);
  });

  it('says why when the document cannot be fetched', async () => {
    vi.stubGlobal('fetch', async () => new Response('gone', { status: 404, statusText: 'Not Found' }));
    renderImportPage();
    await userEvent.type(await screen.findByLabelText('or its address on this site'), '/missing.json');
    await userEvent.click(screen.getByRole('button', { name: 'Read' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The document could not be imported');
    expect(alert.textContent).toContain('/missing.json answered 404 Not Found');
  });

  it('shows the step in progress, and a cancel ends the worker', async () => {
    // A fetch that never answers keeps the import at its first step.
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    renderImportPage();
    await userEvent.type(await screen.findByLabelText('or its address on this site'), '/slow.json');
    await userEvent.click(screen.getByRole('button', { name: 'Read' }));
    // The page's own status region, beside the shell's (empty) offline banner.
    await waitFor(() =>
      expect(screen.getAllByRole('status').map((region) => region.textContent)).toContain(
        'Step 1 of 4: reading the file',
      ),
    );
    expect(screen.getByLabelText('or its address on this site')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('The import was cancelled.')).toBeTruthy();
    expect(InPageWorker.started[0]?.terminated).toBe(true);
  });

  it('says so when the worker itself fails, apart from the document', async () => {
    class BrokenWorker extends InPageWorker {
      override postMessage() {
        this.onerror?.({ message: 'script failed to load', preventDefault() {} } as ErrorEvent);
      }
    }
    renderImportPage();
    vi.stubGlobal('Worker', BrokenWorker);
    fireEvent.change(await screen.findByLabelText('OpenAPI document'), {
      target: { files: [new File([PETS], 'pets.json')] },
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The import could not run in the background: script failed to load',
    );
  });
});
