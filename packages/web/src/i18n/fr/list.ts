import type { Messages } from '../types';

export const list: Messages<'list'> = {
  placeholder: '',
};
