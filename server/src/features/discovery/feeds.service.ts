/**
 * The `discovery-feeds` service (docs/discovery.md#feeds): the newest `feeds.size` published articles of one locale (the default
 * when none is asked), narrowed to one category or tag by slug, as RSS 2.0, Atom 1.0 or JSON Feed 1.1.
 *
 * An item's id is `urn:cms-plugin-bag:article:<documentId>:<locale>`: stable across edits, renames and republishing
 * (a new published row keeps the document id), and distinct per locale version.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';
import { siteOf, type Site } from './site';
import { cleanText, rfc822Date, w3cDate, xml } from './xml';

const ARTICLE = uid('article');
const CATEGORY = uid('category');
const TAG = uid('tag');

export const CATEGORY_NOT_FOUND = 'Category not found';
export const TAG_NOT_FOUND = 'Tag not found';

export const FEED_TYPES = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
} as const;

export type FeedFormat = keyof typeof FEED_TYPES;

export interface FeedQuery {
  locale?: unknown;
  category?: string;
  tag?: string;
}

interface FeedItem {
  id: string;
  link: string;
  title: string;
  summary: string;
  date: unknown;
  updated: unknown;
  author?: string;
  categories: string[];
  cover?: { url: string; type?: string; length?: number };
}

interface Feed {
  site: Site;
  locale: string;
  /** The feed's own URL (this host), its alternate link (the front end) and its id. */
  self: string;
  title: string;
  items: FeedItem[];
}

type ArticleRow = {
  documentId: string;
  locale: string;
  title?: string | null;
  slug: string;
  summary?: string | null;
  publishedAt: unknown;
  updatedAt: unknown;
  author?: { username?: string | null } | null;
  category?: { title?: string | null } | null;
  tags?: { title?: string | null }[] | null;
  cover?: { url: string; mime?: string | null; size?: number | null } | null;
};

const itemId = (documentId: string, locale: string) => `urn:cms-plugin-bag:article:${documentId}:${locale}`;

const renderRss = (feed: Feed): string => {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${xml(feed.title)}</title>`,
    `<link>${xml(feed.site.url)}</link>`,
    `<description>${xml(feed.site.description || feed.title)}</description>`,
    `<language>${xml(feed.locale)}</language>`,
    `<atom:link href="${xml(feed.self)}" rel="self" type="application/rss+xml"/>`,
  ];
  if (feed.items[0]) out.push(`<lastBuildDate>${rfc822Date(feed.items[0].date)}</lastBuildDate>`);
  for (const item of feed.items) {
    out.push('<item>', `<title>${xml(item.title)}</title>`, `<link>${xml(item.link)}</link>`);
    out.push(`<guid isPermaLink="false">${xml(item.id)}</guid>`, `<pubDate>${rfc822Date(item.date)}</pubDate>`);
    if (item.summary) out.push(`<description>${xml(item.summary)}</description>`);
    if (item.author) out.push(`<dc:creator>${xml(item.author)}</dc:creator>`);
    for (const category of item.categories) out.push(`<category>${xml(category)}</category>`);
    if (item.cover) {
      out.push(`<enclosure url="${xml(item.cover.url)}" length="${item.cover.length ?? 0}" type="${xml(item.cover.type ?? 'application/octet-stream')}"/>`);
    }
    out.push('</item>');
  }
  out.push('</channel>', '</rss>', '');
  return out.join('\n');
};

const renderAtom = (feed: Feed): string => {
  const updated = feed.items.reduce<string | undefined>((latest, item) => {
    const value = w3cDate(item.updated);
    return !latest || value > latest ? value : latest;
  }, undefined);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xml(feed.locale)}">`,
    `<id>${xml(feed.self)}</id>`,
    `<title>${xml(feed.title)}</title>`,
  ];
  if (feed.site.description) out.push(`<subtitle>${xml(feed.site.description)}</subtitle>`);
  out.push(
    `<updated>${updated ?? w3cDate(new Date(0))}</updated>`,
    `<link rel="alternate" type="text/html" href="${xml(feed.site.url)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${xml(feed.self)}"/>`,
    // RFC 4287 4.1.1: a feed without an author needs one in every entry; the site stands in where an entry has none.
    `<author><name>${xml(feed.title)}</name></author>`
  );
  for (const item of feed.items) {
    out.push('<entry>', `<id>${xml(item.id)}</id>`, `<title type="text">${xml(item.title)}</title>`);
    out.push(`<link rel="alternate" type="text/html" href="${xml(item.link)}"/>`);
    out.push(`<published>${w3cDate(item.date)}</published>`, `<updated>${w3cDate(item.updated)}</updated>`);
    if (item.summary) out.push(`<summary type="text">${xml(item.summary)}</summary>`);
    if (item.author) out.push(`<author><name>${xml(item.author)}</name></author>`);
    for (const category of item.categories) out.push(`<category term="${xml(category)}"/>`);
    if (item.cover) {
      const length = item.cover.length ? ` length="${item.cover.length}"` : '';
      const type = item.cover.type ? ` type="${xml(item.cover.type)}"` : '';
      out.push(`<link rel="enclosure" href="${xml(item.cover.url)}"${type}${length}/>`);
    }
    out.push('</entry>');
  }
  out.push('</feed>', '');
  return out.join('\n');
};

