// Every example of docs/extending.md compiles against the extension's own types, as a stranger would
// paste it into a module: a whole module as it is, a function beside the imports it uses, and a part
// of the module's object (`actions: { … }`) inside `defineExtension({ … })`. What an example names but
// leaves to the reader (a component defined elsewhere, the logo) is declared for it, with its type.
// The library's examples (a Vite config and an app, indented in a list) are `@ninefold/react`'s, checked
// where that package is built.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { typedWorkspace, typeErrors } from './support/typed-workspace';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const GUIDE = readFileSync(join(root, 'docs/extending.md'), 'utf8');

/** The top-level TypeScript examples of the guide, with the line each starts at. */
function examples(): Array<{ line: number; code: string }> {
  const found: Array<{ line: number; code: string }> = [];
  const pattern = /^```(?:ts|tsx)\n([\s\S]*?)^```$/gm;
  for (let match = pattern.exec(GUIDE); match; match = pattern.exec(GUIDE)) {
    found.push({ line: GUIDE.slice(0, match.index).split('\n').length, code: match[1] ?? '' });
  }
  return found;
}

/** The extension API the examples use without importing it. */
const API = [
  'defineExtension',
  'useNinefold',
  'type ApiRecord',
  'type CustomScreenProps',
  'type DataProvider',
  'type DetailSlotProps',
  'type FieldDisplayOverrideProps',
  'type FieldInputOverrideProps',
];

/** What the examples name and leave to the reader, with the types they would have. */
const ELSEWHERE: Record<string, string> = {
  logo: 'declare const logo: string;',
  StockLevel: 'declare const StockLevel: ComponentType<FieldDisplayOverrideProps>;',
  Stars: 'declare const Stars: ComponentType<FieldDisplayOverrideProps>;',
  PackingSlip: 'declare const PackingSlip: ComponentType<CustomScreenProps>;',
  OrderPacking: 'declare const OrderPacking: ComponentType<DetailSlotProps>;',
  DueBack: 'declare const DueBack: ComponentType;',
  body: 'declare const body: (record: ApiRecord) => Record<string, unknown>;',
  printLabel: 'declare function printLabel(record: ApiRecord, data: DataProvider): Promise<void>;',
};

/** An example as a module of its own. */
function moduleOf(code: string): string {
  const imported = new Set(
    [...code.matchAll(/\b(?:type\s+)?(\w+)\b(?=[^;]*from '@ninefold\/web\/extension')/g)].map((m) => m[1]),
  );
  const defined = (name: string) =>
    new RegExp(`\\b(?:function|const|let)\\s+${name}\\b|import[^;]*\\b${name}\\b`).test(code);
  const api = API.filter(
    (name) => !imported.has(name.replace('type ', '')) && !defined(name.replace('type ', '')),
  );
  const stubs = Object.entries(ELSEWHERE)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(code) && !defined(name))
    .map(([, declaration]) => declaration);
  const prelude = [
    "import type { ComponentType } from 'react';",
    api.length ? `import { ${api.join(', ')} } from '@ninefold/web/extension';` : '',
    ...stubs,
  ].join('\n');
  // A part of the module's object: `actions: { … },` and the like.
  if (/^[a-z]\w*: /.test(code)) return `${prelude}\nexport default defineExtension({\n${code}});\n`;
  // Statements of a component's code, which `useNinefold` gives it.
  if (/\bawait\b/.test(code) && !/^(?:import|export|function)/m.test(code)) {
    return `${prelude}\nexport async function example() {\n  const { list } = useNinefold();\n${code}  return items.length + (total ?? 0);\n}\n`;
  }
  return `${prelude}\n${code}\nexport {};\n`;
}

describe('docs/extending.md', () => {
  it('has examples whose every line compiles against the extension API', async () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(9);
    const dir = typedWorkspace();
    // The typed example names the tool library's names.
    const names = await run(
      process.execPath,
      [join(root, 'bin/ninefold.js'), 'types', join(root, 'test/fixtures/extension/tool-library.yaml')],
      { cwd: root },
    );
    writeFileSync(join(dir, 'tool-library.types.ts'), names.stdout);
    for (const [index, example] of found.entries()) {
      writeFileSync(
        join(dir, `example-${String(index + 1).padStart(2, '0')}-line-${example.line}.tsx`),
        moduleOf(example.code),
      );
    }
    expect(await typeErrors(dir)).toEqual([]);
  }, 60_000);
});
