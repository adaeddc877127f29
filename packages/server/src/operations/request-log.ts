import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';

/** What `--log-level` takes, quietest first. */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

/** Sent back with every answer, and logged with the request: the one key to find a request by. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A proxy's request id is kept, so that its logs and ours join on one key; only a plain token is, since
 * it is written into every log line and header.
 */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(headers: Record<string, string | string[] | undefined>): string {
  const given = headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && PLAIN_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Lines are written to standard output in chunks of this size, or after {@link FLUSH_MS} at the latest. */
const CHUNK_BYTES = 4096;
const FLUSH_MS = 500;

/**
 * One JSON object per line on standard output (or `destination`), as log shippers read them. Written
 * asynchronously and in chunks: a request does not wait for the pipe, and a busy server makes one write
 * for dozens of lines (a write per line cost a tenth of the list's throughput). A quiet server's lines
 * still appear within half a second. `flush` writes what is held, at a stop.
 */
export function createLogger(
  level: LogLevel,
  destination?: DestinationStream,
): { logger: Logger; flush(): Promise<void> } {
  const output = destination ?? pino.destination({ dest: 1, sync: false, minLength: CHUNK_BYTES });
  const logger = pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      // The level's name rather than its number: read by people as often as by machines.
      formatters: { level: (label) => ({ level: label }) },
    },
    output,
  );
  const held = destination === undefined ? (output as ReturnType<typeof pino.destination>) : undefined;
  const flushSoon = held ? setInterval(() => flushQuietly(held), FLUSH_MS).unref() : undefined;
  return {
    logger,
    flush: async () => {
      clearInterval(flushSoon);
      if (held) await new Promise<void>((resolve) => held.flush(() => resolve()));
    },
  };
}

/** A flush while a write is under way, or of nothing, is no failure: the next one takes what is held. */
function flushQuietly(output: ReturnType<typeof pino.destination>): void {
  try {
    output.flush();
  } catch {
    // Nothing held, or a write in progress.
  }
}

/**
 * Logs each answered request once, as it ends: its id, method, route, status and time. The route is the
 * pattern (`/api/orders/:id`), never the URL: a query may hold what a person searched for, and a path
 * the key of a record the log's reader may not see.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}
