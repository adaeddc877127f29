import { type RegisterOptions, useFormContext } from 'react-hook-form';

/**
 * Registers an uncontrolled input. Typing costs nothing beyond the input itself; the only extra work is
 * clearing this field's own error once the person changes it (validation runs again on save).
 */
export function useRegister(name: string, options: RegisterOptions = {}) {
  const { register, getFieldState, clearErrors } = useFormContext();
  return register(name, {
    ...options,
    onChange: () => {
      if (getFieldState(name).error) clearErrors(name);
    },
  });
}
