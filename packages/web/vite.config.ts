import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The runtime is built once and served for any specification: it fetches spec.json at start, so the
// same files work at any path (base './') on any static host.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or eval may be needed at run time (strict CSP); module preload polyfill is inline.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
  },
});
