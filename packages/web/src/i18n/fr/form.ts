import type { Messages } from '../types';

export const form: Messages<'form'> = {
  placeholder: '',
};
