import type { Core } from '@strapi/strapi';
import { keepViewCounts } from './services/views';

/**
 * The plugin issues legacy jwts with its own refresh tokens. In users-permissions' `jwtManagement: 'refresh'`
 * mode the host accepts only access tokens bound to one of its own sessions, so the plugin's tokens would be
 * refused everywhere: refuse to start instead of failing on every request.
 */
const register = ({ strapi }: { strapi: Core.Strapi }) => {
  const mode: string = strapi.config.get('plugin::users-permissions.jwtManagement', 'legacy-support');
  if (mode === 'refresh') {
    throw new Error(
      "cms-plugin-bag: users-permissions jwtManagement 'refresh' is not supported; the plugin issues its own refresh tokens. " +
        "Set jwtManagement to 'legacy-support' (the default) in config/plugins.ts."
    );
  }

  strapi.documents.use(keepViewCounts);
};

export default register;
