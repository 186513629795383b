/** Shapes of the discovery routes (docs/discovery.md): feeds and the sitemap. XML documents are described as text. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { declareRequest } from '../../platform/request-check';
import { UNKNOWN_LOCALE } from '../../platform/shapes/common';

/** One code (checked by the locales service: another is `Unknown locale supplied`, as a repeated one is here). */
const locale = lazyShape(() => z.string({ error: UNKNOWN_LOCALE }).optional().describe("A locale code of the host; absent: the default locale's articles"));

/** One slug, given once (`?tag=a&tag=b` and `?tag[x]=a` are refused naming the parameter); empty is absent. */
const slug = (description: string) => z.string({ error: 'must be one slug' }).optional().describe(description);

export const feedQuery = lazyShape(() => ({
  locale,
  category: slug("A category's slug: only its articles"),
  tag: slug("A tag's slug: only its articles"),
}));

export const sitemapQuery = lazyShape(() => ({
  locale: z.string({ error: UNKNOWN_LOCALE }).optional().describe('Checked (400 when unknown), otherwise ignored: the sitemap lists every locale'),
}));

export const sitemapPageParams = lazyShape(() => ({ page: z.string().describe('The page file: `<n>.xml`, n from 1') }));

export const rssDocument = lazyShape(() => z.string().describe('An RSS 2.0 document (application/rss+xml)'));
export const atomDocument = lazyShape(() => z.string().describe('An Atom 1.0 document (application/atom+xml)'));
export const sitemapDocument = lazyShape(() => z.string().describe('A sitemaps.org urlset or sitemapindex (application/xml)'));

/** JSON Feed 1.1 (application/feed+json). */
export const jsonFeed = lazyShape(() => z.object({
  version: z.literal('https://jsonfeed.org/version/1.1'),
  title: z.string(),
  home_page_url: z.string(),
  feed_url: z.string(),
  description: z.string().optional(),
  language: z.string(),
  items: z.array(
    z.object({
      id: z.string(),
      url: z.string(),
      title: z.string(),
      summary: z.string().optional(),
      content_text: z.string(),
      date_published: z.string(),
      date_modified: z.string(),
      authors: z.array(z.object({ name: z.string() })).optional(),
      tags: z.array(z.string()).optional(),
      image: z.string().optional(),
    })
  ),
}));

// One issue at a time, the first (platform/shapes/parse.ts).
export const feedRequest = declareRequest({ query: feedQuery }, { first: true });
export const sitemapRequest = declareRequest({ query: sitemapQuery }, { first: true });
export const sitemapPageRequest = declareRequest({ params: sitemapPageParams, query: sitemapQuery }, { first: true });
