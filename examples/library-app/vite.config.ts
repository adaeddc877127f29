import { ninefold } from '@ninefold/react/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Where `ninefold serve ../shop.md` runs the shop's prototype API; the app sends it /api.
const api = process.env.NINEFOLD_API ?? 'http://127.0.0.1:4321';

// The policy `ninefold serve` sends with the client (contentSecurityPolicy in packages/server/src/client.ts):
// no inline script, no eval; inline styles, which Mantine's <style> elements need. The preview sends it, to
// show the client keeps to it as a component of another app too.
const POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export default defineConfig({
  plugins: [react(), ninefold()],
  server: { proxy: { '/api': api } },
  preview: { proxy: { '/api': api }, headers: { 'Content-Security-Policy': POLICY } },
});
