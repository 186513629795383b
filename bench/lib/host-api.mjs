/**
 * The comparator: the host's own REST API (core controllers and core services, as `strapi generate` would give a
 * user) over the plugin's content types, served under `/api/host/...` in the benchmark's server only.
 *
 * The core controller calls `strapi.service(uid)`, which for a plugin uid is the plugin's own service of that name
 * (or nothing); so each controller here keeps `find` / `findOne` exactly as the core's but bound to a core service
 * made with `factories.createCoreService` for the same content type.
 */
import { createRequire } from 'module';

const require = createRequire(import.meta.url);

const PLUGIN = 'plugin::cms-plugin-bag';
/** controller name (in `api::bench`) → plugin content type; path segment = the type's plural name. */
const TYPES = {
  article: 'articles',
  comment: 'comments',
  'menu-item': 'menu-items',
  page: 'pages',
  banner: 'banners',
};

const coreController = (uid) => {
  const { factories } = require('@strapi/strapi');
  return factories.createCoreController(uid, ({ strapi }) => {
    const service = factories.createCoreService(uid)({ strapi });
    return {
      async find(ctx) {
        await this.validateQuery(ctx);
        const query = await this.sanitizeQuery(ctx);
        const { results, pagination } = await service.find(query);
        return this.transformResponse(await this.sanitizeOutput(results, ctx), {
          pagination,
        });
      },
      async findOne(ctx) {
        await this.validateQuery(ctx);
        const query = await this.sanitizeQuery(ctx);
        const entity = await service.findOne(ctx.params.id, query);
        return this.transformResponse(await this.sanitizeOutput(entity, ctx));
      },
    };
  });
};

export const hostApi = () => ({
  controllers: Object.fromEntries(Object.keys(TYPES).map((name) => [name, coreController(`${PLUGIN}.${name}`)])),
  routes: {
    host: {
      type: 'content-api',
      prefix: '/host',
      routes: Object.entries(TYPES).flatMap(([name, plural]) => [
        {
          method: 'GET',
          path: `/${plural}`,
          handler: `${name}.find`,
          config: {},
        },
        {
          method: 'GET',
          path: `/${plural}/:id`,
          handler: `${name}.findOne`,
          config: {},
        },
      ]),
    },
  },
});
