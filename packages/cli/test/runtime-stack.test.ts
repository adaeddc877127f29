import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeError } from '../../web/runtime/module-client';
import { mapStack } from '../../web/runtime/runtime-stack';
import { runtimeIssue, runtimeStack } from '../src/module-issue';

// A team's module, transformed as a bundler does (types stripped, JSX compiled, lines moved), run for
// real so that the stack is the engine's own, and mapped back through the transform's own map.
const SOURCE = `import type { ReactNode } from 'react';

type Props = { value: number };

export function stars({ value }: Props): ReactNode {
  if (value > 3) throw new Error(\`no stars for \${value}\`);
  return <span>{'★'.repeat(value)}</span>;
}
`;
const TEAM_FILE = '/team/app/library.ui.tsx';
const dir = mkdtempSync(join(tmpdir(), 'ninefold-runtime-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function thrownStack(): Promise<{ stack: string; file: string; map: SourceMapPayload }> {
  const out = await transform(SOURCE, {
    loader: 'tsx',
    jsx: 'automatic',
    format: 'esm',
    sourcemap: 'external',
    sourcefile: TEAM_FILE,
    // A preamble, as the bundler's refresh wrapper adds one: the output's lines are not the source's.
    banner: '// the bundler’s preamble\nconst a = 1;\nconst b = 2;\nconst c = 3;\nvoid [a, b, c];',
  });
  const file = join(dir, 'served.mjs');
  writeFileSync(
    file,
    out.code.replace(/import \{ jsx \} from "react\/jsx-runtime";/, 'const jsx = () => null;'),
  );
  const served = (await import(pathToFileURL(file).href)) as {
    stars: (props: { value: number }) => unknown;
  };
  try {
    served.stars({ value: 4 });
  } catch (error) {
    return { stack: (error as Error).stack ?? '', file, map: JSON.parse(out.map) as SourceMapPayload };
  }
  throw new Error('the module did not throw');
}

describe('mapStack', () => {
  it('maps each frame the engine wrote back to the line and column of the source that threw', async () => {
    const { stack, file, map } = await thrownStack();
    // Where the engine says it threw, in the served output: not the source's line 6.
    expect(stack).not.toMatch(/served\.mjs:6:/);
    const frames = await mapStack(stack, async (frameUrl) =>
      frameUrl === file ? { file: TEAM_FILE, map } : undefined,
    );
    expect(frames[0]).toEqual({
      name: 'Module.stars',
      file: TEAM_FILE,
      line: 6,
      column: (SOURCE.split('\n')[5] ?? '').indexOf('new Error') + 1,
    });
    // The test runner's own frames are not served: kept as the engine wrote them.
    expect(frames.slice(1).every((frame) => !frame.file.startsWith(TEAM_FILE))).toBe(true);
  });

  it('reads Firefox’s and Safari’s frames, and keeps a frame whose module has no map at its own place', async () => {
    const stack =
      'Error: boom\nstars@http://localhost:5173/@fs/team/app/library.ui.tsx?t=17:12:7\n@http://localhost:5173/src/main.tsx:3:1';
    const frames = await mapStack(stack, async (url) =>
      url.includes('library.ui.tsx') ? { file: TEAM_FILE } : undefined,
    );
    expect(frames).toEqual([
      { name: 'stars', file: TEAM_FILE, line: 12, column: 7 },
      { file: 'http://localhost:5173/src/main.tsx', line: 3, column: 1 },
    ]);
  });

  it('reads nothing from a text that is not a stack, and stops at forty frames', async () => {
    expect(await mapStack('boom', async () => undefined)).toEqual([]);
    const deep = Array.from({ length: 100 }, (_, i) => `    at f${i} (http://x/a.js:${i + 1}:1)`).join('\n');
    expect(await mapStack(deep, async () => undefined)).toHaveLength(40);
  });
});

describe('a runtime error as dev shows it', () => {
  const error: RuntimeError = {
    what: "the extension's display of Tool.rating",
    message: 'no stars for 4',
    frames: [
      {
        name: 'renderWithHooks',
        file: '/repo/packages/web/node_modules/.vite-dev/deps/react-dom.js',
        line: 1,
        column: 2,
      },
      { name: 'stars', file: TEAM_FILE, line: 6, column: 29 },
    ],
  };

  it('is listed in the page at the first frame in the team’s files', () => {
    expect(runtimeIssue(error)).toEqual({
      severity: 'error',
      code: 'extension-runtime',
      message: "The extension's display of Tool.rating threw: no stars for 4",
      source: `${TEAM_FILE}:6:29`,
    });
  });

  it('is not the module’s when no frame is in the team’s files', () => {
    expect(runtimeIssue({ ...error, frames: error.frames.slice(0, 1) })).toBeUndefined();
  });

  it('prints its stack at the source’s lines', () => {
    expect(runtimeStack(error)).toContain(`    at stars (${TEAM_FILE}:6:29)\n`);
  });
});
