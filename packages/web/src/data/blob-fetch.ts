import { type ApiError, NetworkError } from './data-provider';
import type { NetworkStatus } from './network-status';
import { clipText, readApiError } from './problem-reader';

export interface BlobFetchOptions {
  doFetch(input: string, init: RequestInit): Promise<Response>;
  timeoutMs: number;
  timeoutSignal(ms: number): AbortSignal;
  network: NetworkStatus;
  now(): number;
  authHeaders?: () => Readonly<Record<string, string>>;
  onUnauthorized?: (error: ApiError, sent: Readonly<Record<string, string>>) => void;
}

/**
 * Fetches a file's bytes with the session's credentials (a stored file, an export): a plain link cannot
 * carry them, and they never go in the address. Fails as the data provider's calls do, with an
 * `ApiError` from the problem answered or a `NetworkError`.
 */
export function createBlobFetch(options: BlobFetchOptions) {
  return async (url: string, headers: Record<string, string>): Promise<Blob> => {
    const { network, timeoutMs } = options;
    const credentials = options.authHeaders?.() ?? {};
    const timeout = options.timeoutSignal(timeoutMs);
    let response: Response;
    try {
      response = await options.doFetch(url, { headers: { ...headers, ...credentials }, signal: timeout });
      network.answered();
    } catch (error) {
      network.unanswered();
      if (timeout.aborted) throw new NetworkError(`No answer within ${Math.round(timeoutMs / 1000)} s.`);
      throw new NetworkError(clipText(error instanceof Error ? error.message : String(error)));
    }
    if (!response.ok) {
      const text = await response.text();
      const error = await readApiError(
        response.status,
        response.statusText,
        response.headers.get('content-type'),
        parseJson(text),
        response.headers,
        options.now,
      );
      if (response.status === 401) options.onUnauthorized?.(error, credentials);
      throw error;
    }
    return response.blob();
  };
}

/** An answer's body as JSON when it is JSON, else its text (a problem reader takes either). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
