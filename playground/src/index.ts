import type { Core } from '@strapi/strapi';
import { seed } from './seed';

export default {
  register() {},

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
