/** Shapes of the published content under `/api/bag`: articles, pages, banners, categories, tags, menus. */
import { z } from 'zod/v4';
import { lazyShape } from '../../platform/shapes/lazy';
import { localeParam, localeQuery, pagination, publicAuthor, restListQuery } from '../../platform/shapes/common';

export { localeParam, localeQuery };

/**
 * Every published entry carries its ids and its locale (every type here is localized); other attributes (custom ones
 * included) come as the content type has them.
 */
const entry = lazyShape(() => ({ id: z.number().int(), documentId: z.string(), locale: z.string().optional() }));

/** When an entry was created, last changed and published (ISO 8601, UTC). */
const dates = lazyShape(() => ({
  createdAt: z.iso.datetime().optional(),
  updatedAt: z.iso.datetime().optional(),
  publishedAt: z.iso.datetime().nullable().optional(),
}));


/** One of the document's other published locales, for hreflang links. */
export const localization = lazyShape(() => z.object({ locale: z.string(), slug: z.string() }));
export const localizations = lazyShape(() => z.array(localization).describe("The document's other published locales."));

/** What a detail adds: the locale served (the default one when served by `content.localeFallback`) and the others. */
const detailLocales = lazyShape(() => ({
  locale: z.string().describe('The locale of the version served (the default one when served by fallback).'),
  localizations,
  views: z.number().int().optional().describe('Views including this read.'),
}));

/** An uploaded file as the host's REST API shows it. */
export const media = lazyShape(() => z
  .object({
    id: z.number().int(),
    documentId: z.string(),
    name: z.string().nullable().optional(),
    alternativeText: z.string().nullable().optional(),
    caption: z.string().nullable().optional(),
    width: z.number().int().nullable().optional(),
    height: z.number().int().nullable().optional(),
    formats: z.record(z.string(), z.unknown()).nullable().optional(),
    hash: z.string().nullable().optional(),
    ext: z.string().nullable().optional(),
    mime: z.string().nullable().optional(),
    size: z.number().nullable().optional(),
    url: z.string(),
    previewUrl: z.string().nullable().optional(),
    provider: z.string().nullable().optional(),
    provider_metadata: z.unknown().optional(),
    ...dates,
  })
  .catchall(z.unknown()));

/** An article's category or tag, as REST shows it. */
export const taxonomy = lazyShape(() => z
  .object({ ...entry, title: z.string(), slug: z.string().nullable().optional(), description: z.string().nullable().optional(), ...dates })
  .catchall(z.unknown()));

export const article = lazyShape(() => z
  .object({
    ...entry,
    title: z.string(),
    slug: z.string(),
    summary: z.string().nullable().optional(),
    content: z.string().nullable().optional(),
    isTop: z.boolean().optional(),
    views: z.number().int().optional(),
    commentCount: z.number().int().optional().describe('Approved comments, not deleted (docs/readers.md).'),
    cover: media.nullable().optional(),
    category: taxonomy.nullable().optional(),
    tags: z.array(taxonomy).optional(),
    author: publicAuthor.nullable().optional(),
    ...dates,
  })
  .catchall(z.unknown()));

export const page = lazyShape(() => z
  .object({
    ...entry,
    title: z.string(),
    slug: z.string(),
    content: z.string().nullable().optional(),
    cover: media.nullable().optional(),
    seoTitle: z.string().nullable().optional(),
    seoKeywords: z.string().nullable().optional(),
    seoDescription: z.string().nullable().optional(),
    views: z.number().int().optional(),
    ...dates,
  })
  .catchall(z.unknown()));

export const banner = lazyShape(() => z
  .object({
    ...entry,
    title: z.string(),
    subtitle: z.string().nullable().optional(),
    link: z.string().nullable().optional(),
    image: media.nullable().optional(),
    group: z.string(),
    order: z.number().int(),
  })
  .catchall(z.unknown()));

export const tag = lazyShape(() => z.object({ ...entry, title: z.string(), slug: z.string() }).catchall(z.unknown()));

