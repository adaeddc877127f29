import type { Messages } from '../types';

export const data: Messages<'data'> = {
  placeholder: '',
};
