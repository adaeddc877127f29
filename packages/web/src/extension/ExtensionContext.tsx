import { useSpec } from '../app/SpecContext';
import { NO_EXTENSION } from './loaded';
import type { Extension } from './types';

/** The team's extension, or an empty one: every override point asks here. */
export function useExtension(): Extension {
  return (useSpec().extension ?? NO_EXTENSION).extension;
}
