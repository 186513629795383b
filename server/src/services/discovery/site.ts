/**
 * The public front end as feeds and the sitemap link to it (docs/discovery.md#absolute-urls): `site.url` + `site.paths.<kind>` with
 * `{slug}` and `{locale}` replaced; and absolute URLs of uploaded files and of the plugin's own routes.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../config/schema';
import { ServiceUnavailableError } from '../../utils/errors';

export const SITE_URL_MISSING = 'Site URL is not configured';

export type LinkKind = 'article' | 'page' | 'category' | 'tag';

export interface Site {
  /** `site.url` without a trailing slash. */
  url: string;
  title: string;
  description: string;
  /** The front end's absolute URL of a document version. */
  link: (kind: LinkKind, slug: string, locale: string) => string;
  /** An uploaded file's absolute URL (a relative `/uploads/…` one is prefixed with the host's own origin). */
  media: (url: string) => string;
  /** The absolute URL of a path served by this host (e.g. `/api/bag/sitemaps/1.xml`). */
  host: (path: string) => string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const isAbsolute = (url: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(url);

/**
 * The site of this configuration; 503 `Site URL is not configured` while `site.url` is unset. The host's own origin
 * (uploads, sitemap pages) is the host's `server.url` when it is absolute, else the request's origin (which follows
 * `X-Forwarded-*` when the host trusts its proxy), else `server.absoluteUrl`, else `site.url`.
 */
export const siteOf = (strapi: Core.Strapi, config: PluginConfig, requestOrigin?: string): Site => {
  if (!config.site.url) throw new ServiceUnavailableError(SITE_URL_MISSING);
  const url = trimSlash(config.site.url);
  const serverUrl = strapi.config.get<string>('server.url');
  const absoluteUrl = strapi.config.get<string>('server.absoluteUrl');
  const origin = trimSlash(
    [serverUrl, requestOrigin, absoluteUrl].find((candidate): candidate is string => typeof candidate === 'string' && isAbsolute(candidate)) ?? url
  );
  const paths = config.site.paths;
  const fill = (template: string, slug: string, locale: string) =>
    template.replace(/\{slug\}/g, encodeURIComponent(slug)).replace(/\{locale\}/g, encodeURIComponent(locale));
  return {
    url,
    title: config.site.title,
    description: config.site.description,
    link: (kind, slug, locale) => {
      const path = fill(paths[kind], slug, locale);
      return `${url}${path.startsWith('/') ? '' : '/'}${path}`;
    },
    media: (fileUrl) => (isAbsolute(fileUrl) ? fileUrl : `${origin}${fileUrl.startsWith('/') ? '' : '/'}${fileUrl}`),
    host: (path) => `${origin}${path}`,
  };
};
