/** Messages of the data area. */
export const data = {
  placeholder: '',
} as const;
