// `check` warns about a catalogue entry whose code the prototype API never answers, from the list in
// @ninefold/model; this holds that list to the codes the server's sources actually answer with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOTYPE_CODES, transitionRefusal } from '@ninefold/model';
import { expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

it('lists every problem code the prototype API answers with', () => {
  const used = new Set<string>();
  for (const file of sources(new URL('../src', import.meta.url).pathname)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/problem\(\s*\d{3},\s*'([A-Z][A-Z_]+)'/g)) {
      used.add(match[1] as string);
    }
  }
  for (const reason of ['state', 'role', 'guard'] as const) used.add(transitionRefusal(reason).code);
  expect(used.size).toBeGreaterThan(20);
  expect([...used].filter((code) => !PROTOTYPE_CODES.includes(code)).sort()).toEqual([]);
});
