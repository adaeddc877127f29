import { createContext, type ReactNode, useContext } from 'react';
import type { SpecPayload } from '../data/api-description';
import type { DataProvider } from '../data/data-provider';

export interface SpecContextValue extends SpecPayload {
  data: DataProvider;
}

const SpecContext = createContext<SpecContextValue | null>(null);

export function SpecProvider({ value, children }: { value: SpecContextValue; children: ReactNode }) {
  return <SpecContext.Provider value={value}>{children}</SpecContext.Provider>;
}

/** The checked model, the calls and the data interface built from them. */
export function useSpec(): SpecContextValue {
  const value = useContext(SpecContext);
  if (!value) throw new Error('useSpec must be used inside <SpecProvider>.');
  return value;
}
