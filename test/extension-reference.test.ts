import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { REFERENCE_DIR, writeExtensionReference } from '../scripts/extension-reference.mjs';

// The reference of the extension API is made from its types (TypeDoc): the committed pages must be what
// the types say now, so a change of a hook or a prop that is not written again fails here.
it('docs/reference/extension is what the extension API’s types say (node scripts/extension-reference.mjs)', async () => {
  const out = mkdtempSync(join(tmpdir(), 'ninefold-reference-'));
  try {
    await writeExtensionReference(out);
    const files = readdirSync(out).sort();
    expect(readdirSync(REFERENCE_DIR).sort()).toEqual(files);
    for (const file of files) {
      expect(
        readFileSync(join(REFERENCE_DIR, file), 'utf8'),
        `${file}: run node scripts/extension-reference.mjs`,
      ).toBe(readFileSync(join(out, file), 'utf8'));
    }
    const reference = readFileSync(join(out, 'README.md'), 'utf8');
    for (const name of [
      'defineExtension()',
      'useNinefold()',
      'useCan()',
      'ListOptions',
      'SpecNames',
      'Slots',
    ])
      expect(reference).toContain(`### ${name}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 60_000);
