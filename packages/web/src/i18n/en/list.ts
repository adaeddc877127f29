/** Messages of the list area. */
export const list = {
  placeholder: '',
} as const;
