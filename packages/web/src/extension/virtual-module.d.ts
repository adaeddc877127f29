// The team's extension module, bundled in by vite.config.ts when the client is built with one.
declare module 'virtual:ninefold-extension' {
  const extension: unknown;
  export default extension;
}

/** Whether this build has an extension module (vite.config.ts defines it). */
declare const __NINEFOLD_EXTENSION__: boolean;
