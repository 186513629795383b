/**
 * `/api/bag/sitemap-news.xml`: a Google News sitemap (docs/discovery.md#news-sitemap, docs/readers.md): the articles
 * of a locale (the default one unless `?locale=`) published in the last 48 hours, newest first, at most 1,000, each
 * with `news:publication` (`name`: `site.title`; `language`: the locale), `news:publication_date` and `news:title`, as
 * Google's News sitemap documentation requires. URLs from `site.url` only (503 while unset).
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';
import { uid } from '../../platform/plugin-id';
import { siteOf } from './site';
import { w3cDate, xml } from './xml';

export const NEWS_WINDOW_MS = 48 * 3600 * 1000;
export const NEWS_MAX = 1000;

export const newsSitemap = async (strapi: Core.Strapi, requested: unknown): Promise<string> => {
  const config = await getService(strapi, 'settings').get();
  const { locale, defaultLocale } = await getService(strapi, 'locales').resolve(requested);
  const site = siteOf(strapi, config, defaultLocale);
  const since = new Date(getService(strapi, 'clock').now() - NEWS_WINDOW_MS).toISOString();
  const rows = (await strapi.documents(uid('article') as never).findMany({
    locale,
    status: 'published',
    filters: { publishedAt: { $gte: since } },
    fields: ['title', 'slug', 'publishedAt'],
    sort: [{ publishedAt: 'desc' }, { id: 'desc' }],
    limit: NEWS_MAX,
  } as never)) as unknown as { title: string; slug: string; publishedAt: string }[];
  // Google wants the ISO 639 code: `pt-BR` → `pt`, except Chinese (`zh-cn`, `zh-tw`).
  const language = /^zh[-_]/i.test(locale) ? locale.toLowerCase().replace('_', '-') : locale.split(/[-_]/)[0].toLowerCase();
  const name = site.title || site.url;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n',
  ];
  for (const row of rows) {
    out.push(
      `<url><loc>${xml(site.link('article', row.slug, locale))}</loc><news:news><news:publication><news:name>${xml(name)}</news:name>` +
        `<news:language>${xml(language)}</news:language></news:publication><news:publication_date>${xml(w3cDate(row.publishedAt))}</news:publication_date>` +
        `<news:title>${xml(row.title)}</news:title></news:news></url>\n`,
    );
  }
  out.push('</urlset>\n');
  return out.join('');
};
