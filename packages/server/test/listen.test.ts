import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { afterEach, describe, expect, it } from 'vitest';
import { listenProblem } from '../src/listen-problem';
import { serve } from '../src/serve';

const EMPTY = resolve(import.meta.dirname, '../../../examples/empty.md');
const model = loadSpec(readFileSync(EMPTY, 'utf8'), { file: EMPTY }).model as Model;

let taken: Server | undefined;
afterEach(() => taken?.close());

/** A port another program holds, as a person would find it: in use. */
async function portInUse(): Promise<number> {
  taken = createServer();
  await new Promise<void>((done) => taken?.listen(0, '127.0.0.1', done));
  return (taken.address() as { port: number }).port;
}

describe('a server that cannot listen', () => {
  it('says the port is in use and what to do, not the system text', async () => {
    const port = await portInUse();
    const started = await serve({ model, specFile: EMPTY, db: ':memory:', port, log: () => {} });
    expect(started.ok).toBe(false);
    if (started.ok) return;
    expect(started.message).toBe(
      `port ${port} on 127.0.0.1 is in use by another program: stop it, or give another port with --port N (0 picks a free one)`,
    );
  });

  it('words a port that needs privileges and an address the machine does not have', () => {
    const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });
    expect(listenProblem(failure('EACCES'), '127.0.0.1', 80)).toMatch(
      /^port 80 on 127\.0\.0\.1 needs privileges/,
    );
    expect(listenProblem(failure('EADDRNOTAVAIL'), '10.9.9.9', 80)).toMatch(
      /^10\.9\.9\.9 is not an address of this machine/,
    );
    expect(listenProblem(failure('EOTHER'), '127.0.0.1', 80)).toBe('listen EOTHER');
  });
});
