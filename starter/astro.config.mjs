// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Every page is rendered on the server per request (content comes from Strapi at request time); the Node adapter in
// standalone mode gives `node dist/server/entry.mjs` (HOST, PORT). No framework runtime ships to the browser: the
// few pages that need JavaScript have a <script> of their own (comments, search as you type, the account).
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  // Canonical, Open Graph and hreflang URLs come from SITE_URL at request time (src/lib/config.ts), never from the
  // request's Host header.
  security: { checkOrigin: true },
  build: { inlineStylesheets: 'always' },
  prefetch: false,
  devToolbar: { enabled: false },
  vite: {
    resolve: {
      // In this repository the client is the root package's own build (`npm run build` → dist/client). A site copied
      // out of it installs `cms-plugin-bag` from the registry and removes this alias; the imports stay the same.
      alias: { 'cms-plugin-bag/client': fileURLToPath(new URL('../dist/client/index.mjs', import.meta.url)) },
    },
  },
});
