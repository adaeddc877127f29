import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './ninefold';
import { startWatched } from './watched-process';

/** A port nobody listens on right now, found by letting the system pick one and closing it again. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolveListen);
  });
  const address = server.address();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

export interface PrismProcess {
  /** `http://127.0.0.1:41234`, with no trailing slash: what `ninefold dev --api` takes. */
  url: string;
  output(): string;
  /** `GET /fine-tunes/ft%20a/events`: each request Prism logged, path as it arrived, without the query. */
  requests(): string[];
  /** SIGTERM, then waits for the exit; resolves to the exit code or the signal's name. */
  stop(): Promise<number | string | null>;
}

export interface PrismOptions {
  port: number;
  /**
   * Records made up from the schemas, seeded so every run answers the same: the documents have few
   * examples, and Prism's static answers are `"string"` in every text field.
   */
  seed?: string;
  timeoutMs?: number;
}

/**
 * Stoplight Prism serving an OpenAPI document as a mock API, a real process on 127.0.0.1: it validates
 * each request against the document (a query value of the wrong type is a 422 with the reason in an
 * `sl-violations` header or a problem body) and answers with records generated from the schemas.
 * It serves the paths without the document's `servers` prefix, and it is stateless.
 */
export async function startPrism(
  document: string,
  { port, seed, timeoutMs = 60_000 }: PrismOptions,
): Promise<PrismProcess> {
  const args = ['mock', document, '--host', '127.0.0.1', '--port', String(port)];
  if (seed !== undefined) args.push('--dynamic', '--seed', seed);
  const prism = await startWatched(join(ROOT, 'node_modules/.bin/prism'), args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    ready: /Prism is listening/,
    name: 'Prism',
    timeoutMs,
  });
  const output = prism.output;
  return {
    url: `http://127.0.0.1:${port}`,
    output,
    requests: () =>
      [...output().matchAll(/\[HTTP SERVER\] (\w+) (\S+) .*Request received/g)].map(
        (match) => `${match[1]?.toUpperCase()} ${match[2]}`,
      ),
    stop: prism.stop,
  };
}
