// The English of the later areas (import page, drafts, state diagram) is not in the first load: each
// module that shows one of their messages adds it when it loads. One that forgot would show raw keys
// ("drafts.offerTitle") to whoever reached it first by another way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { english } from '../src/i18n/catalogue';
import { french } from '../src/i18n/fr';

const SOURCE = `${resolve(import.meta.dirname, '../src')}/`;
const LATER = [
  'form',
  'importer',
  'drafts',
  'search',
  'bulk',
  'importCsv',
  'views',
  'feedback',
  'shortcuts',
  'figures',
  'changes',
] as const;

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === 'i18n' ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the later areas of the English catalogue', () => {
  it('are added by every module that shows their messages', () => {
    const users = new Map<string, string[]>(LATER.map((area) => [area, []]));
    for (const file of sources(SOURCE)) {
      const text = readFileSync(file, 'utf8');
      for (const area of LATER) {
        if (!new RegExp(`['\`"]${area}\\.\\w`).test(text)) continue;
        users.get(area)?.push(file.slice(SOURCE.length));
        expect(text, `${file} shows ${area} messages without adding them`).toMatch(
          new RegExp(`addEnglish\\('${area}', ${area}(Messages)?\\)`),
        );
      }
    }
    // The check above holds of something: each area has users.
    for (const area of LATER) expect(users.get(area)?.length, area).toBeGreaterThan(0);
  });

  it('are not in the first load, and are complete once added', async () => {
    // Only their types come with the catalogue (other suites in this process may have added them since).
    const source = readFileSync(join(SOURCE, 'i18n/catalogue.ts'), 'utf8');
    for (const area of LATER) expect(source).toContain(`import type { ${area} as `);
    const catalogue = english as unknown as Record<string, unknown>;
    await import('../src/import/ImportPage');
    await import('../src/drafts/DraftOffer');
    await import('../src/screens/FormScreen');
    await import('../src/app/GlobalSearch');
    await import('../src/list/BulkSelect');
    await import('../src/list/csv-import/ImportDialog');
    await import('../src/list/ColumnPanel');
    await import('../src/app/ShortcutsHelp');
    await import('../src/dashboard/FigureCard');
    await import('../src/audit/RecordChanges');
    for (const area of LATER) {
      expect(Object.keys(catalogue[area] as object).sort(), area).toEqual(Object.keys(french[area]).sort());
    }
  });
});
