// What every record handler of the prototype API is given (see handlerFor in app.ts).
import type { Model, StateMachine, Transition } from '@ninefold/model';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BodyLimits } from './request-body';
import type { Store } from './store/store';

export interface Context {
  model: Model;
  store: Store;
  now: () => Date;
  /** Test-only: runs after a keyed write commits, before its answer is sent (see AppOptions). */
  afterCommit?: ((request: FastifyRequest) => void | Promise<void>) | undefined;
  transitions: Map<string, { machine: StateMachine; transition: Transition }>;
  limits: BodyLimits;
  /** Where a failure is told once an answer has begun (a CSV export cut short). */
  onServerError?: (reference: string, error: unknown) => void;
  /**
   * The store a request writes through: with the audit trail on, one whose every write records who made
   * it, through which call (see `auditedStore`). Reads may use `store`.
   */
  writer: (request: FastifyRequest) => Store;
}

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
