/**
 * The plugin's typed client on the server, one per request locale, and what the pages need from it. Content reads
 * go to STRAPI_URL; the locale is the route's (`/fr/…` → `fr`).
 */
import { CmsBagError, createClient, type Article, type Banner, type Category, type Menu, type MenuItem, type Tag } from 'cms-plugin-bag/client';
import { STRAPI_URL, PAGE_SIZE } from './config';
import type { Locale } from './i18n';

export const cms = (locale: Locale) => createClient({ baseUrl: STRAPI_URL, locale });
export type Cms = ReturnType<typeof cms>;

/** Whether an error is Strapi's "not found" (an unknown slug, category, tag or locale). */
export const isNotFound = (error: unknown) => error instanceof CmsBagError && error.status === 404;

/** A read that may be missing (404 → null); any other failure (Strapi down, 5xx) propagates to the error page. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Site-wide things every page shows: the main menu, the categories and the tags. A missing one is empty. */
export async function chrome(client: Cms): Promise<{ menu: MenuItem[]; categories: Category[]; tags: Tag[] }> {
  const [menu, categories, tags] = await Promise.all([
    orNull(client.menus.get('main')),
    client.categories.list(),
    client.tags.list(),
  ]);
  return { menu: (menu?.data as Menu | undefined)?.items ?? [], categories: categories.data, tags: tags.data };
}


/** A page of published articles, newest first, filtered by category or tag slug. */
export function articlePage(client: Cms, page: number, filter: { category?: string; tag?: string } = {}) {
  const filters = {
    ...(filter.category ? { category: { slug: { $eq: filter.category } } } : {}),
    ...(filter.tag ? { tags: { slug: { $eq: filter.tag } } } : {}),
  };
  return client.articles.list({
    filters,
    sort: ['publishedAt:desc'],
    pagination: { page, pageSize: PAGE_SIZE },
  });
}

/** The pinned articles (`isTop`) for the home page. */
export async function pinned(client: Cms): Promise<Article[]> {
  const answer = await client.articles.list({ filters: { isTop: { $eq: true } }, sort: ['publishedAt:desc'], pagination: { pageSize: 3 } });
  return answer.data;
}

export async function banners(client: Cms, group: string): Promise<Banner[]> {
  return (await orNull(client.banners.list(group)))?.data ?? [];
}

/** A category found anywhere in the tree by slug. */
export function findCategory(tree: Category[], slug: string): Category | undefined {
  for (const node of tree) {
    if (node.slug === slug) return node;
    const found = findCategory(node.children ?? [], slug);
    if (found) return found;
  }
  return undefined;
}

/** Reading time at 220 words a minute, at least one minute. */
export const readingMinutes = (markdown: string | null | undefined) => Math.max(1, Math.round((markdown ?? '').split(/\s+/).filter(Boolean).length / 220));

/** A page number from `?page=`: a positive integer, else 1. */
export const pageParam = (url: URL) => {
  const page = Number(url.searchParams.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
};
