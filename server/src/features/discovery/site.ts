/**
 * The public front end as feeds and the sitemap link to it: `site.url` + `site.paths.<kind>` with `{slug}` and
 * `{locale}` replaced; and absolute URLs of uploaded files and of the plugin's own routes. Every one comes from
 * configuration, never from the request (docs/discovery.md#absolute-urls).
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import { ServiceUnavailableError } from '../../platform/errors';
import { serverUrl, type ServerConfig } from '../../platform/server-url';

export const SITE_URL_MISSING = 'Site URL is not configured';

export type LinkKind = 'article' | 'page' | 'category' | 'tag';

export interface Site {
  /** `site.url` without a trailing slash. */
  url: string;
  title: string;
  description: string;
  /** The front end's absolute URL of a document version (`{localePrefix}` empty in the default locale). */
  link: (kind: LinkKind, slug: string, locale: string) => string;
  /** An uploaded file's absolute URL (a relative `/uploads/…` one is prefixed with the host's own origin). */
  media: (url: string) => string;
  /** The absolute URL of a path served by this host (e.g. `/api/bag/sitemaps/1.xml`). */
  host: (path: string) => string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const isAbsolute = (url: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(url);

/**
 * The front end's path (no origin) of a document version: `site.paths.<kind>` with `{slug}` and `{locale}` replaced,
 * and `{localePrefix}` by `/<locale>`, or by nothing in `defaultLocale` (a site whose default locale has no prefix).
 */
export const frontPath = (paths: PluginConfig['site']['paths'], kind: LinkKind, slug: string, locale: string, defaultLocale?: string) => {
  const prefix = locale === defaultLocale ? '' : `/${encodeURIComponent(locale)}`;
  const path = paths[kind]
    .replace(/\{slug\}/g, encodeURIComponent(slug))
    .replace(/\{localePrefix\}/g, prefix)
    .replace(/\{locale\}/g, encodeURIComponent(locale));
  return path.startsWith('/') ? path : `/${path}`;
};

/**
 * The site of this configuration, its links made for `defaultLocale` (the host's); 503 `Site URL is not configured` while `site.url` is unset. The host's own URL
 * (uploads, sitemap pages, a feed's own URL) is platform/server-url.ts's: `server.url`, else its host and port.
 */
export const siteOf = (strapi: Core.Strapi, config: PluginConfig, defaultLocale: string): Site => {
  if (!config.site.url) throw new ServiceUnavailableError(SITE_URL_MISSING);
  const url = trimSlash(config.site.url);
  const origin = serverUrl(strapi.config.get<ServerConfig>('server', {}));
  return {
    url,
    title: config.site.title,
    description: config.site.description,
    link: (kind, slug, locale) => `${url}${frontPath(config.site.paths, kind, slug, locale, defaultLocale)}`,
    media: (fileUrl) => (isAbsolute(fileUrl) ? fileUrl : `${origin}${fileUrl.startsWith('/') ? '' : '/'}${fileUrl}`),
    host: (path) => `${origin}${path}`,
  };
};
