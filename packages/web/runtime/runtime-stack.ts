import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A place in a stack, in the source files when a map told where. */
export interface StackFrame {
  /** The function, when the engine named it. */
  name?: string;
  /** A path when the frame is a file's; the URL as the browser wrote it when nothing served it. */
  file: string;
  line: number;
  column: number;
}

/** A module the page ran, as the bundler served it: its file and the map of its transform. */
export interface ServedModule {
  file: string;
  map?: SourceMapPayload;
}

/** At most this many frames are read: a stack deeper than that says nothing more of where it began. */
const MAX_FRAMES = 40;

/** Chromium's and Node's frame: `at name (url:line:column)` or `at url:line:column`. */
const V8_FRAME = /^\s*at\s+(?:(.+?)\s+\()?(\S+?):(\d+):(\d+)\)?\s*$/;
/** Firefox's and Safari's: `name@url:line:column`. */
const AT_SIGN_FRAME = /^\s*(?:(.*?)@)?(\S+?):(\d+):(\d+)\s*$/;

/**
 * The frames of a stack the browser wrote, each mapped through the source map of the module it ran in,
 * so that a throw in a team's `.tsx` reads at its own line rather than at the bundler's output.
 *
 * @example
 * await mapStack('Error: boom\n    at Stars (http://localhost:5173/@fs/app/ui.tsx?t=1:9:11)', served);
 * // [{ name: 'Stars', file: '/app/ui.tsx', line: 4, column: 62 }]
 */
export async function mapStack(
  stack: string,
  served: (url: string) => Promise<ServedModule | undefined>,
): Promise<StackFrame[]> {
  const frames: StackFrame[] = [];
  const maps = new Map<string, SourceMap | undefined>();
  for (const text of stack.split('\n')) {
    if (frames.length === MAX_FRAMES) break;
    const match = V8_FRAME.exec(text) ?? AT_SIGN_FRAME.exec(text);
    if (!match) continue;
    const [, name, url = '', lineText = '', columnText = ''] = match;
    const named = name && name !== 'new <anonymous>' ? { name } : {};
    const line = Number(lineText);
    const column = Number(columnText);
    const module = await served(url).catch(() => undefined);
    if (module === undefined) {
      frames.push({ ...named, file: url, line, column });
      continue;
    }
    if (!maps.has(module.file)) maps.set(module.file, readMap(module.map));
    const origin = maps.get(module.file)?.findOrigin(line, column);
    if (origin === undefined || !('fileName' in origin)) {
      frames.push({ ...named, file: module.file, line, column });
      continue;
    }
    frames.push({
      ...named,
      file: sourcePath(origin.fileName, module.file),
      line: origin.lineNumber,
      column: origin.columnNumber,
    });
  }
  return frames;
}

function readMap(payload: SourceMapPayload | undefined): SourceMap | undefined {
  if (payload === undefined || !payload.mappings) return undefined;
  try {
    return new SourceMap(payload);
  } catch {
    return undefined;
  }
}

/** A map's source, which bundlers write as a path beside the module, an absolute path or a file URL. */
function sourcePath(source: string, moduleFile: string): string {
  if (source.startsWith('file://')) return fileURLToPath(source);
  return isAbsolute(source) ? source : resolve(dirname(moduleFile), source);
}
