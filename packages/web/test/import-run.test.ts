import { describe, expect, it } from 'vitest';
import type { ImportMessage } from '../src/import/protocol';
import { MAX_IMPORT_BYTES, runImport } from '../src/import/run-import';

const DOC = `openapi: 3.1.0\ninfo: {title: Tiny, version: "1"}\npaths: {}\n`;

async function run(request: Parameters<typeof runImport>[0], fetchImpl?: typeof fetch) {
  const messages: ImportMessage[] = [];
  await runImport(request, (message) => messages.push(message), fetchImpl);
  return messages;
}

describe('the import worker job', () => {
  it('reports each step in order, then the result', async () => {
    const messages = await run({ kind: 'file', file: new Blob([DOC]), name: 'tiny.yaml' });
    expect(messages.map((m) => (m.kind === 'progress' ? m.stage : m.kind))).toEqual([
      'download',
      'read',
      'map',
      'check',
      'done',
    ]);
    const done = messages.at(-1);
    expect(done?.kind === 'done' && done.result).toMatchObject({
      file: 'tiny.yaml',
      version: '3.1',
      bytes: DOC.length,
      ok: true,
    });
  });

  // The browser has no file system: a reference to another file is named, at its line, never followed;
  // one that leaves the document's folder or names a URL is refused as such.
  it('says which references it could not resolve, and refuses those that leave the document', async () => {
    const doc = `${DOC}components:\n  schemas:\n    Pet: {$ref: 'parts/pet.yaml'}\n    Away: {$ref: '//evil.example/x.yaml'}\n    Up: {$ref: '../secret.yaml'}\n`;
    const messages = await run({ kind: 'file', file: new Blob([doc]), name: 'api.yaml' });
    const done = messages.at(-1);
    const issues = done?.kind === 'done' ? done.result.issues : [];
    expect(issues.map((issue) => [issue.code, issue.source?.line])).toEqual([
      ['unreadable-file', 6],
      ['refused-reference', 7],
      ['refused-reference', 8],
    ]);
    expect(issues[0]?.message).toContain('parts/pet.yaml');
  });

  it('streams a download, reporting the bytes against the declared size', async () => {
    const big = `${DOC}# ${'x'.repeat(1_200_000)}\n`;
    const body = new Blob([big]).stream();
    const messages = await run(
      { kind: 'url', url: 'https://site.test/docs/big.yaml?v=2' },
      async () => new Response(body, { headers: { 'content-length': String(big.length) } }),
    );
    const downloads = messages.filter((m) => m.kind === 'progress' && m.stage === 'download');
    expect(downloads.length).toBeGreaterThan(1);
    for (const m of downloads) expect(m.kind === 'progress' && m.total).toBe(big.length);
    const done = messages.at(-1);
    expect(done?.kind === 'done' && done.result.file).toBe('big.yaml');
  });

  it('refuses a document above the limit before reading it', async () => {
    const messages = await run(
      { kind: 'url', url: '/huge.json' },
      async () => new Response('{}', { headers: { 'content-length': String(MAX_IMPORT_BYTES + 1) } }),
    );
    expect(messages).toEqual([
      { kind: 'failed', message: expect.stringMatching(/^the document is 64\.0 MB, above the 64 MB/) },
    ]);
  });

  it('says why a fetch failed', async () => {
    const messages = await run({ kind: 'url', url: '/x.json' }, async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(messages).toEqual([
      {
        kind: 'failed',
        message:
          '/x.json could not be fetched (Failed to fetch). Only documents on this site can be read here.',
      },
    ]);
  });
});
