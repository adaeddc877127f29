import { ApiError, NetworkError } from '../data/data-provider';
import type { I18n } from '../i18n/I18nProvider';

export interface LoadErrorText {
  message: string;
  /** A server error's reference, for the person to quote. */
  reference?: string;
}

/**
 * What a person reads when a list could not be loaded: the API's own message (its problem's detail or
 * title, already clipped by the data layer and never its raw body), or that the server was unreachable.
 * Anything else is a fault of the client, whose message means nothing to the person.
 */
export function loadErrorText(error: unknown, { t }: Pick<I18n, 't'>): LoadErrorText {
  if (error instanceof ApiError) {
    return error.reference === undefined
      ? { message: error.message }
      : { message: error.message, reference: error.reference };
  }
  if (error instanceof NetworkError) return { message: t('list.networkError') };
  return { message: t('list.unknownError') };
}
