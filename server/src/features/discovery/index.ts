/** Discovery (feeds, sitemap): what the wiring and other features use. */
export { default as commentFeedService } from './comment-feed';
export { default as feedsController } from './feeds.controller';
export { default as feedsRoutes } from './feeds.routes';
export { default as feedsService } from './feeds.service';
export { frontPath, siteOf, SITE_URL_MISSING, type Site } from './site';
export { default as sitemapController } from './sitemap.controller';
export { default as sitemapService } from './sitemap.service';
