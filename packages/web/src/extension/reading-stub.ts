// What `@ninefold/web/extension` is while `check` and `dev` read an extension module's names in Node
// (runtime/extension-module.ts): the same exports, none of the client behind them. The module's default
// export is read, never rendered, so its components need only exist; and transforming the client's own
// sources (React's screens, Mantine, the rules' engine) for that took two of the three seconds of a read.
// packages/web/test/reading-stub.test.ts holds its names to public.ts's.
import type { Extension } from './types';

const nothing = () => null;

export const Link = nothing;
export const useNavigate = () => nothing;
export class ApiError extends Error {}
export class NetworkError extends Error {}
export const ErrorNotice = nothing;
export const FieldDisplay = nothing;
export const useCan = () => () => false;
export function defineExtension<const E extends Extension>(extension: E): E {
  return extension;
}
export const useNinefold = nothing;
