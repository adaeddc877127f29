import type { MessageKey } from '../i18n/types';
import { ApiError, NetworkError } from './data-provider';
import { MissingCallError } from './entity-calls';

/** A failure of the data layer as catalogue messages: keys and their values, never the raw answer. */
export interface DataErrorMessage {
  kind: 'network' | 'aborted' | 'status' | 'unexpected' | 'missing-call' | 'unknown';
  title: MessageKey;
  text: MessageKey;
  vars: Record<string, string | number>;
  /** A server error's reference, for the person to quote (shown with `data.reference`). */
  reference?: string;
  /** Whether trying again can help. */
  retry: boolean;
}

/**
 * The generic message for a failed data call, for when the error catalogue (point 8) has no entry that
 * matches it: a network failure, a status, an unreadable answer or a call the specification lacks.
 *
 * @example
 * ```ts
 * const message = dataErrorMessage(error);
 * t(message.title); t(message.text, message.vars); // 'The server answered with status 503.'
 * ```
 */
export function dataErrorMessage(error: unknown): DataErrorMessage {
  if (error instanceof NetworkError) {
    return { kind: 'network', title: 'data.networkTitle', text: 'data.networkText', vars: {}, retry: true };
  }
  if (error instanceof ApiError) {
    const reference = error.reference === undefined ? {} : { reference: error.reference };
    if (error.code === 'UNEXPECTED_ANSWER') {
      return {
        kind: 'unexpected',
        title: 'data.statusTitle',
        text: 'data.unexpectedAnswer',
        vars: {},
        retry: true,
        ...reference,
      };
    }
    return {
      kind: 'status',
      title: 'data.statusTitle',
      text: 'data.statusText',
      vars: { status: error.status },
      retry: error.status >= 500 || error.status === 429 || error.status === 408,
      ...reference,
    };
  }
  if (error instanceof MissingCallError) {
    return {
      kind: 'missing-call',
      title: 'data.statusTitle',
      text: 'data.missingCall',
      vars: {},
      retry: false,
    };
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return { kind: 'aborted', title: 'data.networkTitle', text: 'data.abortedText', vars: {}, retry: true };
  }
  return { kind: 'unknown', title: 'data.statusTitle', text: 'data.unexpectedAnswer', vars: {}, retry: true };
}
