import type { Core } from '@strapi/strapi';
import databaseUnavailable from './middlewares/database-unavailable';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  // Registered before the app's own middlewares are mounted, so it is the outermost one (see the module).
  strapi.server.use(databaseUnavailable({ strapi }));
};

export default register;
