/**
 * The `discovery-sitemap` service (docs/discovery.md#sitemap): every published article, page, category and tag version, in every
 * locale, as a sitemaps.org `urlset`, or, over `sitemap.pageSize` URLs, a `sitemapindex` of numbered pages.
 *
 * The document is produced as a sequence of chunks (an async generator): rows are read CHUNK at a time, keyset-paged
 * by id, each with its document's published versions, and each chunk's XML is yielded while the next chunk is read,
 * so a sitemap of any size never sits in memory as one string. Order: articles, pages, categories, tags, each by row
 * id; page `n` starts at URL `(n - 1) * pageSize`, found as the row that ends page `n - 1` (every page's last row is
 * read in one statement per type and kept until the content changes), so every page is a keyset read and the whole
 * sitemap costs time linear in its URLs.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { uid } from '../../platform/plugin-id';
import {
  countPublished,
  filesOf,
  pageBoundaries,
  publishedChunk,
  type AlternateRow,
  type SitemapRow,
} from './sitemap.data';
import type { PluginConfig } from '../../platform/config/schema';
import { publishedWithSlugs, normalizePath } from '../redirects';
import { keptByVersion } from '../cache';
import { getService } from '../../platform/get-service';
import { frontPath, siteOf, type LinkKind, type Site } from './site';
import { w3cDate, xml } from './xml';

/** Rows per read. */
const CHUNK = 1000;

export const SITEMAP_TYPE = 'application/xml; charset=utf-8';
export const SITEMAP_PAGE_NOT_FOUND = 'Sitemap page not found';

const KINDS: { kind: LinkKind; uid: string; cover?: string; xDefault?: boolean }[] = [
  { kind: 'article', uid: uid('article'), cover: 'cover' },
  { kind: 'page', uid: uid('page') },
  { kind: 'category', uid: uid('category'), xDefault: true },
  { kind: 'tag', uid: uid('tag'), xDefault: true },
];

const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';

export interface Plan {
  site: Site;
  paths: Paths;
  pageSize: number;
  defaultLocale: string;
  counts: number[];
  /** Per kind, the published rows whose front-end path an editor's redirect takes (never listed). */
  excluded: number[][];
  /** The editors' redirected paths, normalized (no alternate link points to one either). */
  redirected: Set<string>;
  total: number;
  /** Number of sitemap pages (1 when everything fits one urlset). */
  pages: number;
  /** The content version read before the counts (what page boundaries found for this plan are kept under). */
  version: number;
}

/** One `<url>` element (the row's own alternate is its `loc`). */
const urlXml = (site: Site, kind: LinkKind, row: SitemapRow, versions: AlternateRow[], defaultLocale: string, xDefault: boolean, cover?: string) => {
  const loc = xml(site.link(kind, row.slug, row.locale));
  let out = `<url><loc>${loc}</loc><lastmod>${w3cDate(row.updatedAt)}</lastmod>`;
  if (cover) out += `<image:image><image:loc>${xml(site.media(cover))}</image:loc></image:image>`;
  for (const version of versions) {
    const href = version.locale === row.locale && version.slug === row.slug ? loc : xml(site.link(kind, version.slug, version.locale));
    out += `<xhtml:link rel="alternate" hreflang="${xml(version.locale)}" href="${href}"/>`;
  }
  const fallback = xDefault ? versions.find((version) => version.locale === defaultLocale) : undefined;
  if (fallback) out += `<xhtml:link rel="alternate" hreflang="x-default" href="${xml(site.link(kind, fallback.slug, fallback.locale))}"/>`;
  return `${out}</url>\n`;
};

type Paths = PluginConfig['site']['paths'];

/** A row's versions but those whose front-end path an editor's redirect takes. */
const listedVersions = (plan: Plan, kind: LinkKind, versions: AlternateRow[]) =>
  plan.redirected.size === 0
    ? versions
    : versions.filter((version) => !plan.redirected.has(normalizePath(frontPath(plan.paths, kind, version.slug, version.locale, plan.defaultLocale))));

