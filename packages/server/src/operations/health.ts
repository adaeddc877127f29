import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store';

/**
 * `GET /healthz`: the process answers (a liveness probe: restart it if not). `GET /readyz`: it can serve,
 * with its tables migrated and its database answering (a readiness probe: send it no traffic if not).
 * While the server stops, both answer 503, so that a balancer moves traffic away before it is gone.
 */
export function registerHealth(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await store.readiness();
    if (readiness.ready) return { status: 'ready' };
    return reply.code(503).send({ status: 'not ready', reason: readiness.reason });
  });
}