/** A category with its sub-categories, to any depth. */
export const category = lazyShape(() => z.looseObject({
  id: entry.id,
  documentId: entry.documentId,
  locale: entry.locale,
  title: z.string(),
  slug: z.string().nullable().optional(),
  get children(): z.ZodArray<typeof category> {
    return z.array(category);
  },
}));
export type CategoryNode = z.infer<typeof category>;

/** Every attribute of the menu-item content type except its `menu` and `parent` relations, plus `children`. */
export const menuItem = lazyShape(() => z.looseObject({
  id: entry.id,
  documentId: entry.documentId,
  locale: entry.locale,
  title: z.string(),
  url: z.string(),
  target: z.enum(['_self', '_blank']),
  icon: z.string().nullable().optional(),
  isHot: z.boolean().optional(),
  order: z.number().int().optional(),
  get children(): z.ZodArray<typeof menuItem> {
    return z.array(menuItem);
  },
}));
export type MenuItemNode = z.infer<typeof menuItem>;

export const menu = lazyShape(() => z.object({
  ...entry,
  title: z.string(),
  slug: z.string(),
  locale: z.string().describe('The locale served: the requested one, or the default one by content.localeFallback.'),
  items: z.array(menuItem).describe('The tree of items with their attributes and `children`, siblings in order.'),
}));

export const articleList = lazyShape(() => z.object({ data: z.array(article), meta: z.object({ pagination }) }));
/** schema.org JSON-LD of a detail (docs/readers.md#structured-data); null while `site.url` is unset. */
export const jsonLdMeta = lazyShape(() => z.object({ jsonLd: z.array(z.record(z.string(), z.unknown())).nullable() }));
export const articleDetail = lazyShape(() => z.object({ data: article.extend(detailLocales), meta: jsonLdMeta.optional() }));
export const pageList = lazyShape(() => z.object({ data: z.array(page) }));
export const pageDetail = lazyShape(() => z.object({ data: page.extend(detailLocales), meta: jsonLdMeta.optional() }));
export const bannerList = lazyShape(() => z.object({ data: z.array(banner) }));
export const categoryList = lazyShape(() => z.object({ data: z.array(category) }));
export const tagList = lazyShape(() => z.object({ data: z.array(tag) }));
export const menuDetail = lazyShape(() => z.object({ data: menu }));

/** Where an old slug of an article or page lives now: its current slug, the locale, and the front end's path (`site.paths`). */
export const movedTo = lazyShape(() => z.object({ slug: z.string(), locale: z.string(), path: z.string() }));
/** The 301 body of a detail asked for by an old slug (`Location` names the same route with `slug`). */
export const movedDetail = lazyShape(() => z.object({ data: z.null(), redirect: movedTo }));

/** One redirect: an editor's (`status` 301, 302, 307, 308 or 410, `to` null for 410) or an old slug's (301, front-end paths). */
export const redirectEntry = lazyShape(() => z.object({
  from: z.string().describe('A front-end path'),
  to: z.string().nullable().describe('A front-end path or an absolute URL; null for 410'),
  status: z.number().int(),
}));
export const redirectList = lazyShape(() => z.object({ data: z.array(redirectEntry) }));

/** Query parameters of the article and page lists. */
export const listQuery = lazyShape(() => ({ ...restListQuery, ...localeQuery }));

/** The slug of a detail route. */
export const slugParams = lazyShape(() => ({ slug: z.string() }));
export const groupParams = lazyShape(() => ({ group: z.string() }));

// The requests of the content reads. The list's REST parameters are the host's, checked with its wording by
// features/content/query-checks.ts (the action hands the query on as it came); `locale` and the path are checked here.
export const listRequest = { query: listQuery };
export const bySlugRequest = { params: slugParams, query: localeQuery };
export const inLocaleRequest = { query: localeQuery };
export const groupRequest = { params: groupParams, query: localeQuery };