/**
 * Where a run of URLs starts: the type (index into KINDS), and in it either after the row `afterId` (keyset) or
 * `skip` rows in (an offset, only when no page boundary is known for that position).
 */
interface Cursor {
  index: number;
  afterId?: number;
  skip: number;
}

/** The cursor of URL `start` counted from the start of the order (an offset into its type). */
const offsetCursor = (plan: Plan, start: number): Cursor => {
  let skip = start;
  for (const [index, count] of plan.counts.entries()) {
    if (skip < count) return { index, skip };
    skip -= count;
  }
  return { index: plan.counts.length, skip: 0 };
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The published rows of `kind` whose front-end path is one of `redirected` (an editor's redirect `from`): the slugs
 * the paths could hold by `site.paths.<kind>`, the rows with those slugs, and of those the ones whose path matches.
 */
const redirectedRows = async (strapi: Core.Strapi, kind: LinkKind, paths: Paths, defaultLocale: string, redirected: Set<string>): Promise<number[]> => {
  if (redirected.size === 0) return [];
  const template = normalizePath(paths[kind].startsWith('/') ? paths[kind] : `/${paths[kind]}`);
  const pattern = new RegExp(
    `^${template
      .split(/(\{slug\}|\{localePrefix\}|\{locale\})/)
      .map((part) => (part === '{slug}' ? '([^/]+)' : part === '{locale}' ? '[^/]+' : part === '{localePrefix}' ? '(?:/[^/]+)?' : escapeRegExp(part)))
      .join('')}$`,
  );
  const slugs = new Set<string>();
  for (const path of redirected) {
    const match = pattern.exec(path);
    if (match?.[1]) slugs.add(match[1]);
  }
  const rows = await publishedWithSlugs(strapi, kind, [...slugs]);
  return rows.filter((row) => redirected.has(normalizePath(frontPath(paths, kind, row.slug, row.locale, defaultLocale)))).map((row) => row.id);
};

const sitemap = ({ strapi }: { strapi: Core.Strapi }) => {
  /** Page boundaries of a plan, by the URL position that starts the next page, kept per content version. */
  const boundaries = keptByVersion<Map<number, Cursor>>(strapi, 4);

  /**
   * The cursor of every page start of `plan` (but the first): the last row of each page, read per type in one
   * statement (pageBoundaries), as the keyset start of the next.
   */
  const pageStarts = async (plan: Plan): Promise<Map<number, Cursor>> => {
    const { version } = plan;
    const key = JSON.stringify([plan.pageSize, plan.counts, plan.excluded]);
    const kept = boundaries.get(version, key);
    if (kept) return kept;
    const starts = new Map<number, Cursor>();
    let before = 0;
    for (const [index, { uid: type }] of KINDS.entries()) {
      for (const { id, position } of await pageBoundaries(strapi, type, { before, pageSize: plan.pageSize, exclude: plan.excluded[index] })) {
        starts.set(before + position, { index, afterId: id, skip: 0 });
      }
      before += plan.counts[index];
    }
    boundaries.set(version, key, starts);
    return starts;
  };

  /** The covers of a chunk of rows of KINDS[index] (none when the type has no cover field). */
  const coversOf = async (index: number, rows: SitemapRow[]): Promise<Map<number, string>> => {
    const { uid: type, cover } = KINDS[index];
    const covers = new Map<number, string>();
    if (!cover || rows.length === 0) return covers;
    for (const file of await filesOf(strapi, type, cover, { first: rows[0].id, last: rows[rows.length - 1].id })) covers.set(file.rowId, file.url);
    return covers;
  };

  /**
   * The URLs from `cursor`, `count` of them, as XML chunks. As soon as a chunk's rows arrive, the next chunk (after
   * its last id) and this chunk's covers are asked for together, so the database reads ahead while this chunk's XML
   * is built and written.
   */
  async function* urls(plan: Plan, cursor: Cursor, count: number): AsyncGenerator<string> {
    let left = count;
    for (let index = cursor.index; index < KINDS.length && left > 0; index += 1) {
      const { kind, uid: type, xDefault } = KINDS[index];
      const exclude = plan.excluded[index];
      const first = index === cursor.index;
      let next: Promise<SitemapRow[]> | undefined = publishedChunk(strapi, type, {
        afterId: first ? cursor.afterId : undefined,
        offset: first ? cursor.skip : 0,
        limit: Math.min(CHUNK, left),
        exclude,
      });
      while (next) {
        const rows: SitemapRow[] = await next;
        left -= rows.length;
        const covers = coversOf(index, rows);
        next = rows.length === CHUNK && left > 0 ? publishedChunk(strapi, type, { afterId: rows[rows.length - 1].id, limit: Math.min(CHUNK, left), exclude }) : undefined;
        // Should this chunk's covers fail, or the client go away, the read ahead's failure is nobody's to handle.
        next?.catch(() => undefined);
        if (rows.length === 0) break;
        const coverOf = await covers;
        yield rows
          .map((row) => urlXml(plan.site, kind, row, listedVersions(plan, kind, row.versions), plan.defaultLocale, Boolean(xDefault), coverOf.get(row.id)))
          .join('');
      }
    }
  }

  async function* urlset(plan: Plan, cursor: Cursor, count: number): AsyncGenerator<string> {
    yield URLSET_OPEN;
    yield* urls(plan, cursor, count);
    yield '</urlset>\n';
  }

  async function* index(plan: Plan): AsyncGenerator<string> {
    const out = ['<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'];
    for (let n = 1; n <= plan.pages; n += 1) out.push(`<sitemap><loc>${xml(plan.site.host(`/api/bag/sitemaps/${n}.xml`))}</loc></sitemap>\n`);
    out.push('</sitemapindex>\n');
    yield out.join('');
  }

  return {
    /**
     * What to serve, decided before anything is written (so a 503, 400 or 404 is an ordinary error answer): the
     * counts, the site and the number of pages. `locale` is checked (400 when unknown) and otherwise ignored.
     */
    async plan(locale: unknown): Promise<Plan> {
      const version = await boundaries.version();
      const config = await getService(strapi, 'settings').get();
      const { defaultLocale } = await getService(strapi, 'locales').resolve(locale);
      const site = siteOf(strapi, config, defaultLocale);
      const redirected = await getService(strapi, 'redirects').redirectedPaths();
      const { paths } = config.site;
      const counts: number[] = [];
      const excluded: number[][] = [];
      for (const { kind, uid: type } of KINDS) {
        const ids = await redirectedRows(strapi, kind, paths, defaultLocale, redirected);
        excluded.push(ids);
        counts.push(await countPublished(strapi, type, ids));
      }
      const total = counts.reduce((sum, count) => sum + count, 0);
      const pageSize = config.sitemap.pageSize;
      return { site, paths, pageSize, defaultLocale, counts, excluded, redirected, total, pages: Math.max(1, Math.ceil(total / pageSize)), version };
    },

    /** `/sitemap.xml`: the urlset of everything, or the index when there is more than one page. */
    document(plan: Plan): AsyncGenerator<string> {
      return plan.pages > 1 ? index(plan) : urlset(plan, { index: 0, skip: 0 }, plan.total);
    },

    /**
     * `/sitemaps/{n}.xml` (`file` is `<n>.xml`): page `n` (from 1) as a urlset; 404 beyond the last page or for another
     * name. Where it starts is found before anything is written: after the last row of page `n - 1`, or, should the
     * content have changed between the counts and the boundaries so that none ends there, by an offset.
     */
    async page(plan: Plan, file: string): Promise<AsyncGenerator<string>> {
      const match = /^([1-9]\d{0,8})\.xml$/.exec(file);
      const number = match ? Number(match[1]) : NaN;
      if (!(number >= 1 && number <= plan.pages)) throw new errors.NotFoundError(SITEMAP_PAGE_NOT_FOUND);
      const start = (number - 1) * plan.pageSize;
      const cursor = start === 0 ? { index: 0, skip: 0 } : ((await pageStarts(plan)).get(start) ?? offsetCursor(plan, start));
      return urlset(plan, cursor, plan.pageSize);
    },
  };
};

export type DiscoverySitemapService = ReturnType<typeof sitemap>;
export default sitemap;
