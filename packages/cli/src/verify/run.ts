// One run of `verify`: who signs in as what, the calls it may send, the records it made (to remove them
// at the end), and every result. Checks ask it to send; it records what each answer says.
import {
  type Call,
  type CallPurpose,
  type CrudAction,
  checkGrant,
  type Entity,
  type ErrorAnswer,
  type JsonValue,
  type Model,
  matchError,
  type PointKey,
  type Principal,
} from '@ninefold/model';
import type { Answer, ApiClient, Credentials, SentRequest } from './http';
import type { CheckResult } from './results';

/** A role as verify acts it: the credentials `--as` gave, and the person as conditions of point 6 see them. */
export interface Actor {
  /** Undefined for someone not signed in. */
  role: string | undefined;
  label: string;
  credentials?: Credentials;
  principal: Principal;
}

export interface RunOptions {
  readOnly: boolean;
  now: Date;
  /** Seeds the values verify writes, so that one run can be repeated and two runs do not clash. */
  seed: number;
}

/** A record verify created, and who made it. */
export interface Created {
  entity: Entity;
  key: string;
  by: Actor;
}

/** A record as an answer gave it, with its ETag when the answer had one. */
export interface Fetched {
  record: Record<string, JsonValue>;
  etag?: string;
}

export class VerifyRun {
  readonly results: CheckResult[] = [];
  readonly created: Created[] = [];

  constructor(
    readonly model: Model,
    readonly calls: readonly Call[],
    readonly client: ApiClient,
    readonly actors: readonly Actor[],
    readonly options: RunOptions,
  ) {}

  send(actor: Actor, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const request: SentRequest = {
      method,
      path,
      as: actor.role ?? 'anyone',
      ...(body === undefined ? {} : { body }),
    };
    return this.client.send(request, actor.credentials, headers).then((answer) => ({ request, answer }));
  }

  /**
   * The call of a purpose for an entity that names a record by one path parameter at most: the one a
   * client uses (`/orders/{id}`), not one nested under another record (`/customers/{c}/orders/{id}`).
   */
  callFor(entity: string, purpose: CallPurpose): Call | undefined {
    const candidates = this.calls.filter((call) => call.entity === entity && call.purpose === purpose);
    const holes = (call: Call) => [...call.path.matchAll(/\{[^}]+\}/g)].length;
    const most = purpose === 'list' || purpose === 'create' ? 0 : 1;
    return candidates.filter((call) => holes(call) === most).sort((a, b) => a.path.length - b.path.length)[0];
  }

  /** A call's path for a record: its one `{parameter}` filled with the key. */
  pathFor(call: Call, key: string): string {
    return call.path.replace(/\{[^}]+\}/, encodeURIComponent(key));
  }

  /** The actors whose role point 6 allows an action on an entity at all (before any condition). */
  allowed(entity: string, action: CrudAction): Actor[] {
    return this.actors.filter((actor) => checkGrant(this.model, actor.principal, entity, action).allowed);
  }

  refused(entity: string, action: CrudAction): Actor[] {
    return this.actors.filter((actor) => !checkGrant(this.model, actor.principal, entity, action).allowed);
  }

  /** The status point 6 calls for when an actor has no grant of an action: 401 before signing in, else 403. */
  refusalStatus(actor: Actor, entity: string, action: CrudAction): number {
    const verdict = checkGrant(this.model, actor.principal, entity, action);
    return !verdict.allowed && verdict.reason === 'not-signed-in' ? 401 : 403;
  }

  add(result: CheckResult): void {
    this.results.push(result);
  }

  notChecked(point: PointKey, check: string, note: string): void {
    this.add({ point, check, outcome: 'not-checked', note });
  }

  /**
   * Records whether an answer has the status the specification calls for, and, for a refusal, whether
   * the client's error catalogue (point 8) reads it as it reads the answer the specification calls for.
   */
  expect(
    point: PointKey,
    check: string,
    sent: { request: SentRequest; answer: Answer },
    expected: { status: number | ((status: number) => boolean); words: string; problem?: ErrorAnswer },
  ): boolean {
    const { status } = sent.answer;
    const ok = typeof expected.status === 'number' ? status === expected.status : expected.status(status);
    this.add({
      point,
      check,
      outcome: ok ? 'agrees' : 'disagrees',
      request: sent.request,
      expected: expected.words,
      received: { status, body: clipBody(sent.answer.json ?? sent.answer.text) },
    });
    if (ok && expected.problem) this.expectCatalogue(check, sent, expected.problem);
    return ok;
  }

  /** Point 8: the entry of the catalogue the answer meets is the one the specification's answer meets. */
  private expectCatalogue(
    check: string,
    sent: { request: SentRequest; answer: Answer },
    want: ErrorAnswer,
  ): void {
    if (!this.model.errors.shown) return;
    const body = sent.answer.json as { code?: unknown; type?: unknown; errors?: unknown } | undefined;
    const got: ErrorAnswer = {
      status: sent.answer.status,
      ...(typeof body?.code === 'string' ? { code: body.code } : {}),
      ...(typeof body?.type === 'string' ? { type: body.type } : {}),
      ...(Array.isArray(body?.errors) ? { fieldErrors: fieldErrorsOf(body.errors) } : {}),
      ...(want.entity ? { entity: want.entity } : {}),
    };
    const expectedEntry = matchError(this.model, want);
    if (expectedEntry === undefined) return;
    const gotEntry = matchError(this.model, got);
    this.add({
      point: 'errors',
      check: `${check}: the catalogue reads the refusal as "${expectedEntry.message}"`,
      outcome: gotEntry === expectedEntry ? 'agrees' : 'disagrees',
      request: sent.request,
      expected: `${want.status}${want.code ? ` ${want.code}` : ''}`,
      received: { status: sent.answer.status, body: clipBody(sent.answer.json ?? sent.answer.text) },
      ...(gotEntry === expectedEntry
        ? {}
        : { note: gotEntry ? `read as "${gotEntry.message}"` : 'no entry reads it' }),
    });
  }
}

function fieldErrorsOf(errors: unknown[]): Array<{ pointer: string; code?: string }> {
  return errors.flatMap((error) => {
    const e = error as { pointer?: unknown; code?: unknown };
    return typeof e.pointer === 'string'
      ? [{ pointer: e.pointer, ...(typeof e.code === 'string' ? { code: e.code } : {}) }]
      : [];
  });
}

/** Answers in a report are cut short: a list of 100 records says no more than its first few. */
function clipBody(body: unknown): unknown {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined) return undefined;
  return text.length > 600 ? `${text.slice(0, 600)}…` : body;
}
