import { type FieldError, get, useFormState } from 'react-hook-form';

/**
 * The message of one form path's error. Subscribes to that path only, so an error elsewhere (or a
 * keystroke anywhere) does not re-render this field.
 */
export function useFieldError(name: string): string | undefined {
  const { errors } = useFormState({ name });
  const error = get(errors, name) as FieldError | undefined;
  return typeof error?.message === 'string' && error.message !== '' ? error.message : undefined;
}
