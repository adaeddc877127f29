import { exhaustiveSwitchError } from '@ninefold/model';
import { importOpenApi } from '@ninefold/openapi';
import type { ImportedDocument, ImportMessage, ImportRequest } from './protocol';

/** Download progress is reported each time this many more bytes have arrived. */
const PROGRESS_STEP_BYTES = 512 * 1024;

/** The largest document the page accepts: above it a tab risks running out of memory. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

/**
 * The worker's job, apart from the worker: reads the document, imports it and reports each step through
 * `post`. Never throws: every failure ends in one `failed` message that says why.
 */
export async function runImport(
  request: ImportRequest,
  post: (message: ImportMessage) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const started = performance.now();
  let text: string;
  let file: string;
  try {
    switch (request.kind) {
      case 'file':
        file = request.name;
        if (request.file.size > MAX_IMPORT_BYTES) throw new TooLarge(request.file.size);
        post({ kind: 'progress', stage: 'download', loaded: 0, total: request.file.size });
        text = await request.file.text();
        break;
      case 'url':
        file = lastSegment(request.url);
        text = await download(request.url, post, fetchImpl);
        break;
      default:
        return exhaustiveSwitchError(request);
    }
  } catch (error) {
    post({ kind: 'failed', message: reasonOf(error) });
    return;
  }
  try {
    post({ kind: 'progress', stage: 'read' });
    const result = importOpenApi({ text, file }, { onStage: (stage) => post({ kind: 'progress', stage }) });
    const counts = result.report?.counts;
    const done: ImportedDocument = {
      file,
      bytes: new TextEncoder().encode(text).length,
      version: result.version,
      ok: result.ok,
      issues: result.issues,
      sizes: {
        entities: sizeOf(result.model?.entities),
        screens: sizeOf(result.model?.screens),
        calls: sizeOf(result.model?.calls),
      },
      counts: {
        mapped: counts?.mapped ?? 0,
        inferred: counts?.inferred ?? 0,
        notShown: counts?.['not-shown'] ?? 0,
        skipped: counts?.skipped ?? 0,
      },
      millis: Math.round(performance.now() - started),
    };
    if (result.model) done.modelJson = JSON.stringify(result.model);
    if (result.coverage) done.coverage = result.coverage;
    post({ kind: 'done', result: done });
  } catch (error) {
    // importOpenApi never throws by design; this guards the page against a bug in it.
    post({ kind: 'failed', message: `the import stopped on an internal error: ${reasonOf(error)}` });
  }
}

async function download(
  url: string,
  post: (message: ImportMessage) => void,
  fetchImpl: typeof fetch,
): Promise<string> {
  let answer: Response;
  try {
    answer = await fetchImpl(url, {
      headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
    });
  } catch (error) {
    throw new Error(
      `${url} could not be fetched (${reasonOf(error)}). Only documents on this site can be read here.`,
    );
  }
  if (!answer.ok) throw new Error(`${url} answered ${answer.status} ${answer.statusText}`.trim());
  const declared = Number(answer.headers.get('content-length'));
  const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
  if (total !== undefined && total > MAX_IMPORT_BYTES) throw new TooLarge(total);
  post({ kind: 'progress', stage: 'download', loaded: 0, ...(total === undefined ? {} : { total }) });
  if (!answer.body) return answer.text();
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    if (loaded > MAX_IMPORT_BYTES) {
      await reader.cancel();
      throw new TooLarge(loaded);
    }
    // Chunks are often 64 kB: a message per chunk would redraw the page hundreds of times for nothing.
    if (loaded - reported >= PROGRESS_STEP_BYTES) {
      reported = loaded;
      post({ kind: 'progress', stage: 'download', loaded, ...(total === undefined ? {} : { total }) });
    }
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

class TooLarge extends Error {
  constructor(bytes: number) {
    super(
      `the document is ${(bytes / 1048576).toFixed(1)} MB, above the ${MAX_IMPORT_BYTES / 1048576} MB this page reads; import it with the ninefold command instead`,
    );
  }
}

function sizeOf(point: { shown: boolean; items?: unknown[] } | undefined): number {
  return point?.shown && point.items ? point.items.length : 0;
}

function lastSegment(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  const segment = path.split('/').filter(Boolean).pop();
  return segment ? decodeURIComponent(segment) : url;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
