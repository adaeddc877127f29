// `/// <reference types="@ninefold/react/client" />` in an app's vite-env.d.ts: what a specification
// imported with `?ninefold` is (see `ninefold()` in `@ninefold/react/vite`).
declare module '*?ninefold' {
  const spec: {
    model: import('@ninefold/react').Model;
    api: import('@ninefold/react').ApiWire;
  };
  export default spec;
}
