import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../store/store';

/** Where `/metrics` is read: behind a bearer token on the API's own port, or on a port of its own. */
export interface MetricsOptions {
  /** `NINEFOLD_METRICS_TOKEN`: `/metrics` on the API's port answers only `Authorization: Bearer TOKEN`. */
  token?: string;
}

/** What the app counts besides requests, told by the parts that see it. */
export interface MetricsSink {
  /** An idempotent write answered again from its stored answer, not written twice. */
  replayed(): void;
}

export interface AppMetrics extends MetricsSink {
  registry: Registry;
  /** The text Prometheus scrapes. */
  text(): Promise<string>;
}

/**
 * Requests by route and status, their latency, the database pool, the open event streams and the
 * idempotent replays, with Node's own process metrics, in a registry of this app's own (tests run many
 * apps in one process; the global registry would mix them).
 */
export function createMetrics(app: FastifyInstance, store: Store, streams: () => number): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'ninefold_http_requests_total',
    help: 'Requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'ninefold_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const replays = new Counter({
    name: 'ninefold_idempotent_replays_total',
    help: 'Writes retried with an Idempotency-Key and answered from the first answer, not written again.',
    registers: [registry],
  });
  new Gauge({
    name: 'ninefold_event_streams',
    help: 'Event streams (GET /api/_events) open now.',
    registers: [registry],
    collect() {
      this.set(streams());
    },
  });
  new Gauge({
    name: 'ninefold_db_pool_connections',
    help: "The database pool's connections by state (PostgreSQL; SQLite has one connection and no pool).",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = store.poolStats();
      if (pool === undefined) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    // A path nothing answers is counted under one name: each unknown path would be a series of its own.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
  return {
    registry,
    replayed: () => replays.inc(),
    text: () => registry.metrics(),
  };
}

/** `GET /metrics` on the API's own port, for whoever holds the token. */
export function registerMetricsRoute(app: FastifyInstance, metrics: AppMetrics, token: string): void {
  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('text/plain; charset=utf-8')
        .send('The metrics need the token set by NINEFOLD_METRICS_TOKEN.\n');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.text());
  });
}
