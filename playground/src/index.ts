import fs from 'fs';
import path from 'path';
import type { Core } from '@strapi/strapi';
import { seed } from './seed';

// The plugin's browser client as built by `npm run build` (dist/client/index.mjs), for the example pages in public/.
const CLIENT_BUNDLE = path.resolve(__dirname, '..', '..', '..', 'dist', 'client', 'index.mjs');

// The client's one dependency, `@simplewebauthn/browser` (passkeys), as ES modules.
const WEBAUTHN_BROWSER = path.dirname(require.resolve('@simplewebauthn/browser')).replace(/script$/, 'esm');

export default {
  register({ strapi }: { strapi: Core.Strapi }) {
    strapi.server.router.get('/cms-bag-client.mjs', (ctx) => {
      ctx.type = 'text/javascript';
      // A page cannot resolve the bundle's bare import (and the host's CSP refuses an inline import map): it is pointed
      // at the route below.
      // (The client imports it dynamically, when a passkey is used: `import("…")`; an older build, statically.)
      ctx.body = fs
        .readFileSync(CLIENT_BUNDLE, 'utf8')
        .replace(/(from\s*|import\(\s*)["']@simplewebauthn\/browser["']/g, '$1"/vendor/simplewebauthn-browser/index.js"');
    });
    strapi.server.router.get('/vendor/simplewebauthn-browser/(.*)', (ctx) => {
      const file = path.resolve(WEBAUTHN_BROWSER, ctx.params[0] ?? '');
      if (!file.startsWith(`${WEBAUTHN_BROWSER}${path.sep}`) || !file.endsWith('.js') || !fs.existsSync(file)) {
        ctx.status = 404;
        return;
      }
      ctx.type = 'text/javascript';
      ctx.body = fs.createReadStream(file);
    });
  },

  async bootstrap({ strapi }: { strapi: Core.Strapi }) {
    if (!process.env.SMTP_HOST) {
      // Development only: without an SMTP server the playground writes outgoing mail to the log.
      strapi.plugin('email').provider = {
        async send(options: { to: string; subject: string; text?: string }) {
          strapi.log.info(`[playground mail] to ${options.to} — ${options.subject}\n${options.text ?? ''}`);
        },
      };
    }

    if (process.env.SEED !== 'false') await seed(strapi);

    const url = (strapi.config.get('server.absoluteUrl') as string) || `http://localhost:${strapi.config.get('server.port')}`;
    strapi.log.info(`cms-plugin-bag playground: API at ${url}/api/bag and ${url}/api/cms-plugin-bag, admin panel at ${url}/admin`);
  },
};
