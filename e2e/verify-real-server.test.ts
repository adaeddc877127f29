// `ninefold verify` against a real server it did not write: Platformatic DB from npm, a real process on a
// temporary PostgreSQL database, with a specification written for it (e2e/fixtures/platformatic-parts.yaml).
// It must report what it finds, never crash, and leave the server's data as it found it, as the server's
// own API shows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../packages/cli/src/main';
import type { VerifyReport } from '../packages/cli/src/verify/results';
import { bufferTerminal } from '../packages/cli/test/support/buffer-terminal';
import { ARTIFACTS } from './support/artifacts';
import { ROOT } from './support/ninefold';
import { api, type RealServer, startPlatformatic } from './support/real-servers';

let platformatic: RealServer;
const SPEC = join(ROOT, 'e2e/fixtures/platformatic-parts.yaml');

beforeAll(async () => {
  platformatic = await startPlatformatic();
  await api(platformatic, 'POST', '/suppliers/', { name: 'Acme Bolts', email: 'sales@acme.test', rating: 4 });
  await api(platformatic, 'POST', '/parts/', { name: 'M8 bolt', price: 0.25, supplierId: 1, stock: 100 });
}, 900_000);

afterAll(async () => {
  await platformatic?.stop();
});

/** Every record the server holds, through its own API. */
async function everything(): Promise<unknown[]> {
  return [
    await api(platformatic, 'GET', '/suppliers/?limit=100&orderby.id=asc'),
    await api(platformatic, 'GET', '/parts/?limit=100&orderby.id=asc'),
  ];
}

describe('verify against Platformatic DB', () => {
  it('reports where the server keeps the specification and where not, and leaves its data as it was', async () => {
    const before = await everything();
    const terminal = bufferTerminal();
    const code = await main(
      ['verify', SPEC, '--api', platformatic.url, '--seed', '5', '--format', 'json'],
      terminal,
    );
    const report = JSON.parse(terminal.stdout) as VerifyReport;
    expect(report.stopped).toBeUndefined();
    expect(report.leftBehind).toEqual([]);
    expect(code).toBe(1);
    const text = bufferTerminal();
    await main(['verify', SPEC, '--api', platformatic.url, '--seed', '5'], text);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'verify-platformatic.txt'), text.stdout);

    const outcome = (check: string) => report.results.find((r) => r.check === check)?.outcome;
    // What Platformatic keeps: required fields, refused with its own 400 that point 8 reads as one to fix.
    expect(outcome('Part.name is required: broken, it is refused')).toBe('agrees');
    expect(outcome('Part.name is required: the refusal is this one, at /name')).toBe('agrees');
    expect(outcome('Anyone may create parts')).toBe('agrees');
    // What it does not: bounds only the specification states, a CHECK constraint answered as a server
    // error, and a page too large answered as one too.
    expect(outcome('Supplier.rating at most 5: broken, it is refused')).toBe('disagrees');
    const price = report.results.find((r) => r.check === 'Part.price at least 0: broken, it is refused');
    expect(price?.outcome).toBe('disagrees');
    expect(price?.received?.status).toBe(500);
    const page = report.results.find((r) =>
      r.check.startsWith('a page of parts holds at most MAX_PAGE_SIZE'),
    );
    expect(page?.received?.status).toBe(500);
    // Each disagreement says what was sent, what the specification calls for, and what came back.
    for (const wrong of report.results.filter((r) => r.outcome === 'disagrees')) {
      expect(wrong.request?.method).toMatch(/^(GET|POST|PUT|DELETE)$/);
      expect(wrong.expected).toBeTruthy();
      expect(wrong.received?.status).toBeGreaterThan(0);
    }
    expect(await everything()).toEqual(before);
  });
});
