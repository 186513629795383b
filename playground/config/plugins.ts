import path from 'path';

// The server reads this file compiled (playground/dist/config); `strapi build` reads the source (playground/config)
// to find the plugins whose admin it bundles. Both must resolve the plugin to the repository root.
const playgroundDir = path.basename(path.resolve(__dirname, '..')) === 'dist' ? path.resolve(__dirname, '..', '..') : path.resolve(__dirname, '..');

// Optional: the host's GraphQL plugin, off unless GRAPHQL is `before` or `after` (where it stands in this file
// relative to cms-plugin-bag, which decides which of the two Strapi loads first). The tests boot it both ways.
// Its operation limits are set as docs/graphql.md asks of every app; GRAPHQL_DEPTH_LIMIT overrides `depthLimit`
// (`unset`: none, as in an app that never set it — the tests of the plugin's own depth limit).
const graphqlPlugin = (position: string, depthLimit: string) => ({
  enabled: position === 'before' || position === 'after',
  // A dev dependency of the repository (not of the playground app), so it is declared with its path.
  resolve: path.dirname(require.resolve('@strapi/plugin-graphql/package.json')),
  config: {
    playgroundAlways: false,
    defaultLimit: 25,
    maxLimit: 100,
    ...(depthLimit === 'unset' ? {} : { depthLimit: Number(depthLimit) }),
    apolloServer: { introspection: true },
  },
});

// Benchmark only (REST_CACHE=1, set by bench/run.mjs): @strapi-community/plugin-rest-cache with its memory provider, the
// comparator of the plugin's response cache. It caches the host REST article list and detail the benchmark's server
// adds under /api/rest-cache/ (bench/lib/host-api.mjs attaches its middleware there); the benchmark reads them with an
// API token, so `hitpass` is off (its default passes every request that has an Authorization header).
const restCachePlugin = () => ({
  enabled: true,
  resolve: path.dirname(require.resolve('@strapi-community/plugin-rest-cache/package.json')),
  config: {
    provider: { name: 'memory', getTimeout: 500, options: { max: 32767 } },
    strategy: {
      enableXCacheHeaders: true,
      hitpass: false,
      contentTypes: [
        {
          contentType: 'plugin::cms-plugin-bag.article',
          injectDefaultRoutes: false,
          routes: ['/api/rest-cache/articles', '/api/rest-cache/articles/:id'],
        },
      ],
    },
  },
});

/** The example site's addresses (public/site.js builds the same ones). */
const EXAMPLE_SITE_PATHS = {
  article: '/example.html?article={slug}&locale={locale}',
  category: '/example.html?category={slug}&locale={locale}',
  tag: '/example.html?tag={slug}&locale={locale}',
};

/**
 * The blog starter's addresses (starter/src/lib/route.ts; docs/starter.md): `/fr/articles/…` for French, English (the
 * default locale) unprefixed, so feeds and the sitemap link to the canonical page, never to a 301.
 */
const STARTER_PATHS = {
  article: '{localePrefix}/articles/{slug}',
  page: '{localePrefix}/{slug}',
  category: '{localePrefix}/categories/{slug}',
  tag: '{localePrefix}/tags/{slug}',
};

export default ({ env }) => {
  const ownUrl = `http://localhost:${env.int('PORT', 1337)}`;
  const siteUrl = env('SITE_URL', ownUrl);
  // SITE_URL on another origin than this server is the blog starter (`npm run develop` sets it to
  // http://localhost:4321); this server's own origin is the example site in public/.
  const starter = Boolean(siteUrl) && siteUrl.replace(/\/+$/, '') !== ownUrl;
  const paths = starter ? STARTER_PATHS : EXAMPLE_SITE_PATHS;
  return {
    ...(env('GRAPHQL', '') === 'before' ? { graphql: graphqlPlugin('before', env('GRAPHQL_DEPTH_LIMIT', '10')) } : {}),
    ...(env.bool('REST_CACHE', false) ? { 'rest-cache': restCachePlugin() } : {}),
    'users-permissions': {
      config: {
        jwtSecret: env('JWT_SECRET'),
        jwtManagement: env('JWT_MANAGEMENT', 'legacy-support'),
      },
    },
    email: {
      config: {
        provider: 'nodemailer',
        providerOptions: {
          host: env('SMTP_HOST', '127.0.0.1'),
          port: env.int('SMTP_PORT', 587),
          secure: env.bool('SMTP_SECURE', false),
          ignoreTLS: env.bool('SMTP_IGNORE_TLS', false),
          auth: env('SMTP_USER') ? { user: env('SMTP_USER'), pass: env('SMTP_PASS') } : undefined,
          connectionTimeout: env.int('SMTP_TIMEOUT', 10000),
          greetingTimeout: env.int('SMTP_TIMEOUT', 10000),
          socketTimeout: env.int('SMTP_TIMEOUT', 10000),
        },
        settings: {
          defaultFrom: env('SMTP_FROM', 'CMS Bag <no-reply@example.com>'),
          defaultReplyTo: env('SMTP_FROM', 'CMS Bag <no-reply@example.com>'),
        },
      },
    },
    'cms-plugin-bag': {
      // The benchmark boots the playground once without the plugin to measure what it adds to boot time and memory.
      enabled: env.bool('CMS_BAG_ENABLED', true),
      // The plugin under development: the repository root, loaded through its package.json exports,
      // i.e. from its built output in dist/. CMS_BAG_PLUGIN_DIR: another copy of the package instead (the upgrade
      // test boots the previous release's unpacked tarball).
      resolve: env('CMS_BAG_PLUGIN_DIR', '') || path.resolve(playgroundDir, '..'),
      config: {
        crypto: {
          rsa: { privateKey: env('RSA_PRIVATE_KEY') || undefined },
          aes: { secret: env('AES_SECRET') || undefined },
        },
        // The front end that feeds, the sitemap and redirects link to: the blog starter when SITE_URL names it, else
        // the example site this server serves
        // (public/example.html: an article by `?article=<slug>`, the list of a category or a tag by `?category=` /
        // `?tag=`, each in `&locale=`). SITE_URL empty: no `site` key at all (feeds and the sitemap answer 503, and a
        // release before feeds, whose configuration has no such key, boots: tests/upgrade).
        ...(siteUrl ? { site: { url: siteUrl, paths } } : {}),
        // With the starter as the site, passkeys made on the example page (this server's origin) still verify.
        ...(starter ? { account: { passkeys: { origins: [new URL(siteUrl).origin, ownUrl] } } } : {}),
        // Playground only: extra plugin configuration as JSON, used by the tests and the multi-instance runs.
        ...JSON.parse(env('CMS_BAG_CONFIG', '{}')),
      },
    },
    ...(env('GRAPHQL', '') === 'after' ? { graphql: graphqlPlugin('after', env('GRAPHQL_DEPTH_LIMIT', '10')) } : {}),
  };
};
