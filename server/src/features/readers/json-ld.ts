/**
 * schema.org JSON-LD of an article (`BlogPosting`) or a page (`WebPage`), and its `BreadcrumbList` (site → category
 * ancestors → the document), as Google documents them (docs/readers.md#structured-data): Article's recommended
 * `headline`, `image`, `datePublished`, `dateModified`, `author` (with `name`), and `url` / `mainEntityOfPage`;
 * BreadcrumbList's required `itemListElement` of `ListItem`s, each with `position`, `name` and `item` (the last one's
 * `item` may be left out, and is given). Every URL is absolute and made from `site.url`, never from the request.
 */
import type { Site } from '../discovery';

type Entity = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The category's chain from the root down to it (each with `title`, `slug` and `parent`). */
const ancestry = (category: Entity | null | undefined): Entity[] => {
  const chain: Entity[] = [];
  const seen = new Set<unknown>();
  for (let at = category; at && !seen.has(at.id); at = at.parent as Entity | null | undefined) {
    seen.add(at.id);
    chain.unshift(at);
  }
  return chain;
};

export const jsonLdOf = (kind: 'article' | 'page', entity: Entity, site: Site, category?: Entity | null): Entity[] => {
  const locale = String(entity.locale ?? '');
  const url = site.link(kind, String(entity.slug), locale);
  const title = str(kind === 'page' ? (entity.seoTitle ?? entity.title) : entity.title) ?? String(entity.slug);
  const description = str(kind === 'page' ? (entity.seoDescription ?? entity.summary) : entity.summary);
  const cover = entity.cover as { url?: unknown } | null | undefined;
  const author = entity.author as { username?: unknown } | null | undefined;
  const main: Entity = {
    '@context': 'https://schema.org',
    '@type': kind === 'article' ? 'BlogPosting' : 'WebPage',
    headline: title,
    ...(kind === 'page' ? { name: title } : {}),
    ...(description ? { description } : {}),
    ...(str(entity.publishedAt) ? { datePublished: entity.publishedAt } : {}),
    ...(str(entity.updatedAt) ? { dateModified: entity.updatedAt } : {}),
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    ...(typeof cover?.url === 'string' ? { image: [site.media(cover.url)] } : {}),
    ...(typeof author?.username === 'string' ? { author: { '@type': 'Person', name: author.username } } : {}),
    publisher: { '@type': 'Organization', name: site.title || site.url, url: site.url },
    inLanguage: locale,
  };
  const crumbs = [
    { name: site.title || site.url, item: `${site.url}/` },
    ...ancestry(category).map((node) => ({ name: String(node.title), item: site.link('category', String(node.slug), locale) })),
    { name: title, item: url },
  ];
  const breadcrumbs: Entity = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({ '@type': 'ListItem', position: index + 1, name: crumb.name, item: crumb.item })),
  };
  return [main, breadcrumbs];
};