const renderJson = (feed: Feed): string =>
  JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: cleanText(feed.title),
    home_page_url: feed.site.url,
    feed_url: feed.self,
    ...(feed.site.description ? { description: cleanText(feed.site.description) } : {}),
    language: feed.locale,
    items: feed.items.map((item) => ({
      id: item.id,
      url: item.link,
      title: cleanText(item.title),
      ...(item.summary ? { summary: cleanText(item.summary), content_text: cleanText(item.summary) } : { content_text: '' }),
      date_published: new Date(w3cDate(item.date)).toISOString(),
      date_modified: new Date(w3cDate(item.updated)).toISOString(),
      ...(item.author ? { authors: [{ name: cleanText(item.author) }] } : {}),
      ...(item.categories.length ? { tags: item.categories.map(cleanText) } : {}),
      ...(item.cover ? { image: item.cover.url } : {}),
    })),
  });

const RENDER: Record<FeedFormat, (feed: Feed) => string> = { rss: renderRss, atom: renderAtom, json: renderJson };

const feeds = ({ strapi }: { strapi: Core.Strapi }) => {
  /** The documentId of the `uid` row with this slug in this locale; 404 `notFound` without one. */
  const bySlug = async (type: string, slug: string, locale: string, notFound: string) => {
    const row = (await strapi.documents(type as never).findFirst({ locale, filters: { slug }, fields: ['documentId'] } as never)) as {
      documentId: string;
    } | null;
    if (!row) throw new errors.NotFoundError(notFound);
    return row.documentId;
  };

  return {
    /** The feed document in `format`. */
    async render(format: FeedFormat, query: FeedQuery): Promise<string> {
      const config = await getService(strapi, 'settings').get();
      const { locale, defaultLocale } = await getService(strapi, 'locales').resolve(query.locale);
      const site = siteOf(strapi, config, defaultLocale);
      const filters: Record<string, unknown> = {};
      if (query.category) filters.category = { documentId: await bySlug(CATEGORY, query.category, locale, CATEGORY_NOT_FOUND) };
      if (query.tag) filters.tags = { documentId: await bySlug(TAG, query.tag, locale, TAG_NOT_FOUND) };
      const rows = (await strapi.documents(ARTICLE).findMany({
        locale,
        status: 'published',
        filters,
        sort: [{ publishedAt: 'desc' }, { id: 'desc' }],
        limit: config.feeds.size,
        fields: ['documentId', 'locale', 'title', 'slug', 'summary', 'publishedAt', 'updatedAt'],
        populate: {
          author: { fields: ['username'] },
          category: { fields: ['title'] },
          tags: { fields: ['title'], sort: ['title:asc'] },
          cover: { fields: ['url', 'mime', 'size'] },
        },
      } as never)) as unknown as ArticleRow[];

      const params = new URLSearchParams();
      if (query.locale) params.set('locale', locale);
      if (query.category) params.set('category', query.category);
      if (query.tag) params.set('tag', query.tag);
      const search = params.toString();
      const self = site.host(`/api/bag/feeds/articles.${format}${search ? `?${search}` : ''}`);

      const items = rows.map(
        (row): FeedItem => ({
          id: itemId(row.documentId, row.locale),
          link: site.link('article', row.slug, row.locale),
          title: row.title ?? '',
          summary: row.summary ?? '',
          date: row.publishedAt,
          updated: row.updatedAt ?? row.publishedAt,
          author: row.author?.username ?? undefined,
          categories: [row.category?.title, ...(row.tags ?? []).map((tag) => tag.title)].filter((title): title is string => Boolean(title)),
          cover: row.cover?.url
            ? {
                url: site.media(row.cover.url),
                type: row.cover.mime ?? undefined,
                // The host stores sizes in kB.
                length: row.cover.size ? Math.round(row.cover.size * 1024) : undefined,
              }
            : undefined,
        })
      );
      return RENDER[format]({ site, locale, self, title: site.title || site.url, items });
    },
  };
};

export type DiscoveryFeedsService = ReturnType<typeof feeds>;
export default feeds;
