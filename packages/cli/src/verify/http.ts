// The only door `verify` has to the API under test: paced, counted, and stopped by a storm of 5xx, so
// that checking a server never becomes a load test of it or a flood of writes into a failing one.

/** What a check sent, as the report shows it: never the credentials. */
export interface SentRequest {
  method: string;
  path: string;
  /** Who sent it: a role of point 6, or `anyone` without credentials. */
  as: string;
  body?: unknown;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The body read as JSON, or undefined when it is not JSON. */
  json: unknown;
  text: string;
}

export interface Credentials {
  /** Headers that sign a request in as this role (`Authorization: Bearer …`, an API key's header). */
  headers: Record<string, string>;
}

export class StormError extends Error {}

export interface HttpOptions {
  /** The API's base URL: every call's path follows it (`http://127.0.0.1:4321/api`). */
  base: string;
  /** Requests per second, at most. */
  rate: number;
  /** `fetch`, for tests; the global one otherwise. */
  fetch?: typeof fetch;
  /** A request that takes longer than this is a failure of the server, in milliseconds. */
  timeoutMs?: number;
}

/** Consecutive 5xx answers after which the server is taken to be failing, and verify stops. */
const STORM = 5;

/**
 * Sends requests to the API under test at most `rate` a second, and throws `StormError` after five
 * server errors in a row: a failing server is reported as such, not hammered.
 */
export class ApiClient {
  readonly base: string;
  sent = 0;
  private readonly interval: number;
  private next = 0;
  private serverErrors = 0;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(options: HttpOptions) {
    this.base = options.base.replace(/\/+$/, '');
    this.interval = 1000 / Math.max(0.1, options.rate);
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  async send(
    request: SentRequest,
    credentials: Credentials | undefined,
    headers: Record<string, string> = {},
    /** What goes on the wire when the report must show something else (a password, as `…`). */
    wireBody: unknown = request.body,
  ): Promise<Answer> {
    await this.pace();
    this.sent++;
    const init: RequestInit = {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(wireBody === undefined ? {} : { 'content-type': 'application/json' }),
        ...credentials?.headers,
        ...headers,
      },
      ...(wireBody === undefined ? {} : { body: JSON.stringify(wireBody) }),
      signal: AbortSignal.timeout(this.timeoutMs),
      redirect: 'manual',
    };
    const response = await this.fetch(`${this.base}${request.path}`, init);
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.status >= 500) {
      this.serverErrors++;
      if (this.serverErrors >= STORM) {
        throw new StormError(
          `the API answered ${STORM} server errors in a row (the last: ${response.status} to ${request.method} ${request.path}); verify stopped rather than go on sending to a failing server`,
        );
      }
    } else this.serverErrors = 0;
    return { status: response.status, headers: response.headers, json, text };
  }

  private async pace(): Promise<void> {
    const now = Date.now();
    const wait = this.next - now;
    this.next = Math.max(now, this.next) + this.interval;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
