/** Messages of the form area. */
export const form = {
  placeholder: '',
} as const;
