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
  readErrorShape,
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
   * A refusal as the client reads it: an RFC 9457 problem's members, or those of the other shapes real
   * servers answer in (`readErrorShape`), with the field errors' JSON Pointers.
   */
  refusalOf(
    answer: Answer,
    entity?: string,
  ): ErrorAnswer & { fieldErrors: Array<{ pointer: string; code?: string }> } {
    const body = answer.json as Record<string, unknown> | undefined;
    const problem = typeof body?.code === 'string' && typeof body?.type === 'string';
    const shape = body && typeof body === 'object' && !problem ? readErrorShape(body) : undefined;
    const code = problem ? (body?.code as string) : shape?.code;
    const fieldErrors = problem
      ? fieldErrorsOf(Array.isArray(body?.errors) ? body.errors : [])
      : (shape?.fieldErrors ?? []).map((e) => ({ pointer: e.pointer, ...(e.code ? { code: e.code } : {}) }));
    return {
      status: answer.status,
      ...(code ? { code } : {}),
      ...(problem ? { type: body?.type as string } : {}),
      fieldErrors,
      ...(entity ? { entity } : {}),
    };
  }

  /**
   * Whether an answer is a refusal of values, the client shows at their fields: the prototype's 422, or
   * any 4xx that point 8's catalogue reads as a mistake to fix in the form (a server's own 400).
   */
  refusesValues(answer: Answer, entity: string): boolean {
    if (answer.status === 422) return true;
    if (answer.status < 400 || answer.status >= 500) return false;
    return matchError(this.model, this.refusalOf(answer, entity))?.action === 'fix-field';
  }

  /**
   * Records whether an answer has the status the specification calls for, and, for a refusal, whether
   * the client's error catalogue (point 8) reads it as it reads the answer the specification calls for.
   */
  expect(
    point: PointKey,
    check: string,
    sent: { request: SentRequest; answer: Answer },
    expected: {
      status: number | ((status: number, answer: Answer) => boolean);
      words: string;
      problem?: ErrorAnswer;
    },
  ): boolean {
    const { status } = sent.answer;
    const ok =
      typeof expected.status === 'number' ? status === expected.status : expected.status(status, sent.answer);
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
    const got = this.refusalOf(sent.answer, want.entity);
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
