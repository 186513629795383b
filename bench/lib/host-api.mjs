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

/**
 * With @strapi-community/plugin-rest-cache loaded (REST_CACHE=1, playground/config/plugins.ts), the article list and
 * detail are served a second time under `/api/rest-cache/...`, behind its `recv` middleware: the response cache users
 * pick today, as a comparator. The plugin attaches that middleware to the routes of `strapi.apis` in its own
 * `register()`, which runs before this API is added, so it is attached here, as its `injectMiddlewares` does, with the
 * route configuration it resolved from its strategy.
 */
const restCacheRoutes = (strapi) => {
  if (!strapi?.plugin('rest-cache')) return {};
  const { strategy } = strapi.config.get('plugin::rest-cache');
  const cached = strategy.contentTypes.find((c) => c.contentType === `${PLUGIN}.article`)?.routes ?? [];
  const route = (path, handler) => {
    const cacheRouteConfig = cached.find((r) => r.method === 'GET' && r.path === `/api/rest-cache${path}`);
    if (!cacheRouteConfig) throw new Error(`rest-cache has no route configuration for /api/rest-cache${path}`);
    return {
      method: 'GET',
      path,
      handler,
      config: { middlewares: [{ name: 'plugin::rest-cache.recv', config: { cacheRouteConfig } }] },
    };
  };
  return {
    'rest-cache': {
      type: 'content-api',
      prefix: '/rest-cache',
      routes: [route('/articles', 'article.find'), route('/articles/:id', 'article.findOne')],
    },
  };
};

/**
 * The same-size floor: `GET /api/host/floor/:row` answers the bytes and headers registered for `row` (bench/server.mjs
 * fills this map over IPC with a captured cached answer of the plugin), from a Buffer made once, through the host's
 * global middlewares and router like any route of the app's; `auth: false`, so no Users & Permissions lookup (a cache
 * hit skips it too). What a cached read costs beyond it is the plugin's own work on a hit.
 */
export const floors = new Map();

const floorController = () => ({
  serve(ctx) {
    const floor = floors.get(ctx.params.row);
    if (!floor) return ctx.notFound(`no floor registered for ${ctx.params.row}`);
    ctx.status = floor.status;
    ctx.set(floor.headers);
    ctx.body = floor.body;
  },
});

export const hostApi = (strapi) => ({
  controllers: {
    ...Object.fromEntries(Object.keys(TYPES).map((name) => [name, coreController(`${PLUGIN}.${name}`)])),
    floor: floorController,
  },
  routes: {
    ...restCacheRoutes(strapi),
    host: {
      type: 'content-api',
      prefix: '/host',
      routes: [
        { method: 'GET', path: '/floor/:row', handler: 'floor.serve', config: { auth: false } },
        ...Object.entries(TYPES).flatMap(([name, plural]) => [
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
      ],
    },
  },
});

/**
 * Grants the Public role the comparator's reads (`find` and `findOne` of every type), so that the host can be
 * measured as Public too: the plugin's Public reads then meet a host that pays the same Users & Permissions work per
 * request (the role's permission read and its ability). And `find` of users and of menus: the host's validator and
 * sanitizer refuse a filter on a relation, and drop a populate of one, whose target the caller may not `find`, so
 * without them the host as Public would skip the articles' authors, which the plugin reads and serves (their
 * usernames), and could not filter menu items by their menu (the plugin has no route of its own for `menu.find`: the
 * action is registered here, bound to no route, so the grant opens nothing else). Users & Permissions drops the
 * grants of actions no longer registered when a server boots without this API, so each server with it grants them
 * again. Runs at the end of `bootstrap()`, while actions may still be registered.
 */
export async function grantPublicReads(strapi) {
  const registered = strapi.contentAPI.permissions.providers.action;
  const menuFind = 'plugin::cms-plugin-bag.menu.find';
  if (!registered.has(menuFind)) {
    await registered.register(menuFind, { api: 'plugin::cms-plugin-bag', controller: 'menu', action: 'find', uid: menuFind });
  }
  const permissions = strapi.db.query('plugin::users-permissions.permission');
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  const actions = [
    ...Object.keys(TYPES).flatMap((name) => [`api::bench.${name}.find`, `api::bench.${name}.findOne`]),
    'plugin::users-permissions.user.find',
    menuFind,
  ];
  for (const action of actions) {
    if (!(await permissions.findOne({ where: { action, role: role.id } }))) await permissions.create({ data: { action, role: role.id } });
  }
}
