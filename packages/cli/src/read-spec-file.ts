import { readFile, stat } from 'node:fs/promises';
import { MAX_SPEC_BYTES } from '@ninefold/model';
import { MAX_OPENAPI_BYTES } from '@ninefold/openapi';

/**
 * The most a file may hold before it is read: an OpenAPI document's limit, the larger one. Each loader then
 * holds its text to its own (a nine-point specification to MAX_SPEC_BYTES): with one 4 MB limit here,
 * GitHub's 13 MB description could be imported in the page but not served.
 */
const MAX_FILE_BYTES = Math.max(MAX_SPEC_BYTES, MAX_OPENAPI_BYTES);

export type ReadOutcome = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a specification file as UTF-8 text. Bytes that are not UTF-8 become replacement characters, which
 * the loader recognizes as a binary file, so only a file that cannot be opened at all is a failure here.
 */
export async function readSpecFile(file: string): Promise<ReadOutcome> {
  try {
    const info = await stat(file);
    if (info.isDirectory())
      return { ok: false, message: `${file} is a directory, not a specification file.` };
    if (info.size > MAX_FILE_BYTES) {
      return {
        ok: false,
        message: `${file} is ${(info.size / 1024 / 1024).toFixed(1)} MB; a specification may be at most ${MAX_SPEC_BYTES / 1024 / 1024} MB, and an OpenAPI document ${MAX_OPENAPI_BYTES / 1024 / 1024} MB.`,
      };
    }
    const bytes = await readFile(file);
    return { ok: true, text: new TextDecoder('utf-8', { fatal: false }).decode(bytes) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    switch (code) {
      case 'ENOENT':
        return { ok: false, message: `${file} does not exist.` };
      case 'EACCES':
      case 'EPERM':
        return { ok: false, message: `${file} cannot be read: permission denied.` };
      default:
        return { ok: false, message: `${file} cannot be read: ${(error as Error).message}` };
    }
  }
}
