import { useMemo } from 'react';
import { useSpec } from '../app/SpecContext';
import { type ErrorView, errorView } from './error-view';

/**
 * How a failed call is shown (see `errorView`): the catalogue's message, action and field when an entry
 * covers it, else generic words with a reference. Undefined while there is no error. `entity` is the
 * entity the call was about, so that an entry's `Entity.field` can be found among the answer's pointers.
 *
 * A form gives `view.fieldErrors` to its inputs (each with the catalogue's message where it has one) and
 * focuses `view.field` when the person asks to fix it.
 */
export function useErrorView(error: unknown, entity?: string): ErrorView | undefined {
  const { model } = useSpec();
  return useMemo(
    () => (error === null || error === undefined ? undefined : errorView(model, error, entity)),
    [model, error, entity],
  );
}
